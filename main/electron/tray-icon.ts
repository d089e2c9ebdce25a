/**
 * The tray icon drawn in code (no image assets to ship or lose): a ring with a dot, as raw BGRA
 * pixels for nativeImage.createFromBitmap. macOS gets black pixels and marks the image as a
 * template so the menu bar tints it; elsewhere the accent colour reads on light and dark panels.
 */
export interface Rgba {
  r: number;
  g: number;
  b: number;
}

export const ACCENT: Rgba = { r: 0x4f, g: 0x6b, b: 0xed };
export const TEMPLATE_BLACK: Rgba = { r: 0, g: 0, b: 0 };

export function trayIconBitmap(size: number, colour: Rgba): Buffer {
  const pixels = Buffer.alloc(size * size * 4);
  const c = (size - 1) / 2;
  const outer = size / 2 - 0.5;
  const inner = outer - Math.max(1.5, size / 8);
  const dot = size / 6;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - c, y - c);
      // Coverage with a one-pixel soft edge, so the shape is not jagged at 16 px.
      const ring = Math.min(Math.max(outer - d + 0.5, 0), 1) * Math.min(Math.max(d - inner + 0.5, 0), 1);
      const centre = Math.min(Math.max(dot - d + 0.5, 0), 1);
      const alpha = Math.round(Math.max(ring, centre) * 255);
      const i = (y * size + x) * 4;
      pixels[i] = colour.b;
      pixels[i + 1] = colour.g;
      pixels[i + 2] = colour.r;
      pixels[i + 3] = alpha;
    }
  }
  return pixels;
}

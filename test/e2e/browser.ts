/**
 * Headless Chromium for the window's end-to-end tests, through playwright-core only: Playwright
 * never downloads a browser here, it drives the system Chromium (DESIGN §8a).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { repoRoot } from '../helpers/paths.js';

export const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const screenshotDir = join(repoRoot, 'test-artifacts', 'screenshots');

/** Why the browser tests cannot run here, or null when they can. */
export function browserMissing(): string | null {
  if (!existsSync(chromiumPath)) return `no Chromium at ${chromiumPath} (install it, e.g. apt-get install -y chromium, or set CHROMIUM_PATH)`;
  return null;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export function screenshotPath(name: string): string {
  mkdirSync(screenshotDir, { recursive: true });
  return join(screenshotDir, `${name}.png`);
}

import { defineConfig } from 'vite';

// Plain URL maths instead of node:path keeps this file type-checkable with the renderer's DOM-only
// tsconfig (no Node types in the window's program).
const here = new URL('.', import.meta.url).pathname;
const repoRoot = new URL('..', import.meta.url).pathname;

export default defineConfig({
  root: here,
  // Relative asset URLs: the same build is served over loopback HTTP and loaded by Electron.
  base: './',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: `${repoRoot}dist/renderer`,
    emptyOutDir: true,
    target: 'es2022',
    // The strict CSP (script-src 'self') forbids inline scripts; never inline assets as data: URLs
    // into script either, and keep CSS in files (style-src 'self').
    assetsInlineLimit: 0,
    cssCodeSplit: false,
    modulePreload: { polyfill: false },
    sourcemap: false,
    chunkSizeWarningLimit: 1024,
  },
  server: { host: '127.0.0.1', strictPort: false },
});

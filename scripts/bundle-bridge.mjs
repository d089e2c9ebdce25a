#!/usr/bin/env node
// Bundles the two files that must run without the project's module tree (scripts/build.mjs runs
// this after tsc):
//
// 1. dist/bridge-bundle/nuzo-bridge.cjs — the stdio bridge and hooks as ONE CommonJS file for
//    Node 20, shebang kept, node builtins only (the build fails if a package or a native module
//    gets in). electron-builder ships it in resources/bridge/ (extraResources), outside the asar,
//    where the packaged app's own executable runs it as Node: ELECTRON_RUN_AS_NODE=1 Nuzo <file>.
//
//    The runAsNode fuse trade-off: that only works while the runAsNode fuse is enabled, so
//    electron-builder.yml keeps it on. What it costs: anyone who can already run programs as
//    this user can also run the signed Nuzo binary as a general-purpose Node. On macOS that
//    Node inherits the app's code-signing identity and its TCC grants (e.g. folders the person
//    allowed Nuzo to read), so it can be used to act "as Nuzo". We accept it because the bridge
//    then needs no separately installed Node, and we limit it: the hardened runtime's
//    entitlements grant nothing extra, NODE_OPTIONS and --inspect are fused off (so the app
//    proper cannot be hijacked through them), and the app code is asar-integrity checked and
//    only loaded from the asar. The alternative — shipping a separate signed Node binary for the
//    bridge — removes this but adds ~40 MB per architecture and its own update/signing path.
//
// 2. dist/electron/preload.cjs — the window's preload. Sandboxed preloads cannot use ES module
//    imports; Electron gives them a CommonJS `require` that knows 'electron' and little else.
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => process.stderr.write(`bundle: ${line}\n`);

/** Inputs must be project files; a package or native addon in the bundle is a build error. */
function assertOwnSources(metafile, label, allowed) {
  const foreign = Object.keys(metafile.inputs).filter((input) => input.includes('node_modules') || input.endsWith('.node') || !allowed.some((dir) => input.startsWith(dir)));
  if (foreign.length > 0) throw new Error(`${label} must contain project files only, found: ${foreign.join(', ')}`);
}

async function bundleBridge() {
  const entry = join(root, 'bridge', 'nuzo-bridge.ts');
  if (!existsSync(entry)) {
    say('no bridge/nuzo-bridge.ts yet; skipped the bridge bundle');
    return;
  }
  const outfile = join(root, 'dist', 'bridge-bundle', 'nuzo-bridge.cjs');
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    // A CommonJS file has no import.meta; give it this file's own URL instead.
    banner: { js: 'const __nuzo_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
    define: { 'import.meta.url': '__nuzo_import_meta_url' },
    packages: 'bundle',
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
  });
  assertOwnSources(result.metafile, 'the bridge bundle', ['bridge/', 'main/']);
  if (!readFileSync(outfile, 'utf8').startsWith('#!/usr/bin/env node')) throw new Error('the bridge bundle lost its shebang');
  say(`${relative(root, outfile)} (${Object.keys(result.metafile.inputs).length} files)`);
}

async function bundlePreload() {
  const entry = join(root, 'main', 'electron', 'preload.ts');
  if (!existsSync(entry)) return;
  const outfile = join(root, 'dist', 'electron', 'preload.cjs');
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'browser',
    // Electron 45's Chromium; the preload runs in the renderer process.
    target: 'chrome130',
    format: 'cjs',
    external: ['electron'],
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
  });
  assertOwnSources(result.metafile, 'the preload', ['main/electron/', 'main/ui-api/']);
  say(`${relative(root, outfile)} (${Object.keys(result.metafile.inputs).join(', ')})`);
}

try {
  await bundleBridge();
  await bundlePreload();
} catch (error) {
  process.stderr.write(`bundle: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

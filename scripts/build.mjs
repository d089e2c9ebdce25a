#!/usr/bin/env node
// Builds everything the app and the tests run: TypeScript (tsc), the window (Vite), the bundled bridge.
// Each step prints one line to stderr; a failing step stops the build with its exit code.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

function step(label, cmd, args) {
  const started = Date.now();
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`build: ${label} failed\n`);
    process.exit(result.status ?? 1);
  }
  process.stderr.write(`build: ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}

if (process.argv.includes('--clean')) rmSync(join(root, 'dist'), { recursive: true, force: true });
step('typescript', bin('tsc'), ['-p', 'tsconfig.json']);
if (existsSync(join(root, 'renderer', 'tsconfig.json'))) {
  // Vite strips types without checking them; the window gets its own DOM-only type-check first.
  step('window types', bin('tsc'), ['-p', 'renderer/tsconfig.json', '--noEmit']);
}
if (existsSync(join(root, 'renderer', 'vite.config.ts'))) {
  step('window', bin('vite'), ['build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
}
if (existsSync(join(root, 'scripts', 'bundle-bridge.mjs'))) {
  step('bridge bundle', process.execPath, [join(root, 'scripts', 'bundle-bridge.mjs')]);
}
for (const entry of ['dist/main/cli/nuzo.js', 'dist/bridge/nuzo-bridge.js']) {
  if (existsSync(join(root, entry))) chmodSync(join(root, entry), 0o755);
}

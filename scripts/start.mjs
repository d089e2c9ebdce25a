#!/usr/bin/env node
// `npm start`: builds, then runs the desktop app if it can run here — an Electron binary
// (ELECTRON_PATH, else node_modules/electron/dist, found without importing `electron`, which
// would try to download it), a display, and an Electron build of better-sqlite3 staged by
// `node scripts/package-native.mjs --dev`. Otherwise it says why in one line and runs the
// headless service with the window on loopback (`nuzo serve --ui`). Extra arguments go to
// `nuzo serve` in the headless case.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const { planLaunch } = await import(pathToFileURL(join(root, 'dist', 'main', 'electron', 'launch-plan.js')).href);
const { stagedModule, assembleDevApp } = await import(pathToFileURL(join(root, 'scripts', 'package-native.mjs')).href);

const isExecutable = (path) => {
  try {
    if (!statSync(path).isFile()) return false;
    if (process.platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};
const readText = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

const plan = planLaunch({ root, platform: process.platform, env: process.env, isExecutable, readText, nativeStaged: stagedModule() !== null });

function runForwarding(command, args, env) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (plan.kind === 'electron') {
  const appDir = assembleDevApp();
  // Inherited from a shell or a bridge, ELECTRON_RUN_AS_NODE would start Electron as plain Node.
  const { ELECTRON_RUN_AS_NODE: _ignored, ...env } = process.env;
  runForwarding(plan.binary, [appDir, ...process.argv.slice(2)], env);
} else {
  process.stderr.write(plan.reason + '\n');
  runForwarding(process.execPath, [join(root, 'dist', 'main', 'cli', 'nuzo.js'), 'serve', '--ui', ...process.argv.slice(2)], process.env);
}

#!/usr/bin/env node
// better-sqlite3 built for Electron's ABI, made in a staging copy — never in node_modules, which
// stays built for the Node that runs the tests. (`electron-builder install-app-deps` and
// `electron-rebuild` rebuild node_modules in place and, offline, "succeed" with the wrong ABI or
// delete the binary: never use them here.)
//
//   electron-builder hooks (electron-builder.yml):
//     beforePack  stages the module for the platform/arch being packed, before files are
//                 collected; electron-builder.yml maps .nuzo-dev/native/${os}-${arch}/… over
//                 node_modules/better-sqlite3/build/Release inside the app.
//     afterPack   checks that exactly that binary (and the bridge bundle) landed in the app.
//   node scripts/package-native.mjs --dev      stage for this machine's Electron (internet once)
//   node scripts/package-native.mjs --dev-app  assemble .nuzo-dev/electron-app (dist + staged
//                                              module) for `npm start` and the Electron e2e tests;
//                                              exit 3 when nothing is staged
//
// Staging downloads the prebuilt binary for the Electron version (prebuild-install, from the
// better-sqlite3 release) and falls back to compiling against Electron's headers (node-gyp) when
// the target is this machine. Both need the internet; the result is cached per platform-arch.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => process.stderr.write(`native: ${line}\n`);
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];
const OS_KEYS = { darwin: 'mac', linux: 'linux', win32: 'win' };
const BINARY = join('build', 'Release', 'better_sqlite3.node');

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const electronVersion = () => readJson(join(root, 'node_modules', 'electron', 'package.json')).version;
const sqliteVersion = () => readJson(join(root, 'node_modules', 'better-sqlite3', 'package.json')).version;
const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

export function stageDir(osKey, arch) {
  return join(root, '.nuzo-dev', 'native', `${osKey}-${arch}`);
}

function markerFor(platform, arch, electron) {
  return { electron, betterSqlite3: sqliteVersion(), platform, arch };
}

/** The staged module's folder when it matches this Electron and better-sqlite3, else null. */
export function stagedModule(platform = process.platform, arch = process.arch, electron = electronVersion()) {
  const dir = stageDir(OS_KEYS[platform], arch);
  const module = join(dir, 'better-sqlite3');
  try {
    const marker = readJson(join(dir, 'nuzo-native.json'));
    const wanted = markerFor(platform, arch, electron);
    const same = Object.keys(wanted).every((k) => marker[k] === wanted[k]);
    return same && existsSync(join(module, BINARY)) ? module : null;
  } catch {
    return null;
  }
}

/** Checks the binary's format before it goes anywhere: a Linux .so in a mac app is an easy mistake. */
function assertBinaryFor(platform, file) {
  const head = readFileSync(file).subarray(0, 4);
  const magic = head.toString('hex');
  const ok =
    platform === 'linux' ? magic === '7f454c46' : platform === 'win32' ? head.subarray(0, 2).toString('latin1') === 'MZ' : ['cffaedfe', 'feedfacf', 'cafebabe', 'bebafeca'].includes(magic);
  if (!ok) throw new Error(`${file} is not a ${platform} binary (starts with ${magic})`);
}

function run(label, args, cwd) {
  say(`${label}: ${args.map((a) => relative(root, a) || a).join(' ')}`);
  const result = spawnSync(process.execPath, args, { cwd, stdio: 'inherit', env: { ...process.env, npm_config_build_from_source: '' } });
  return result.status === 0;
}

export function stage({ platform, arch, electron }) {
  if (arch === 'universal') throw new Error('build mac arm64 and x64 separately (electron-builder.yml does); a universal better-sqlite3 is not staged');
  const existing = stagedModule(platform, arch, electron);
  if (existing) {
    say(`using the staged better-sqlite3 for Electron ${electron} ${platform}-${arch}`);
    return existing;
  }
  const dir = stageDir(OS_KEYS[platform], arch);
  const module = join(dir, 'better-sqlite3');
  const source = join(root, 'node_modules', 'better-sqlite3');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // The sources without the Node build: the staging copy gets its own.
  cpSync(source, module, {
    recursive: true,
    filter: (path) => {
      const rel = relative(source, path);
      return rel !== 'build' && !rel.startsWith(`build${sep}`) && rel !== 'node_modules' && !rel.startsWith(`node_modules${sep}`);
    },
  });
  const bin = (pkg, file) => join(root, 'node_modules', pkg, file);
  const downloaded = run('prebuilt', [bin('prebuild-install', 'bin.js'), '--runtime=electron', `--target=${electron}`, `--arch=${arch}`, `--platform=${platform}`, '--verbose'], module);
  if (!downloaded) {
    if (platform !== process.platform || arch !== process.arch) throw new Error(`no prebuilt better-sqlite3 for Electron ${electron} ${platform}-${arch}, and it cannot be compiled for another platform here`);
    const built = run('compile', [bin('node-gyp', join('bin', 'node-gyp.js')), 'rebuild', '--release', '--runtime=electron', `--target=${electron}`, `--arch=${arch}`, '--dist-url=https://electronjs.org/headers'], module);
    if (!built) throw new Error(`could not build better-sqlite3 for Electron ${electron} ${platform}-${arch} (this needs the internet)`);
  }
  const binary = join(module, BINARY);
  if (!existsSync(binary)) throw new Error(`${binary} was not produced`);
  assertBinaryFor(platform, binary);
  writeFileSync(join(dir, 'nuzo-native.json'), JSON.stringify(markerFor(platform, arch, electron), null, 2) + '\n');
  say(`staged ${relative(root, binary)} for Electron ${electron} ${platform}-${arch}`);
  return module;
}

// ---- electron-builder hooks ---------------------------------------------------------------

const contextFacts = (context) => ({
  platform: context.electronPlatformName,
  arch: ARCH_NAMES[context.arch],
  electron: context.packager?.config?.electronVersion ?? context.packager?.info?.framework?.version ?? electronVersion(),
});

export async function beforePack(context) {
  stage(contextFacts(context));
}

export async function afterPack(context) {
  const { platform, arch, electron } = contextFacts(context);
  const resources =
    platform === 'darwin' ? join(context.appOutDir, `${context.packager.appInfo.productFilename}.app`, 'Contents', 'Resources') : join(context.appOutDir, 'resources');
  const shipped = join(resources, 'app.asar.unpacked', 'node_modules', 'better-sqlite3', BINARY);
  const staged = join(stagedModule(platform, arch, electron) ?? stageDir(OS_KEYS[platform], arch), BINARY);
  if (!existsSync(shipped)) throw new Error(`the app has no ${relative(context.appOutDir, shipped)}: check files/asarUnpack in electron-builder.yml`);
  if (sha256(shipped) !== sha256(staged)) throw new Error(`${shipped} is not the Electron ${electron} build staged at ${staged} (the Node build got in?)`);
  if (!existsSync(join(resources, 'bridge', 'nuzo-bridge.cjs'))) throw new Error('the app has no resources/bridge/nuzo-bridge.cjs: run `npm run build` before packaging');
  say(`checked: ${platform}-${arch} ships the Electron ${electron} better-sqlite3 and the bridge bundle`);
}

export default beforePack;

// ---- development ----------------------------------------------------------------------------

export const devAppDir = join(root, '.nuzo-dev', 'electron-app');

/** An app folder Electron can start from: dist copied in, the staged module as its better-sqlite3. */
export function assembleDevApp() {
  const module = stagedModule();
  if (!module) return null;
  rmSync(devAppDir, { recursive: true, force: true });
  mkdirSync(devAppDir, { recursive: true });
  const pkg = readJson(join(root, 'package.json'));
  // type: module (ESM main); everything else resolves up the tree to the repository's node_modules.
  writeFileSync(join(devAppDir, 'package.json'), JSON.stringify({ name: pkg.name, productName: 'Nuzo', version: pkg.version, type: 'module', main: 'dist/main/electron/main.js' }, null, 2) + '\n');
  for (const part of ['main', 'renderer', 'electron', 'bridge', 'bridge-bundle']) {
    const from = join(root, 'dist', part);
    if (existsSync(from)) cpSync(from, join(devAppDir, 'dist', part), { recursive: true });
  }
  cpSync(module, join(devAppDir, 'node_modules', 'better-sqlite3'), { recursive: true });
  return devAppDir;
}

const isCli = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isCli) {
  const mode = process.argv[2];
  try {
    if (mode === '--dev') {
      stage({ platform: process.platform, arch: process.arch, electron: electronVersion() });
    } else if (mode === '--dev-app') {
      const dir = assembleDevApp();
      if (!dir) {
        say(`nothing staged for Electron ${electronVersion()} ${process.platform}-${process.arch}: run \`node scripts/package-native.mjs --dev\` (needs the internet)`);
        process.exit(3);
      }
      process.stdout.write(dir + '\n');
    } else {
      say('usage: node scripts/package-native.mjs --dev | --dev-app   (electron-builder calls beforePack/afterPack itself)');
      process.exit(2);
    }
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

/**
 * electron-builder.yml: valid for electron-builder's own schema, and the security-relevant
 * choices are what we decided (fuses, native module handling, installers).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/paths.js';

const require = createRequire(import.meta.url);
type Config = Record<string, unknown> & {
  electronFuses: Record<string, boolean>;
  files: unknown[];
  extraResources: Array<{ from: string; to: string }>;
  asarUnpack: string[];
  deb: { recommends: string[] };
  nsis: { oneClick: boolean; perMachine: boolean; deleteAppDataOnUninstall: boolean };
  mac: { hardenedRuntime: boolean; target: Array<{ target: string; arch: string[] }>; entitlements: string };
  linux: { target: string[] };
};
const yaml = require('js-yaml') as { load(text: string): unknown };
const config = yaml.load(readFileSync(join(repoRoot, 'electron-builder.yml'), 'utf8')) as Config;

test('electron-builder accepts the configuration', async () => {
  const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as { validateConfiguration(c: unknown, logger: unknown): Promise<void> };
  const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
  await validateConfiguration(config, new DebugLogger(false));
});

test('fuses: runAsNode stays on for the bridge; every other door is shut', () => {
  assert.deepEqual(config.electronFuses, {
    runAsNode: true,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    grantFileProtocolExtraPrivileges: false,
  });
});

test('the native module is never rebuilt in place; its Electron build comes from the staging hook', () => {
  assert.equal(config['npmRebuild'], false);
  assert.equal(config['beforePack'], 'scripts/package-native.mjs');
  assert.equal(config['afterPack'], 'scripts/package-native.mjs');
  assert.ok(config.files.includes('!node_modules/better-sqlite3/build/**'));
  assert.ok(config.asarUnpack.includes('**/*.node'));
  assert.deepEqual(config.extraResources, [{ from: 'dist/bridge-bundle/nuzo-bridge.cjs', to: 'bridge/nuzo-bridge.cjs' }]);
  assert.deepEqual(config['extraMetadata'], { main: 'dist/main/electron/main.js' });
});

test('installers: AppImage + deb (Ayatana tray), dmg arm64 + x64 hardened, per-user NSIS', () => {
  assert.deepEqual(config.linux.target, ['AppImage', 'deb']);
  assert.deepEqual(config.deb.recommends, ['libayatana-appindicator3-1']);
  assert.equal(config.mac.hardenedRuntime, true);
  assert.deepEqual(config.mac.target, [{ target: 'dmg', arch: ['arm64', 'x64'] }]);
  assert.match(readFileSync(join(repoRoot, config.mac.entitlements), 'utf8'), /com\.apple\.security\.cs\.allow-jit/);
  assert.deepEqual([config.nsis.oneClick, config.nsis.perMachine, config.nsis.deleteAppDataOnUninstall], [true, false, false]);
});

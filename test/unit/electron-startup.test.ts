/** Launch decisions: when the window shows, what `npm start` runs, which bridge the app writes. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { showWindowOnLaunch } from '../../main/electron/startup-policy.js';
import { hasDisplay, installedElectron, planLaunch, type LaunchFacts } from '../../main/electron/launch-plan.js';
import { appStartCommand, planAppBridge, type AppFacts } from '../../main/electron/app-bridge.js';

test('the window shows on first run and on manual starts, not at login or for a bridge', () => {
  assert.equal(showWindowOnLaunch({ argv: ['nuzo'], firstRun: false, openedAtLogin: false }), true);
  assert.equal(showWindowOnLaunch({ argv: ['nuzo', '--hidden'], firstRun: false, openedAtLogin: false }), false);
  assert.equal(showWindowOnLaunch({ argv: ['nuzo'], firstRun: false, openedAtLogin: true }), false);
  assert.equal(showWindowOnLaunch({ argv: ['nuzo', '--hidden'], firstRun: true, openedAtLogin: true }), true, 'first run always shows');
});

const facts = (over: Partial<LaunchFacts> = {}): LaunchFacts => ({
  root: '/src/nuzo',
  platform: 'linux',
  env: { DISPLAY: ':0' },
  isExecutable: () => true,
  readText: () => null,
  nativeStaged: true,
  ...over,
});

test('npm start: Electron when binary, display and native build are all here', () => {
  assert.deepEqual(planLaunch(facts()), { kind: 'electron', binary: join('/src/nuzo', 'node_modules', 'electron', 'dist', 'electron') });
  assert.deepEqual(planLaunch(facts({ env: { DISPLAY: ':0', ELECTRON_PATH: '/opt/electron/electron' } })), { kind: 'electron', binary: '/opt/electron/electron' });
  assert.equal(installedElectron({ root: '/r', platform: 'darwin', readText: () => null }), join('/r', 'node_modules', 'electron', 'dist', 'Electron.app', 'Contents', 'MacOS', 'Electron'));
  assert.equal(installedElectron({ root: '/r', platform: 'win32', readText: () => 'electron.exe\n' }), join('/r', 'node_modules', 'electron', 'dist', 'electron.exe'));
});

test('npm start: otherwise headless, with one line saying why', () => {
  const none = planLaunch(facts({ isExecutable: () => false }));
  assert.deepEqual(none, { kind: 'headless', reason: 'nuzo: no Electron binary here (set ELECTRON_PATH) — running the headless service with the window at the URL below' });
  const bad = planLaunch(facts({ env: { DISPLAY: ':0', ELECTRON_PATH: '/nope' }, isExecutable: (p) => p !== '/nope' }));
  assert.equal(bad.kind === 'headless' && bad.reason, 'nuzo: ELECTRON_PATH (/nope) is not an executable file — running the headless service with the window at the URL below');
  const noDisplay = planLaunch(facts({ env: {} }));
  assert.match(noDisplay.kind === 'headless' ? noDisplay.reason : '', /^nuzo: no display \(DISPLAY and WAYLAND_DISPLAY are unset\) — running the headless service/);
  const noNative = planLaunch(facts({ nativeStaged: false }));
  assert.match(noNative.kind === 'headless' ? noNative.reason : '', /better-sqlite3 is not built for Electron here \(run `node scripts\/package-native\.mjs --dev`/);
  for (const p of [none, bad, noDisplay, noNative]) assert.ok(p.kind === 'headless' && !p.reason.includes('\n'), 'one line');
  assert.equal(hasDisplay('linux', { WAYLAND_DISPLAY: 'wayland-0' }), true);
  assert.equal(hasDisplay('darwin', {}), true);
});

const app = (over: Partial<AppFacts> = {}): AppFacts => ({
  isPackaged: true,
  execPath: '/opt/Nuzo/nuzo',
  resourcesPath: '/opt/Nuzo/resources',
  appPath: '/opt/Nuzo/resources/app.asar',
  appImage: undefined,
  stableDir: '/home/ada/.config/Nuzo/bridge',
  platform: 'linux',
  env: {},
  ...over,
});

test('packaged app: its own executable runs the bundled bridge as Node, and can start the app', () => {
  const plan = planAppBridge(app());
  assert.equal(plan.copyFrom, null);
  assert.deepEqual(plan.bridge, {
    command: '/opt/Nuzo/nuzo',
    args: ['/opt/Nuzo/resources/bridge/nuzo-bridge.cjs'],
    env: { ELECTRON_RUN_AS_NODE: '1', NUZO_APP_COMMAND: 'env -u ELECTRON_RUN_AS_NODE /opt/Nuzo/nuzo --hidden' },
  });
});

test('AppImage: $APPIMAGE and a bridge copy that outlives the mount', () => {
  const plan = planAppBridge(app({ execPath: '/tmp/.mount_Nuzo1/nuzo', resourcesPath: '/tmp/.mount_Nuzo1/resources', appImage: '/home/ada/Nuzo.AppImage' }));
  assert.equal(plan.copyFrom, '/tmp/.mount_Nuzo1/resources/bridge/nuzo-bridge.cjs');
  assert.equal(plan.bridge.command, '/home/ada/Nuzo.AppImage');
  assert.deepEqual(plan.bridge.args, [join('/home/ada/.config/Nuzo/bridge', 'nuzo-bridge.cjs')]);
  assert.equal(plan.bridge.env['NUZO_APP_COMMAND'], 'env -u ELECTRON_RUN_AS_NODE /home/ada/Nuzo.AppImage --hidden');
  assert.ok(!JSON.stringify(plan.bridge).includes('.mount_'));
});

test('development Electron, Windows start command, NUZO_HOME passed on', () => {
  const dev = planAppBridge(app({ isPackaged: false, execPath: '/x/electron', appPath: '/nonexistent/app', env: { NUZO_HOME: '/data' } }));
  assert.deepEqual(dev.bridge.args, [join('/nonexistent/app', 'dist', 'bridge', 'nuzo-bridge.js')]);
  assert.equal(dev.bridge.env['NUZO_APP_COMMAND'], 'env -u ELECTRON_RUN_AS_NODE /x/electron /nonexistent/app --hidden');
  assert.equal(dev.bridge.env['NUZO_HOME'], '/data');
  assert.equal(appStartCommand(['C:\\Program Files\\Nuzo\\Nuzo.exe', '--hidden'], 'win32'), 'set "ELECTRON_RUN_AS_NODE=" && "C:\\Program Files\\Nuzo\\Nuzo.exe" "--hidden"');
  assert.equal(appStartCommand(["/Applications/It's Nuzo.app/Contents/MacOS/Nuzo"], 'darwin'), "env -u ELECTRON_RUN_AS_NODE '/Applications/It'\\''s Nuzo.app/Contents/MacOS/Nuzo'");
});

/**
 * main/electron/main.ts wired up without Electron: a stand-in `electron` module (resolved by a
 * module hook, for this test process only) records what the shell does, while the service runs
 * for real in a forked service-entry.js. Checks the order at start-up, the IPC gate, the
 * protocol, navigation rules, the tray/title count following offers, the tray's pause toggle,
 * and a clean quit. The real Electron run is test/e2e/electron.test.ts (needs ELECTRON_PATH).
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { callTool, connectClient } from '../helpers/service-process.js';

const FAKE_ELECTRON = String.raw`
import { EventEmitter } from 'node:events';
import { fork } from 'node:child_process';
export const calls = [];
const log = (name) => calls.push(name);
class FakeApp extends EventEmitter {
  isPackaged = false; paths = new Map(); quits = 0; appPath = process.cwd();
  requestSingleInstanceLock() { log('requestSingleInstanceLock'); return true; }
  setPath(name, value) { log('setPath:' + name); this.paths.set(name, value); }
  getPath(name) { return this.paths.get(name) ?? '/nonexistent'; }
  getAppPath() { return this.appPath; }
  enableSandbox() { log('enableSandbox'); }
  whenReady() { log('whenReady'); return Promise.resolve(); }
  quit() {
    this.quits++;
    const event = { prevented: false, preventDefault() { this.prevented = true; } };
    this.emit('before-quit', event);
    if (!event.prevented) this.emit('will-quit');
  }
  getLoginItemSettings() { return { openAtLogin: false, wasOpenedAtLogin: false }; }
  setLoginItemSettings() {}
}
export const app = new FakeApp();
export const protocol = { privileged: null, handlers: new Map(),
  registerSchemesAsPrivileged(s) { log('registerSchemesAsPrivileged'); this.privileged = s; },
  handle(scheme, handler) { this.handlers.set(scheme, handler); } };
export const session = { defaultSession: { handlers: {},
  setPermissionRequestHandler(h) { this.handlers.request = h; },
  setPermissionCheckHandler(h) { this.handlers.check = h; },
  setDevicePermissionHandler(h) { this.handlers.device = h; } } };
export const shell = { opened: [], openExternal(url) { this.opened.push(url); return Promise.resolve(); } };
let nextId = 1;
class FakeWebContents extends EventEmitter {
  constructor() { super(); this.id = nextId++; this.sent = []; this.scripts = []; this.openHandler = null;
    this.mainFrame = { url: 'app://nuzo/index.html#/inbox', parent: null, processId: 1, routingId: this.id }; }
  send(channel, payload) { this.sent.push([channel, payload]); }
  executeJavaScript(code) { this.scripts.push(code); return Promise.resolve(); }
  setWindowOpenHandler(h) { this.openHandler = h; }
}
export class BrowserWindow extends EventEmitter {
  static windows = [];
  static getAllWindows() { return BrowserWindow.windows; }
  constructor(options) { super(); this.options = options; this.title = options.title; this.visible = false; this.loaded = [];
    this.webContents = new FakeWebContents(); BrowserWindow.windows.push(this); app.emit('web-contents-created', {}, this.webContents); }
  loadURL(url) { this.loaded.push(url); return Promise.resolve(); }
  setTitle(t) { this.title = t; } getTitle() { return this.title; }
  show() { this.visible = true; } hide() { this.visible = false; } focus() {} restore() {}
  isVisible() { return this.visible; } isFocused() { return false; } isMinimized() { return false; } isDestroyed() { return false; }
}
export class Tray extends EventEmitter {
  static trays = [];
  constructor(image) { super(); this.image = image; this.tooltip = ''; this.menu = null; Tray.trays.push(this); }
  setToolTip(t) { this.tooltip = t; } setTitle(t) { this.title = t; } setContextMenu(m) { this.menu = m; } destroy() {}
}
export const Menu = { applicationMenu: undefined, buildFromTemplate(items) { return { items }; }, setApplicationMenu(m) { this.applicationMenu = m; } };
export const nativeImage = { createFromBitmap(buffer, size) { return { bytes: buffer.length, size, setTemplateImage() {} }; } };
export class Notification extends EventEmitter {
  static shown = [];
  static isSupported() { return true; }
  constructor(options) { super(); this.options = options; }
  show() { Notification.shown.push(this); }
}
export const dialog = { errors: [], showErrorBox(title, content) { this.errors.push([title, content]); } };
export const ipcMain = { handlers: new Map(), handle(channel, handler) { this.handlers.set(channel, handler); } };
export const utilityProcess = { forked: [], fork(entry, args, options) {
  log('utilityProcess.fork');
  const child = fork(entry, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  const w = new EventEmitter();
  w.stderr = ''; child.stderr.setEncoding('utf8').on('data', (c) => { w.stderr += c; });
  w.postMessage = (m) => child.send(m); w.kill = () => child.kill();
  child.on('message', (m) => w.emit('message', m)); child.on('exit', (code) => w.emit('exit', code ?? -1));
  this.forked.push({ entry, options, child, w }); return w; } };
`;

const HOOKS = `
export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: process.env.NUZO_TEST_FAKE_ELECTRON ?? ${JSON.stringify('')}, shortCircuit: true };
  return next(specifier, context);
}
`;

// --- the stand-in's shape, as this test uses it -----------------------------------------------
type Handler = (...args: unknown[]) => unknown;
interface FakeEvent {
  prevented: boolean;
  preventDefault(): void;
}
interface FakeWebContents extends EventEmitter {
  id: number;
  sent: Array<[string, unknown]>;
  scripts: string[];
  openHandler: ((details: { url: string }) => { action: string }) | null;
  mainFrame: { url: string; parent: null; processId: number; routingId: number };
}
interface FakeWindow extends EventEmitter {
  options: { webPreferences: Record<string, unknown> };
  title: string;
  visible: boolean;
  loaded: string[];
  webContents: FakeWebContents;
}
interface MenuItem {
  label?: string;
  type?: string;
  checked?: boolean;
  click?: (item: { checked: boolean }) => void;
}
interface Fake {
  calls: string[];
  app: EventEmitter & { quits: number; appPath: string; paths: Map<string, string>; quit(): void };
  protocol: { privileged: Array<{ scheme: string; privileges: Record<string, boolean> }>; handlers: Map<string, (request: { url: string }) => Promise<Response>> };
  session: { defaultSession: { handlers: { request: Handler; check: Handler; device: Handler } } };
  shell: { opened: string[] };
  BrowserWindow: { windows: FakeWindow[] };
  Tray: { trays: Array<{ tooltip: string; title?: string; menu: { items: MenuItem[] } | null }> };
  Notification: { shown: Array<{ options: { title: string; body: string } }> };
  dialog: { errors: Array<[string, string]> };
  ipcMain: { handlers: Map<string, (event: unknown, method: unknown, params: unknown) => Promise<{ ok: boolean; result?: unknown; error?: { code: string } }>> };
  utilityProcess: { forked: Array<{ entry: string; options: { serviceName?: string }; w: { stderr: string } }> };
}

const dir = mkdtempSync(join(tmpdir(), 'nuzo-fake-electron-'));
const home = join(dir, 'data');
let fake: Fake;

const until = async (check: () => boolean, what: string, ms = 15_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; service log:\n${fake.utilityProcess.forked.map((f) => f.w.stderr).join('\n')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

const win = (): FakeWindow => fake.BrowserWindow.windows[0]!;
const tray = (): Fake['Tray']['trays'][number] => fake.Tray.trays[0]!;
const call = (event: unknown, method: unknown, params: unknown = {}) => fake.ipcMain.handlers.get('nuzo:call')!(event, method, params);
const fromWindow = () => ({ sender: win().webContents, senderFrame: win().webContents.mainFrame });
const fakeEvent = (): FakeEvent => ({ prevented: false, preventDefault() { this.prevented = true; } });

before(async () => {
  writeFileSync(join(dir, 'fake-electron.mjs'), FAKE_ELECTRON);
  writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
  process.env['NUZO_TEST_FAKE_ELECTRON'] = pathToFileURL(join(dir, 'fake-electron.mjs')).href;
  process.env['NUZO_HOME'] = home;
  process.env['NUZO_CONSENT_WAIT_MS'] = '300';
  register(pathToFileURL(join(dir, 'hooks.mjs')).href);
  fake = (await import(process.env['NUZO_TEST_FAKE_ELECTRON'])) as Fake;
  await import('../../main/electron/main.js');
  await until(() => fake.BrowserWindow.windows.length === 1, 'the window');
});

after(async () => {
  if (fake && fake.app.quits === 0) fake.app.quit();
  rmSync(dir, { recursive: true, force: true });
});

test('start-up order: scheme and data-folder lock before anything binds; the service runs in a utility process', () => {
  const at = (name: string): number => fake.calls.indexOf(name);
  assert.ok(at('registerSchemesAsPrivileged') >= 0 && at('registerSchemesAsPrivileged') < at('whenReady'));
  assert.ok(at('setPath:userData') < at('requestSingleInstanceLock'), 'the lock lives in the per-data-folder profile');
  assert.ok(at('requestSingleInstanceLock') < at('whenReady') && at('whenReady') < at('utilityProcess.fork'));
  assert.ok(at('enableSandbox') >= 0);
  assert.equal(fake.app.paths.get('userData'), join(home, 'shell'));
  assert.deepEqual(fake.protocol.privileged, [{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }]);
  assert.match(fake.utilityProcess.forked[0]!.entry, /dist[\\/]main[\\/]electron[\\/]service-entry\.js$/);
  assert.equal(fake.utilityProcess.forked[0]!.options.serviceName, 'Nuzo service');
});

test('the window: isolated, sandboxed, no Node, preload bundle, app://nuzo inbox, shown on first run', async () => {
  const w = win();
  assert.deepEqual(
    Object.fromEntries(['contextIsolation', 'sandbox', 'nodeIntegration', 'webSecurity', 'webviewTag'].map((k) => [k, w.options.webPreferences[k]])),
    { contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false },
  );
  assert.match(String(w.options.webPreferences['preload']), /dist[\\/]electron[\\/]preload\.cjs$/);
  assert.deepEqual(w.loaded, ['app://nuzo/index.html#/inbox']);
  w.emit('ready-to-show');
  assert.equal(w.visible, true);
  const closing = fakeEvent();
  w.emit('close', closing);
  assert.equal(closing.prevented, true, 'closing hides to the tray');
  assert.equal(w.visible, false);
  const title = fakeEvent();
  w.emit('page-title-updated', title);
  assert.equal(title.prevented, true, 'the page cannot replace the count in the title');
});

test('IPC: our window’s calls reach the service; other senders and bad params are refused', async () => {
  const settings = await call(fromWindow(), 'settings');
  assert.equal(settings.ok, true, JSON.stringify(settings));
  assert.equal((settings.result as { data_folder: string }).data_folder, home);
  const iframe = { sender: win().webContents, senderFrame: { url: 'app://nuzo/index.html', parent: {}, processId: 1, routingId: 99 } };
  assert.equal((await call(iframe, 'settings')).error?.code, 'auth_failed');
  const foreignPage = { sender: win().webContents, senderFrame: { ...win().webContents.mainFrame, url: 'https://example.com/' } };
  assert.equal((await call(foreignPage, 'settings')).error?.code, 'auth_failed');
  const otherContents = { sender: { id: 999, mainFrame: win().webContents.mainFrame }, senderFrame: win().webContents.mainFrame };
  assert.equal((await call(otherContents, 'settings')).error?.code, 'auth_failed');
  assert.equal((await call({ sender: win().webContents, senderFrame: null }, 'settings')).error?.code, 'auth_failed');
  assert.equal((await call(fromWindow(), 'setCapturePaused', { paused: 'yes' })).error?.code, 'validation_error');
  assert.equal((await call(fromWindow(), 'dropDatabase')).error?.code, 'not_found');
  assert.equal((await call(fromWindow(), 'memory', { memory_id: 'nope' })).error?.code, 'not_found');
});

test('app:// serves the renderer build with the CSP, and nothing else', async () => {
  const handle = fake.protocol.handlers.get('app')!;
  const outside = await handle({ url: 'app://nuzo/%2e%2e/%2e%2e/package.json' });
  assert.ok(outside.status === 400 || outside.status === 404);
  assert.match(outside.headers.get('content-security-policy') ?? '', /default-src 'self'/);
  const index = await handle({ url: 'app://nuzo/' });
  if (index.status === 200) {
    assert.match(index.headers.get('content-type') ?? '', /text\/html/);
    assert.match(index.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  } else {
    assert.equal(index.status, 404, 'only when the window is not built');
  }
});

test('navigation, new windows and permissions are refused; allowed web links go to the browser', () => {
  const contents = win().webContents;
  const local = fakeEvent();
  contents.emit('will-navigate', local, 'file:///etc/passwd');
  assert.equal(local.prevented, true);
  const web = fakeEvent();
  contents.emit('will-navigate', web, 'https://modelcontextprotocol.io/');
  assert.equal(web.prevented, true);
  const frame = fakeEvent();
  contents.emit('will-frame-navigate', frame);
  assert.equal(frame.prevented, true);
  assert.deepEqual(contents.openHandler!({ url: 'http://127.0.0.1:9/' }), { action: 'deny' });
  assert.deepEqual(contents.openHandler!({ url: 'https://github.com/' }), { action: 'deny' });
  assert.deepEqual(fake.shell.opened, ['https://modelcontextprotocol.io/', 'https://github.com/']);
  let granted: boolean | null = null;
  fake.session.defaultSession.handlers.request(contents, 'media', (ok: boolean) => (granted = ok), { requestingUrl: 'app://nuzo/index.html', isMainFrame: true });
  assert.equal(granted, false);
  assert.equal(fake.session.defaultSession.handlers.check(contents, 'geolocation', 'app://nuzo', { requestingUrl: 'app://nuzo/', isMainFrame: true }), false);
  assert.equal(fake.session.defaultSession.handlers.device(), false);
});

test('a new draft raises the count in the tray and title, notifies without the text, and is pushed to the window', async () => {
  await until(() => win().title === 'Nuzo', 'the idle title');
  assert.equal(tray().tooltip, 'Nuzo — nothing waiting');
  const client = await connectClient(home);
  try {
    const r = await callTool(client, 'memory_confirm_capture', { content: 'The on-call rotation changes on Tuesdays.', kind: 'fact' });
    assert.equal(r.code, 'consent_pending');
    await until(() => win().title === 'Nuzo — 1 waiting', 'the title to count the draft');
    assert.equal(tray().tooltip, 'Nuzo — 1 waiting');
    assert.ok(tray().menu!.items.some((i) => i.label === 'Inbox (1)'));
    await until(() => fake.Notification.shown.length === 1, 'the notification');
    const notice = fake.Notification.shown[0]!.options;
    assert.doesNotMatch(JSON.stringify(notice), /on-call rotation/);
    assert.ok(win().webContents.sent.some(([channel, e]) => channel === 'nuzo:event' && (e as { type: string }).type === 'offer.created'));
    const [offer] = (await call(fromWindow(), 'inbox')).result as Array<{ id: string }>;
    assert.equal((await call(fromWindow(), 'decideOffer', { offer_id: offer!.id, approve: false })).ok, true);
    await until(() => win().title === 'Nuzo', 'the count to drop');
    assert.equal(tray().tooltip, 'Nuzo — nothing waiting');
  } finally {
    await client.close();
  }
});

test('the tray pauses capture through the service and says so', async () => {
  const pause = tray().menu!.items.find((i) => i.label === 'Pause capture')!;
  assert.equal(pause.checked, false);
  pause.click!({ checked: true });
  await until(() => tray().tooltip.endsWith('(capture paused)'), 'the paused tooltip');
  const settings = await call(fromWindow(), 'settings');
  assert.equal((settings.result as { capture_paused: boolean }).capture_paused, true);
  const inbox = tray().menu!.items.find((i) => i.label === 'Inbox')!;
  inbox.click!({ checked: false });
  assert.equal(win().visible, true);
  assert.ok(win().webContents.scripts.includes("location.hash = '#/inbox'"));
});

test('starting Nuzo again shows the window, unless a bridge started it hidden', () => {
  win().emit('close', fakeEvent());
  fake.app.emit('second-instance', {}, ['nuzo', '--hidden'], '/');
  assert.equal(win().visible, false);
  fake.app.emit('second-instance', {}, ['nuzo'], '/');
  assert.equal(win().visible, true);
});

test('quitting stops the service cleanly before the app goes', async () => {
  const quit = tray().menu!.items.find((i) => i.label === 'Quit Nuzo')!;
  const willQuit = new Promise<void>((resolve) => fake.app.once('will-quit', () => resolve()));
  quit.click!({ checked: false });
  await willQuit;
  assert.equal(fake.app.quits, 2, 'held once for the service, then quit for real');
  assert.deepEqual(fake.dialog.errors, []);
});

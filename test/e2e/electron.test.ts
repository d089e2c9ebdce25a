/**
 * The desktop app end to end: Electron launched by Playwright (playwright-core's _electron) on the
 * development app folder (scripts/package-native.mjs --dev-app). Electron cannot be downloaded on
 * our build machines, so the binary comes from ELECTRON_PATH; without it — or without an Electron
 * build of better-sqlite3 — the tests are reported as skipped with the reason, never passed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test, type TestContext } from 'node:test';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { repoRoot } from '../helpers/paths.js';
import { callTool, connectClient } from '../helpers/service-process.js';
import type { NuzoApi } from '../../main/ui-api/contract.js';

const NO_BINARY = 'no Electron binary: set ELECTRON_PATH to run the desktop end-to-end tests';

function electronMissing(): string | null {
  const path = process.env['ELECTRON_PATH'];
  if (path === undefined || path.trim() === '') return NO_BINARY;
  try {
    if (!statSync(path).isFile()) return `${NO_BINARY} (${path} is not a file)`;
    if (process.platform !== 'win32') accessSync(path, constants.X_OK);
  } catch {
    return `${NO_BINARY} (${path} is not an executable file)`;
  }
  if (process.platform === 'linux' && !process.env['DISPLAY'] && !process.env['WAYLAND_DISPLAY']) return 'no display for Electron: run under Xvfb (xvfb-run) or a desktop session';
  return null;
}

let skipReason = electronMissing();
let app: ElectronApplication | null = null;
let page: Page | null = null;
const home = mkdtempSync(join(tmpdir(), 'nuzo-electron-e2e-'));

before(async () => {
  if (skipReason) return;
  const assembled = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'package-native.mjs'), '--dev-app'], { encoding: 'utf8' });
  if (assembled.status === 3) {
    skipReason = 'no Electron build of better-sqlite3: run `node scripts/package-native.mjs --dev` (needs the internet) to run the desktop end-to-end tests';
    return;
  }
  assert.equal(assembled.status, 0, assembled.stderr);
  const { ELECTRON_RUN_AS_NODE: _drop, ...env } = process.env;
  app = await _electron.launch({
    executablePath: process.env['ELECTRON_PATH']!,
    args: [assembled.stdout.trim()],
    env: { ...(env as Record<string, string>), NUZO_HOME: home, NUZO_CONSENT_WAIT_MS: '300' },
    timeout: 30_000,
  });
  page = await app.firstWindow();
});

after(async () => {
  await app?.close();
  rmSync(home, { recursive: true, force: true });
});

/** Returns the page, or skips the test (printed with its reason) where Electron cannot run. */
function ready(t: TestContext): Page | null {
  if (skipReason || !page) {
    t.skip(skipReason ?? 'the app did not start');
    return null;
  }
  return page;
}

const windowTitle = (): Promise<string> => app!.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.getTitle() ?? '');

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(value)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('the window opens on the inbox, isolated, with window.nuzo as its only bridge', async (t) => {
  const p = ready(t);
  if (!p) return;
  await p.waitForURL(/^app:\/\/nuzo\/index\.html#\/inbox$/);
  const facts = await p.evaluate(() => {
    const g = globalThis as unknown as Record<string, unknown> & { nuzo?: Record<string, unknown> };
    return { nuzo: typeof g.nuzo?.['inbox'], subscribe: typeof g.nuzo?.['subscribe'], require: typeof g['require'], process: typeof g['process'] };
  });
  assert.deepEqual(facts, { nuzo: 'function', subscribe: 'function', require: 'undefined', process: 'undefined' });
  await p.getByText('Inbox', { exact: false }).first().waitFor();
  const settings = await p.evaluate(() => (globalThis as unknown as { nuzo: NuzoApi }).nuzo.settings());
  assert.equal(settings.data_folder, home);
});

test('API errors keep their code across the bridge; bad params are refused by the schemas', async (t) => {
  const p = ready(t);
  if (!p) return;
  const codes = await p.evaluate(async () => {
    const api = (globalThis as unknown as { nuzo: NuzoApi }).nuzo;
    const code = (e: unknown): unknown => (e as { code?: unknown }).code;
    const a = await api.memory({ memory_id: 'no-such-memory' }).then(() => 'resolved', code);
    const b = await api.setCapturePaused({ paused: 'yes' } as unknown as { paused: boolean }).then(() => 'resolved', code);
    return [a, b];
  });
  assert.deepEqual(codes, ['not_found', 'validation_error']);
});

test('the tray count (and window title) follows offers', async (t) => {
  const p = ready(t);
  if (!p) return;
  assert.equal(await until(windowTitle, (s) => s === 'Nuzo', 'the idle title'), 'Nuzo');
  const client = await connectClient(home);
  try {
    const r = await callTool(client, 'memory_confirm_capture', { content: 'Release branches are cut on Thursdays.', kind: 'fact' });
    assert.equal(r.code, 'consent_pending');
    await until(windowTitle, (s) => s === 'Nuzo — 1 waiting', 'the title to show one waiting draft');
    await p.evaluate(async () => {
      const api = (globalThis as unknown as { nuzo: NuzoApi }).nuzo;
      const [offer] = await api.inbox();
      await api.decideOffer({ offer_id: offer!.id, approve: false });
    });
    await until(windowTitle, (s) => s === 'Nuzo', 'the title to drop back to none waiting');
  } finally {
    await client.close();
  }
});

test('navigation away and new windows are blocked', async (t) => {
  const p = ready(t);
  if (!p) return;
  const before = p.url();
  // Local targets: the link policy refuses them, so nothing opens in a real browser either.
  await p.evaluate(() => {
    const g = globalThis as unknown as { location: { href: string }; open(url: string): unknown };
    g.open('file:///etc/passwd');
    g.location.href = 'http://127.0.0.1:9/';
  });
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal(p.url(), before);
  assert.equal(await app!.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length), 1);
});

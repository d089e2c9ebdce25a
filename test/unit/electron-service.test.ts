/**
 * The desktop app's service process, without Electron: service-entry.js forked as a plain Node
 * child (the same Channel code runs over process.parentPort in Electron), driven by the same
 * ServiceClient the main process uses. Real store, real socket, temp data folder.
 */
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ServiceClient, type ServiceChild } from '../../main/electron/service-client.js';
import type { ApiError, ApiEvent, HostConfigView, Memory, OfferView, SettingsView } from '../../main/ui-api/contract.js';

const entry = fileURLToPath(new URL('../../main/electron/service-entry.js', import.meta.url));
const homes: string[] = [];
after(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));

function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), label));
  homes.push(dir);
  return dir;
}

interface Harness {
  client: ServiceClient;
  events: ApiEvent[];
  fatal: Promise<ApiError>;
  ready: Promise<void>;
  children: ChildProcess[];
  stderr: () => string;
}

function harness(dataHome: string, userHome: string, options: { restartDelaysMs?: number[] } = {}): Harness {
  const events: ApiEvent[] = [];
  const children: ChildProcess[] = [];
  let log = '';
  let onFatal: (e: ApiError) => void = () => undefined;
  let onReady: () => void = () => undefined;
  const fatal = new Promise<ApiError>((resolve) => (onFatal = resolve));
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const spawn = (): ServiceChild => {
    // HOME too: the connect provider in the service writes under the person's home folder.
    const child = fork(entry, [], { env: { ...process.env, NUZO_HOME: dataHome, HOME: userHome, USERPROFILE: userHome, XDG_CONFIG_HOME: join(userHome, '.config') }, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    children.push(child);
    return {
      postMessage: (m) => void child.send(m),
      onMessage: (l) => void child.on('message', l),
      onExit: (l) => void child.on('exit', (code) => l(code)),
      kill: () => void child.kill('SIGKILL'),
    };
  };
  const client = new ServiceClient({
    spawn,
    init: { t: 'init', bridge: { command: '/Applications/Nuzo.app/Contents/MacOS/Nuzo', args: ['/Applications/Nuzo.app/Contents/Resources/bridge/nuzo-bridge.cjs'], env: { ELECTRON_RUN_AS_NODE: '1' } } },
    onEvent: (e) => events.push(e),
    onFatal: (e) => onFatal(e),
    onReady: () => onReady(),
    log: (line) => (log += line + '\n'),
    ...(options.restartDelaysMs ? { restartDelaysMs: options.restartDelaysMs } : {}),
  });
  client.start();
  return { client, events, fatal, ready, children, stderr: () => log };
}

const until = async (check: () => boolean, what: string, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

test('calls made before the service is ready are answered once it is; events flow back; stop closes cleanly', async () => {
  const home = tempDir('nuzo-svc-');
  const h = harness(home, tempDir('nuzo-user-'));
  const early = h.client.call('settings', undefined);
  const settings = await early;
  assert.ok(settings.ok, JSON.stringify(settings));
  assert.equal((settings.result as SettingsView).data_folder, home);

  const created = await h.client.call('createMemory', { content: 'The staging database is reset every Monday.', kind: 'fact', scope: 'user', tags: ['ops'] });
  assert.ok(created.ok, JSON.stringify(created));
  const memory = created.result as Memory;
  assert.equal(memory.origin, 'user');
  await until(() => h.events.some((e) => e.type === 'memory.changed' && e.id === memory.id), 'the memory.changed event');

  const inbox = await h.client.call('inbox', undefined);
  assert.deepEqual(inbox.ok && (inbox.result as OfferView[]), []);

  const missing = await h.client.call('memory', { memory_id: 'nope' });
  assert.deepEqual(missing.ok === false && missing.error.code, 'not_found', 'service errors keep their code');

  await h.client.stop();
  assert.equal(h.children[0]!.exitCode, 0, h.stderr());
  const after = await h.client.call('settings', undefined);
  assert.equal(after.ok === false && after.error.code, 'app_unavailable');
});

test('the Connect screen in the app writes the packaged bridge command into host configs', async () => {
  const userHome = tempDir('nuzo-user-');
  const h = harness(tempDir('nuzo-svc-'), userHome);
  const views = await h.client.call('hostConfigs', undefined);
  assert.ok(views.ok);
  const cursor = (views.result as HostConfigView[]).find((v) => v.host === 'cursor')!;
  assert.equal(cursor.config_path, join(userHome, '.cursor', 'mcp.json'));
  assert.match(cursor.snippet, /"ELECTRON_RUN_AS_NODE": "1"/);
  const written = await h.client.call('writeHostConfig', { host: 'cursor' });
  assert.deepEqual(written.ok && written.result, { path: cursor.config_path, backup: null, changed: true });
  const config = JSON.parse(readFileSync(cursor.config_path, 'utf8')) as { mcpServers: Record<string, { command: string; env: Record<string, string> }> };
  assert.equal(config.mcpServers['nuzo']!.command, '/Applications/Nuzo.app/Contents/MacOS/Nuzo');
  assert.equal(config.mcpServers['nuzo']!.env['ELECTRON_RUN_AS_NODE'], '1');
  await h.client.stop();
});

test('a second app on the same data folder gets a fatal already_running, not a second writer', async () => {
  const home = tempDir('nuzo-svc-');
  const first = harness(home, tempDir('nuzo-user-'));
  await first.ready;
  const second = harness(home, tempDir('nuzo-user-'));
  const error = await second.fatal;
  assert.equal(error.code, 'already_running');
  await until(() => second.children[0]!.exitCode !== null, 'the refused service to exit');
  assert.equal(second.children[0]!.exitCode, 1);
  const answer = await second.client.call('settings', undefined);
  assert.equal(answer.ok === false && answer.error.code, 'app_unavailable');
  await first.client.stop();
});

test('a crashed service is restarted and answers again; calls in flight fail with app_unavailable', async () => {
  const home = tempDir('nuzo-svc-');
  const h = harness(home, tempDir('nuzo-user-'), { restartDelaysMs: [50, 50] });
  await h.ready;
  h.children[0]!.kill('SIGKILL');
  await until(() => h.children.length === 2, 'a restart');
  const answer = await h.client.call('settings', undefined);
  assert.ok(answer.ok, JSON.stringify(answer));
  assert.ok(existsSync(join(home, 'nuzo.sqlite')));
  await h.client.stop();
});

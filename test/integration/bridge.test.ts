/**
 * The stdio bridge as hosts run it: a real `nuzo-bridge` process between the MCP SDK's client (or
 * a hand-driven stdin) and a real `nuzo serve` on a throwaway data folder.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { socketLocation } from '../../main/ipc/socket-path.js';
import { bridgeCli } from '../helpers/paths.js';
import { startServe, type RunningService } from '../helpers/service-process.js';
import { tempHome } from '../helpers/temp-home.js';
import { alive, ownerPid, stopOwner } from '../helpers/service-owner.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const cleanups: Array<() => unknown> = [];

after(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A data folder removed after the file's tests, with its socket folder and any service started in it. */
function freshHome(): string {
  const { home, cleanup } = tempHome('nuzo-bridge');
  const { dir } = socketLocation(home);
  cleanups.push(() => {
    if (process.platform !== 'win32') rmSync(dir, { recursive: true, force: true });
    cleanup();
  });
  cleanups.push(() => stopOwner(home));
  return home;
}

async function service(home: string): Promise<RunningService> {
  const running = await startServe(home);
  cleanups.push(() => running.stop());
  return running;
}

/** What hosts pass: the SDK's default environment plus ours (and the socket's runtime folder). */
function bridgeEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const runtime = process.env['XDG_RUNTIME_DIR'];
  return { NUZO_HOME: home, ...(runtime ? { XDG_RUNTIME_DIR: runtime } : {}), ...extra };
}

async function sdkClient(home: string, extra: Record<string, string> = {}): Promise<{ client: Client; transport: StdioClientTransport }> {
  const client = new Client({ name: 'bridge-test-host', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [bridgeCli], env: bridgeEnv(home, extra), stderr: 'pipe' });
  await client.connect(transport);
  cleanups.push(() => client.close().catch(() => {}));
  return { client, transport };
}

interface Message {
  jsonrpc?: unknown;
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

/** The bridge driven by hand: every stdout line is kept raw, so a test can check each one. */
class RawBridge {
  readonly stdoutLines: string[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private readonly waiting: Array<() => void> = [];

  constructor(home: string, extra: Record<string, string> = {}, args: string[] = []) {
    this.child = spawn(process.execPath, [bridgeCli, ...args], { env: { ...process.env, ...bridgeEnv(home, extra) }, stdio: ['pipe', 'pipe', 'pipe'] });
    let partial = '';
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => {
      partial += chunk;
      const lines = partial.split('\n');
      partial = lines.pop()!;
      this.stdoutLines.push(...lines);
      for (const wake of this.waiting.splice(0)) wake();
    });
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((done) => this.child.once('exit', (code, signal) => done({ code, signal })));
    cleanups.push(() => {
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    });
  }

  send(message: object | string): void {
    this.child.stdin!.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  }

  endInput(): void {
    this.child.stdin!.end();
  }

  messages(): Message[] {
    return this.stdoutLines.map((line) => JSON.parse(line) as Message);
  }

  /** The answer to request `id` (null: the first answer without an id). */
  async answer(id: number | string | null, timeoutMs = 15_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages().find((m) => m.id === id && ('result' in m || 'error' in m));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no answer to ${String(id)}; stdout: ${this.stdoutLines.join('\n')}; stderr: ${this.stderr}`);
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, 100);
        this.waiting.push(() => {
          clearTimeout(timer);
          wake();
        });
      });
    }
  }
}

const initialize = (id: number | string = 0): object => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-host', version: '1.0.0' } },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

describe('relay to a running service', () => {
  const home = freshHome();
  let running: RunningService;

  test('tools/list through the bridge: the eight tools, valid names, each described', async () => {
    running = await service(home);
    const { client } = await sdkClient(home);
    const { tools } = await client.listTools();
    assert.equal(tools.length, 8);
    for (const tool of tools) {
      assert.match(tool.name, TOOL_NAME);
      assert.ok(tool.description && tool.description.trim().length > 0, `${tool.name} has a description`);
    }
    const recall = await client.callTool({ name: 'memory_recall', arguments: { query: 'anything' } });
    assert.notEqual(recall.isError, true);
  });

  test('stdout carries JSON-RPC only, bad lines get a parse error, and the bridge exits when stdin closes', async () => {
    assert.ok(running, 'the previous test started the service');
    const bridge = new RawBridge(home);
    bridge.send(initialize(0));
    bridge.send('this is not json');
    bridge.send('[{"jsonrpc":"2.0","id":7,"method":"ping"}]');
    bridge.send({ jsonrpc: '1.0', id: 8, method: 'ping' });
    bridge.send(initialized);
    bridge.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    bridge.send({ jsonrpc: '2.0', id: 'two', method: 'ping' });
    assert.equal(((await bridge.answer(1)).result?.['tools'] as unknown[]).length, 8);
    assert.deepEqual((await bridge.answer('two')).result, {});
    bridge.endInput();
    const started = Date.now();
    const exit = await bridge.exited;
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.ok(Date.now() - started < 2_500, 'exits promptly once stdin closes');

    for (const line of bridge.stdoutLines) {
      const message = JSON.parse(line) as Message;
      assert.equal(message.jsonrpc, '2.0', line);
      assert.ok('id' in message, `every line here is a response: ${line}`);
    }
    const errors = bridge.messages().filter((m) => m.error);
    assert.deepEqual(errors.map((m) => [m.id, m.error!.code]), [
      [null, -32700],
      [null, -32600],
      [8, -32600],
    ]);
    assert.match(errors[0]!.error!.message, /not valid JSON/);
    assert.match(errors[1]!.error!.message, /batches are not supported/);
    for (const line of bridge.stderr.split('\n').filter(Boolean)) assert.match(line, /^nuzo-bridge: /);
  });

  test('stdin closing with a request in flight: its answer is still written, then the bridge exits', async () => {
    const bridge = new RawBridge(home);
    bridge.send(initialize(0));
    bridge.send(initialized);
    bridge.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    bridge.endInput();
    assert.ok((await bridge.answer(1)).result);
    assert.deepEqual(await bridge.exited, { code: 0, signal: null });
  });

  test('cold start: spawn to first tools/list answer, median of five runs', async (t) => {
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const bridge = new RawBridge(home);
      bridge.send(initialize(0));
      bridge.send(initialized);
      bridge.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      await bridge.answer(1);
      runs.push(performance.now() - started);
      bridge.endInput();
      await bridge.exited;
    }
    const ms = Math.round(median(runs));
    t.diagnostic(`cold start ${ms} ms (runs: ${runs.map((r) => Math.round(r)).join(', ')})`);
    assert.ok(ms < 3_000, `cold start took ${ms} ms`);
  });

  test('a refused credential becomes a clear JSON-RPC error, not a hang', async () => {
    const other = freshHome();
    await service(other);
    // Another key than the running app's: the app refuses this bridge's proof.
    writeFileSync(join(other, 'ipc.key'), 'ab'.repeat(32));
    const bridge = new RawBridge(other);
    bridge.send(initialize(0));
    const answer = await bridge.answer(0, 5_000);
    assert.equal(answer.error?.code, -32000);
    assert.match(answer.error!.message, /refused this bridge/);
    assert.match(answer.error!.message, /restart this MCP server/);
    assert.equal(answer.error!.data?.['code'], 'auth_failed');
    bridge.endInput();
    assert.equal((await bridge.exited).code, 0);
  });
});

describe('when Nuzo is not running', () => {
  test('the bridge starts the service and tools/list works; the service keeps running for other hosts', async () => {
    const home = freshHome();
    assert.equal(ownerPid(home), null, 'nothing runs on this data folder yet');
    const { client } = await sdkClient(home);
    const { tools } = await client.listTools();
    assert.equal(tools.length, 8);
    const pid = ownerPid(home);
    assert.ok(pid !== null && alive(pid), 'nuzo serve runs for this data folder');
    const log = join(home, 'logs', 'service.log');
    assert.match(readFileSync(log, 'utf8'), /service running on/);
    if (process.platform !== 'win32') {
      assert.equal(statSync(log).mode & 0o777, 0o600);
      assert.equal(statSync(dirname(log)).mode & 0o777, 0o700);
    }
    await client.close();
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(alive(pid), 'the service outlives the bridge that started it');
    await stopOwner(home);
  });

  test('a start command that exits at once: initialize gets the actionable error quickly, and so does every later request', async () => {
    const home = freshHome();
    const command = `"${process.execPath}" -e "process.exit(3)"`;
    const bridge = new RawBridge(home, { NUZO_APP_COMMAND: command, NUZO_BRIDGE_START_TIMEOUT_MS: '4000' });
    const started = Date.now();
    bridge.send(initialize(0));
    const answer = await bridge.answer(0, 8_000);
    const elapsed = Date.now() - started;
    assert.equal(answer.error?.code, -32000);
    assert.match(answer.error!.message, /^Nuzo is not running and could not be started \(.*exited with code 3.*\)\. Start it with `nuzo serve` or open the Nuzo app, then restart this MCP server\.$/);
    assert.match(answer.error!.message, /service\.log/);
    assert.ok(elapsed < 4_000, `answered in ${elapsed} ms`);
    bridge.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    bridge.send(initialized);
    assert.equal((await bridge.answer(1, 1_000)).error?.code, -32000);
    bridge.endInput();
    assert.deepEqual(await bridge.exited, { code: 0, signal: null });
    assert.equal(bridge.stdoutLines.length, 2, 'one answer per request, nothing for the notification');
  });

  test('a start command that never brings Nuzo up: the wait is bounded by NUZO_BRIDGE_START_TIMEOUT_MS', async () => {
    const home = freshHome();
    const command = `"${process.execPath}" -e "0"`;
    const bridge = new RawBridge(home, { NUZO_APP_COMMAND: command, NUZO_BRIDGE_START_TIMEOUT_MS: '1500' });
    const started = Date.now();
    bridge.send(initialize('init'));
    const answer = await bridge.answer('init', 6_000);
    assert.ok(Date.now() - started < 3_500);
    assert.match(answer.error!.message, /was started but did not answer within 1\.5 s/);
    bridge.endInput();
    await bridge.exited;
  });

  test('the SDK client sees the failure as an error on connect, not a hang', async () => {
    const home = freshHome();
    const client = new Client({ name: 'bridge-test-host', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bridgeCli],
      env: bridgeEnv(home, { NUZO_APP_COMMAND: `"${process.execPath}" -e "process.exit(1)"`, NUZO_BRIDGE_START_TIMEOUT_MS: '3000' }),
      stderr: 'pipe',
    });
    await assert.rejects(client.connect(transport), /Nuzo is not running and could not be started/);
    await client.close().catch(() => {});
  });
});

describe('the bridge binary', () => {
  test('cold-start path: only node builtins and dependency-free project files are imported', () => {
    const entry = resolve(bridgeCli);
    const specifier = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
    const files: string[] = [];
    const packages = new Set<string>();
    const pending = [entry];
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (files.includes(file)) continue;
      files.push(file);
      for (const match of readFileSync(file, 'utf8').matchAll(specifier)) {
        const target = match[1]!;
        if (target.startsWith('.')) pending.push(resolve(dirname(file), target));
        else packages.add(target);
      }
    }
    const nonBuiltin = [...packages].filter((p) => !p.startsWith('node:'));
    assert.deepEqual(nonBuiltin, [], `non-builtin imports reachable from nuzo-bridge: ${nonBuiltin.join(', ')}`);
    for (const mode of ['relay-main.js', 'hook.js', 'start-app.js', 'ipc-client.js']) {
      assert.ok(files.some((f) => f.endsWith(mode)), `${mode} is part of the graph checked`);
    }
    const fromMain = files.filter((f) => f.replaceAll('\\', '/').includes('/dist/main/')).map((f) => f.replaceAll('\\', '/').replace(/^.*\/dist\//, ''));
    assert.deepEqual(
      fromMain.filter((f) => !/^main\/(core\/(errors|paths|version)|ipc\/(connection|credential|framing|protocol|session|socket-path))\.js$/.test(f)),
      [],
      'only the dependency-free core and IPC files of main/',
    );
    assert.match(readFileSync(entry, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  });

  test('--version and --help print to stdout and exit 0; an unknown argument exits 2', async () => {
    const run = (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
      new Promise((done) => {
        const child = spawn(process.execPath, [bridgeCli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.once('exit', (code) => done({ code, stdout, stderr }));
      });
    const version = await run(['--version']);
    assert.equal(version.code, 0);
    assert.match(version.stdout, /^nuzo-bridge \d+\.\d+\.\d+/);
    const help = await run(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /nuzo-bridge hook session-start/);
    const wrong = await run(['--frobnicate']);
    assert.equal(wrong.code, 2);
    assert.equal(wrong.stdout, '');
    assert.match(wrong.stderr, /^nuzo-bridge: unknown argument/);
  });
});

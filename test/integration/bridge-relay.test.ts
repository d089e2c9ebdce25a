/**
 * The relay's rules driven in-process against scripted app sessions: the cases real processes
 * cannot produce on demand (a full queue, a refused replay, an app that keeps dropping us).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe, test } from 'node:test';
import { BRIDGE_INSTANCE } from '../../bridge/bridge-env.js';
import { connectIpc, type IpcClientSession } from '../../bridge/ipc-client.js';
import { startIpcServer, type IpcSession } from '../../main/ipc/server.js';
import { socketLocation } from '../../main/ipc/socket-path.js';
import { tempHome } from '../helpers/temp-home.js';
import type { JsonRpcMessage } from '../../bridge/jsonrpc.js';
import { DEFAULT_LIMITS, Relay, type RelayLimits } from '../../bridge/relay.js';
import { LineSplitter } from '../../bridge/stdio-lines.js';

class FakeSession implements IpcClientSession {
  readonly id = 'fake';
  readonly appVersion = '0.0.0-test';
  readonly path = 'fake';
  readonly sent: JsonRpcMessage[] = [];
  private readonly frameListeners: Array<(frame: unknown) => void> = [];
  private readonly closeListeners: Array<() => void> = [];
  private closed = false;

  send(frame: object): void {
    if (!this.closed) this.sent.push((frame as { m: JsonRpcMessage }).m);
  }
  onFrame(callback: (frame: unknown) => void): void {
    this.frameListeners.push(callback);
  }
  onClose(callback: () => void): void {
    this.closeListeners.push(callback);
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.closeListeners.splice(0)) listener();
  }
  fromApp(message: object): void {
    for (const listener of this.frameListeners) listener({ t: 'mcp', m: { jsonrpc: '2.0', ...message } });
  }
}

interface Harness {
  relay: Relay;
  host: JsonRpcMessage[];
  logs: string[];
  /** Resolves the next pending connect with a new session (or rejects it). */
  accept(): FakeSession;
  refuse(error: Error): void;
  connects: number;
}

function harness(limits: Partial<RelayLimits> = {}): Harness {
  const pending: Array<{ resolve: (s: IpcClientSession) => void; reject: (e: Error) => void }> = [];
  const h: Harness = {
    relay: undefined as unknown as Relay,
    host: [],
    logs: [],
    connects: 0,
    accept() {
      const session = new FakeSession();
      const next = pending.shift();
      assert.ok(next, 'a connect is pending');
      next.resolve(session);
      return session;
    },
    refuse(error) {
      const next = pending.shift();
      assert.ok(next, 'a connect is pending');
      next.reject(error);
    },
  };
  h.relay = new Relay(
    {
      toHost: (message) => h.host.push(message),
      log: (line) => h.logs.push(line),
      connect: () => {
        h.connects += 1;
        return new Promise((resolve, reject) => pending.push({ resolve, reject }));
      },
    },
    { ...DEFAULT_LIMITS, ...limits },
  );
  return h;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const line = (message: object): string => JSON.stringify({ jsonrpc: '2.0', ...message });
const initialize = line({ id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'h', version: '1' } } });
const initialized = line({ method: 'notifications/initialized' });

/** A session brought up the way a host does it: initialize answered, initialized sent. */
async function established(h: Harness): Promise<FakeSession> {
  h.relay.start();
  h.relay.fromHostLine(initialize);
  const session = h.accept();
  await tick();
  session.fromApp({ id: 0, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'nuzo', version: '0' } } });
  h.relay.fromHostLine(initialized);
  return session;
}

describe('relay rules', () => {
  test('while connecting, the queue is bounded: requests past it are answered, notifications past it dropped', async () => {
    const h = harness({ maxQueuedMessages: 3 });
    h.relay.start();
    h.relay.fromHostLine(initialize);
    h.relay.fromHostLine(line({ id: 1, method: 'ping' }));
    h.relay.fromHostLine(line({ id: 2, method: 'ping' }));
    h.relay.fromHostLine(line({ id: 3, method: 'ping' }));
    h.relay.fromHostLine(line({ method: 'notifications/roots/list_changed' }));
    assert.deepEqual(h.host.map((m) => [m.id, (m.error as { code: number }).code]), [[3, -32000]]);
    assert.match((h.host[0]!.error as { message: string }).message, /reconnecting and 3 messages are already waiting; retry/);
    assert.ok(h.logs.some((l) => l.includes('dropped a notification')));
    const session = h.accept();
    await tick();
    assert.deepEqual(session.sent.map((m) => m.id), [0, 1, 2]);
  });

  test('the session drops: in-flight requests are answered, the gap is queued, initialize and initialized are replayed first', async () => {
    const h = harness();
    const first = await established(h);
    h.relay.fromHostLine(line({ id: 5, method: 'tools/call', params: { name: 'memory_recall', arguments: { query: 'x' } } }));
    first.close();
    assert.deepEqual(h.host.at(-1), {
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32000, message: 'Nuzo restarted while this request was running; retry it.', data: { code: 'app_unavailable' } },
    });
    h.relay.fromHostLine(line({ id: 6, method: 'tools/list' }));
    const second = h.accept();
    await tick();
    assert.equal(second.sent.length, 1, 'only the replay goes out before the app answers it');
    assert.equal(second.sent[0]!.method, 'initialize');
    assert.match(String(second.sent[0]!.id), /^nuzo-bridge-replay-/);
    const before = h.host.length;
    second.fromApp({ id: second.sent[0]!.id, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'nuzo', version: '0' } } });
    assert.equal(h.host.length, before, 'the replay answer is swallowed');
    assert.deepEqual(second.sent.map((m) => m.method ?? m.id), ['initialize', 'notifications/initialized', 'tools/list']);
    second.fromApp({ id: 6, result: { tools: [] } });
    assert.deepEqual(h.host.at(-1), { jsonrpc: '2.0', id: 6, result: { tools: [] } });
  });

  test('an initialize the app never answered is asked again of the next app, with the host\'s own id', async () => {
    const h = harness();
    h.relay.start();
    h.relay.fromHostLine(initialize);
    const first = h.accept();
    await tick();
    first.close();
    assert.equal(h.host.length, 0, 'the host is not told: it will get its answer');
    const second = h.accept();
    await tick();
    assert.deepEqual(second.sent.map((m) => [m.method, m.id]), [['initialize', 0]]);
    second.fromApp({ id: 0, result: {} });
    assert.deepEqual(h.host.map((m) => m.id), [0]);
  });

  test('a replay the app refuses ends the session with an actionable error for everything owed', async () => {
    const h = harness();
    const first = await established(h);
    first.close();
    h.relay.fromHostLine(line({ id: 7, method: 'tools/list' }));
    const second = h.accept();
    await tick();
    second.fromApp({ id: second.sent[0]!.id, error: { code: -32602, message: 'Unsupported protocol version' } });
    const answer = h.host.find((m) => m.id === 7)!;
    assert.match((answer.error as { message: string }).message, /could not be restored \(the app refused the replayed initialize: Unsupported protocol version\)\. Restart this MCP server\.$/);
    h.relay.fromHostLine(line({ id: 8, method: 'ping' }));
    assert.equal(h.host.at(-1)!.id, 8);
    assert.ok(h.host.at(-1)!.error);
  });

  test('a replay the app never answers times out', async () => {
    const h = harness({ replayTimeoutMs: 50 });
    const first = await established(h);
    first.close();
    h.relay.fromHostLine(line({ id: 9, method: 'ping' }));
    h.accept();
    await new Promise((r) => setTimeout(r, 120));
    assert.match((h.host.find((m) => m.id === 9)!.error as { message: string }).message, /did not answer the replayed initialize within 50 ms/);
  });

  test('answers to requests of an app that has gone never reach the new one', async () => {
    const h = harness();
    const first = await established(h);
    first.fromApp({ id: 0, method: 'elicitation/create', params: {} });
    first.close();
    const second = h.accept();
    await tick();
    second.fromApp({ id: second.sent[0]!.id, result: {} });
    second.fromApp({ id: 0, method: 'roots/list' });
    h.relay.fromHostLine(line({ id: 0, result: { action: 'accept', content: { approve: true } } }));
    h.relay.fromHostLine(line({ id: 0, result: { roots: [] } }));
    const answers = second.sent.filter((m) => !('method' in m));
    assert.deepEqual(answers, [{ jsonrpc: '2.0', id: 0, result: { roots: [] } }]);
  });

  test('an app that keeps dropping the connection stops the reconnecting', async () => {
    const h = harness({ maxReconnects: 2 });
    let session = await established(h);
    for (let i = 0; i < 2; i++) {
      session.close();
      session = h.accept();
      await tick();
      session.fromApp({ id: session.sent[0]!.id, result: {} });
    }
    session.close();
    assert.equal(h.connects, 3);
    h.relay.fromHostLine(line({ id: 1, method: 'ping' }));
    assert.match((h.host.at(-1)!.error as { message: string }).message, /lost 3 times within 60 s/);
  });

  test('a failed first connect answers the queued initialize, and every later request, with the reason', async () => {
    const h = harness();
    h.relay.start();
    h.relay.fromHostLine(initialize);
    h.refuse(new Error('nuzo serve exited with code 3 before it was ready; see /x/logs/service.log.'));
    await tick();
    h.relay.fromHostLine(initialized);
    h.relay.fromHostLine(line({ id: 1, method: 'tools/list' }));
    assert.deepEqual(h.host.map((m) => m.id), [0, 1]);
    assert.equal(
      (h.host[0]!.error as { message: string }).message,
      'Nuzo is not running and could not be started (nuzo serve exited with code 3 before it was ready; see /x/logs/service.log). Start it with `nuzo serve` or open the Nuzo app, then restart this MCP server.',
    );
  });

  test('stdin closing waits a bounded time for answers still owed, then closes the session', async () => {
    const h = harness();
    const session = await established(h);
    h.relay.fromHostLine(line({ id: 4, method: 'tools/call', params: {} }));
    let closed = false;
    session.onClose(() => (closed = true));
    const started = Date.now();
    await h.relay.hostClosed(100);
    assert.ok(Date.now() - started >= 90);
    assert.ok(closed);

    const quick = harness();
    await established(quick);
    const t0 = Date.now();
    await quick.relay.hostClosed(5_000);
    assert.ok(Date.now() - t0 < 500, 'nothing owed: no wait');
  });
});

describe('stdin lines', () => {
  test('split across chunks, CRLF tolerated, an oversized line skipped without losing the next, a last line without newline kept', () => {
    const lines: string[] = [];
    const oversized: number[] = [];
    const splitter = new LineSplitter({ onLine: (l) => lines.push(l), onOversized: (n) => oversized.push(n) }, 16);
    splitter.push(Buffer.from('{"a":1}\r\n{"b"'));
    splitter.push(Buffer.from(':2}\n\n   \n'));
    splitter.push(Buffer.from('x'.repeat(10)));
    splitter.push(Buffer.from('y'.repeat(10)));
    splitter.push(Buffer.from('zz\n{"c":3}\n{"d":'));
    splitter.push(Buffer.from('4}'));
    splitter.end();
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}', '{"c":3}', '{"d":4}']);
    assert.deepEqual(oversized, [22]);
  });
});

describe('the bridge instance id in the handshake', () => {
  test('sent when given, checked by the app: 32 lowercase hex digits or the connection is refused', async () => {
    const { home, cleanup } = tempHome('nuzo-bridge-instance');
    const sessions: IpcSession[] = [];
    const server = await startIpcServer({ home, appVersion: '0.0.0-test', onSession: (s) => sessions.push(s), log: () => {} });
    try {
      assert.match(BRIDGE_INSTANCE, /^[0-9a-f]{32}$/);
      const connect = (instance?: string): Promise<IpcClientSession> =>
        connectIpc({ home, mode: 'mcp', clientVersion: '0.0.0-test', timeoutMs: 3_000, ...(instance !== undefined ? { instance } : {}) });
      (await connect(BRIDGE_INSTANCE)).close();
      (await connect()).close();
      await assert.rejects(connect('NOT-HEX'), (error: Error) => /instance/.test(error.message) || /refused/.test(error.message));
      assert.deepEqual(sessions.map((s) => s.hello.instance), [BRIDGE_INSTANCE, undefined]);
    } finally {
      await server.close();
      if (process.platform !== 'win32') rmSync(socketLocation(home).dir, { recursive: true, force: true });
      cleanup();
    }
  });
});

/**
 * The IPC layer over real sockets in throwaway data folders: the app's server, the bridge's
 * client, and hand-written peers that misbehave.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { after, describe, test } from 'node:test';
import { connectIpc, type IpcClientSession } from '../../bridge/ipc-client.js';
import { isNuzoError, NuzoError } from '../../main/core/errors.js';
import { createCredential, credentialPath, readCredential } from '../../main/ipc/credential.js';
import { FrameDecoder, MAX_FRAME_BYTES } from '../../main/ipc/framing.js';
import { clientProof, IPC_PROTOCOL, newNonce } from '../../main/ipc/protocol.js';
import { startIpcServer, type IpcServerHandle, type IpcSession } from '../../main/ipc/server.js';
import { ensurePrivateDir, socketLocation } from '../../main/ipc/socket-path.js';
import { tempHome as makeTempHome } from '../helpers/temp-home.js';

const isWindows = process.platform === 'win32';
const MiB = 1024 * 1024;
const cleanups: Array<() => unknown> = [];

after(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempHome(): string {
  const { home, cleanup } = makeTempHome('nuzo-ipc');
  // The socket folder may live under XDG_RUNTIME_DIR, outside the home: remove both.
  const { dir } = socketLocation(home);
  cleanups.push(() => {
    if (!isWindows) rmSync(dir, { recursive: true, force: true });
    cleanup();
  });
  return home;
}

interface EchoServer {
  handle: IpcServerHandle;
  sessions: IpcSession[];
  logs: string[];
}

/** A server whose sessions answer every frame with `{t:"echo", frame}`. */
async function startEchoServer(home: string, extra: { handshakeTimeoutMs?: number } = {}): Promise<EchoServer> {
  const sessions: IpcSession[] = [];
  const logs: string[] = [];
  const handle = await startIpcServer({
    home,
    appVersion: '9.9.9-test',
    log: (line) => logs.push(line),
    onSession: (session) => {
      sessions.push(session);
      session.onFrame((frame) => session.send({ t: 'echo', frame }));
    },
    ...extra,
  });
  cleanups.push(() => handle.close());
  return { handle, sessions, logs };
}

function connectClient(home: string, extra: { protocol?: number; timeoutMs?: number } = {}): Promise<IpcClientSession> {
  return connectIpc({ home, mode: 'mcp', clientVersion: '9.9.9-test', timeoutMs: extra.timeoutMs ?? 3_000, ...extra });
}

/** Collects a session's frames and lets a test wait for the next one. */
function inbox(session: { onFrame(cb: (frame: unknown) => void): void }): (timeoutMs?: number) => Promise<unknown> {
  const queue: unknown[] = [];
  const waiting: Array<(frame: unknown) => void> = [];
  session.onFrame((frame) => {
    const waiter = waiting.shift();
    if (waiter) waiter(frame);
    else queue.push(frame);
  });
  return (timeoutMs = 3_000) =>
    new Promise((resolve, reject) => {
      if (queue.length > 0) {
        resolve(queue.shift());
        return;
      }
      const timer = setTimeout(() => reject(new Error('no frame arrived in time')), timeoutMs);
      waiting.push((frame) => {
        clearTimeout(timer);
        resolve(frame);
      });
    });
}

/** Proves a good client still gets through after whatever a test did to the server. */
async function assertServes(home: string): Promise<void> {
  const client = await connectClient(home);
  const next = inbox(client);
  client.send({ t: 'ping', n: 1 });
  assert.deepEqual(await next(), { t: 'echo', frame: { t: 'ping', n: 1 } });
  client.close();
}

async function rejection(promise: Promise<unknown>): Promise<NuzoError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isNuzoError(error), `expected a NuzoError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a rejection');
}

/** A hand-driven peer on the raw socket, for what a well-behaved client never does. */
class RawPeer {
  readonly frames: Array<Record<string, unknown>> = [];
  readonly closed: Promise<void>;
  private readonly waiting: Array<() => void> = [];

  private constructor(readonly socket: Socket) {
    const decoder = new FrameDecoder(
      {
        onFrame: (frame) => {
          this.frames.push(frame);
          for (const wake of this.waiting.splice(0)) wake();
        },
        onError: () => socket.destroy(),
      },
      64 * MiB,
    );
    socket.on('data', (chunk: Buffer) => decoder.push(chunk));
    socket.on('error', () => {});
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static open(path: string): Promise<RawPeer> {
    return new Promise((resolve, reject) => {
      const socket = connect(path);
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new RawPeer(socket));
      });
    });
  }

  async frame(index: number, timeoutMs = 3_000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    while (this.frames.length <= index) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`frame ${index} did not arrive`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.frames[index]!;
  }

  send(frame: object): void {
    this.socket.write(`${JSON.stringify(frame)}\n`);
  }

  /** Does the handshake by hand, as a client that knows the key. */
  static async authenticated(home: string, path: string): Promise<RawPeer> {
    const peer = await RawPeer.open(path);
    const hello = await peer.frame(0);
    const clientNonce = newNonce();
    peer.send({
      t: 'auth',
      protocol: IPC_PROTOCOL,
      client_nonce: clientNonce,
      proof: clientProof(readCredential(home), String(hello['server_nonce']), clientNonce),
      hello: { mode: 'cli', client_version: 'raw', pid: process.pid, cwd: process.cwd() },
    });
    assert.equal((await peer.frame(1))['t'], 'welcome');
    return peer;
  }
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('ipc: sessions between the app and a client', () => {
  test('frames flow both ways, in order, and the session knows who connected', async () => {
    const home = tempHome();
    const server = await startEchoServer(home);
    const client = await connectClient(home);
    assert.equal(client.appVersion, '9.9.9-test');
    assert.equal(client.path, server.handle.path);
    const session = server.sessions[0]!;
    assert.equal(session.id, client.id);
    assert.equal(session.hello.mode, 'mcp');
    assert.equal(session.hello.client_version, '9.9.9-test');
    assert.equal(session.hello.pid, process.pid);
    assert.equal(session.hello.cwd, process.cwd());

    const next = inbox(client);
    const count = 2_000;
    for (let n = 0; n < count; n++) client.send({ t: 'mcp', m: { jsonrpc: '2.0', id: n, method: 'ping' } });
    for (let n = 0; n < count; n++) {
      assert.deepEqual(await next(), { t: 'echo', frame: { t: 'mcp', m: { jsonrpc: '2.0', id: n, method: 'ping' } } });
    }
    // The app speaks first too (notifications, elicitation requests).
    session.send({ t: 'mcp', m: { jsonrpc: '2.0', method: 'notifications/tools/list_changed' } });
    assert.deepEqual(await next(), { t: 'mcp', m: { jsonrpc: '2.0', method: 'notifications/tools/list_changed' } });
    client.close();
  });

  test('a 7 MiB frame passes in both directions', async () => {
    const home = tempHome();
    const server = await startEchoServer(home);
    const client = await connectClient(home);
    const next = inbox(client);
    const big = 'x'.repeat(7 * MiB);
    client.send({ t: 'big', big });
    const echoed = (await next(10_000)) as { frame: { big: string } };
    assert.equal(echoed.frame.big.length, big.length);
    server.sessions[0]!.send({ t: 'big-from-app', big });
    const fromApp = (await next(10_000)) as { big: string };
    assert.equal(fromApp.big.length, big.length);
    assert.ok(server.handle.stats().peakBufferedBytes <= MAX_FRAME_BYTES);
    client.close();
  });

  test('frames the app sends right after the welcome wait for a late listener', async () => {
    const home = tempHome();
    const handle = await startIpcServer({
      home,
      appVersion: '9.9.9-test',
      log: () => {},
      onSession: (session) => {
        for (let n = 0; n < 5; n++) session.send({ t: 'early', n });
      },
    });
    cleanups.push(() => handle.close());
    const client = await connectClient(home);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const next = inbox(client);
    for (let n = 0; n < 5; n++) assert.deepEqual(await next(), { t: 'early', n });
    client.close();
  });

  test('closing either end tells the other', async () => {
    const home = tempHome();
    const server = await startEchoServer(home);

    const first = await connectClient(home);
    const serverSawClose = new Promise<void>((resolve) => server.sessions[0]!.onClose(resolve));
    first.close();
    await within(serverSawClose, 3_000, 'server noticing the client left');

    const second = await connectClient(home);
    const clientSawClose = new Promise<void>((resolve) => second.onClose(resolve));
    server.sessions[1]!.close();
    await within(clientSawClose, 3_000, 'client noticing the app closed');
  });

  test('a throwing frame handler is logged and the server keeps going', async () => {
    const home = tempHome();
    const logs: string[] = [];
    const handle = await startIpcServer({
      home,
      appVersion: '9.9.9-test',
      log: (line) => logs.push(line),
      onSession: (session) => {
        session.onFrame((frame) => {
          if ((frame as { boom?: boolean }).boom) throw new Error('handler bug');
          session.send({ t: 'ok' });
        });
      },
    });
    cleanups.push(() => handle.close());
    const client = await connectClient(home);
    const next = inbox(client);
    client.send({ boom: true });
    client.send({ boom: false });
    assert.deepEqual(await next(), { t: 'ok' });
    assert.ok(logs.some((line) => line.includes('handler bug')));
    client.close();
  });
});

describe('ipc: files and permissions', { skip: isWindows ? 'Unix modes do not apply to named pipes' : false }, () => {
  test('socket folder 0700, key 0600 and fresh at each start, socket not reachable by others', async () => {
    const home = tempHome();
    const server = await startEchoServer(home);
    const { dir, path } = socketLocation(home);
    assert.equal(server.handle.path, path);
    assert.equal(lstatSync(dir).mode & 0o777, 0o700);
    assert.ok(lstatSync(path).isSocket());
    assert.equal(statSync(path).mode & 0o077, 0, 'socket must not be group/other accessible');
    assert.equal(statSync(credentialPath(home)).mode & 0o777, 0o600);
    const firstKey = readFileSync(credentialPath(home), 'utf8');
    assert.match(firstKey, /^[0-9a-f]{64}$/);

    await server.handle.close();
    assert.equal(existsSync(path), false, 'a clean stop removes the socket');
    const again = await startEchoServer(home);
    assert.notEqual(readFileSync(credentialPath(home), 'utf8'), firstKey, 'a new start writes a new credential');
    await assertServes(home);
    await again.handle.close();
  });

  test('a socket folder open to others is refused with a message naming it', async () => {
    const home = tempHome();
    const { dir } = socketLocation(home);
    ensurePrivateDir(dir);
    chmodSync(dir, 0o755);
    const error = await rejection(startIpcServer({ home, appVersion: '1', onSession: () => {}, log: () => {} }));
    assert.equal(error.code, 'internal_error');
    assert.ok(error.message.includes(dir) && error.message.includes('0755'), error.message);
  });
});

describe('ipc: peers that are refused', () => {
  test('a client holding another credential is refused with auth_failed; good clients still get in', async () => {
    const home = tempHome();
    const server = await startEchoServer(home);
    const realKey = readFileSync(credentialPath(home), 'utf8');
    // The client reads the key file: give it a different one, as if it belonged to another start.
    writeFileSync(credentialPath(home), 'ab'.repeat(32), { mode: 0o600 });
    const error = await rejection(connectClient(home));
    assert.equal(error.code, 'auth_failed');
    assert.match(error.message, /refused this client's credential/);
    writeFileSync(credentialPath(home), realKey, { mode: 0o600 });
    await assertServes(home);
    assert.equal(server.handle.stats().refused, 1);
    assert.ok(server.logs.some((line) => line.includes('wrong credential')));
  });

  test('garbage bytes and frames before the handshake close only that connection', async () => {
    const home = tempHome();
    const server = await startEchoServer(home);
    const bystander = await connectClient(home);
    const bystanderInbox = inbox(bystander);

    const garbage = await RawPeer.open(server.handle.path);
    await garbage.frame(0);
    garbage.socket.write('\x00\x01 this is not json at all\n');
    await within(garbage.closed, 3_000, 'closing the garbage connection');
    assert.equal(garbage.frames[1]?.['t'], 'error');
    assert.equal(garbage.frames[1]?.['code'], 'validation_error');

    const skipper = await RawPeer.open(server.handle.path);
    await skipper.frame(0);
    skipper.send({ t: 'mcp', m: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    await within(skipper.closed, 3_000, 'closing the connection that skipped the handshake');
    assert.equal(skipper.frames[1]?.['code'], 'validation_error');
    assert.equal(server.sessions.length, 1, 'neither became a session');

    const malformed = await RawPeer.open(server.handle.path);
    await malformed.frame(0);
    malformed.send({ t: 'auth', protocol: IPC_PROTOCOL, client_nonce: 'short', proof: 'nope', hello: {} });
    await within(malformed.closed, 3_000, 'closing the malformed auth connection');
    assert.match(String(malformed.frames[1]?.['message']), /malformed auth frame/);

    bystander.send({ t: 'still-here' });
    assert.deepEqual(await bystanderInbox(), { t: 'echo', frame: { t: 'still-here' } });
    await assertServes(home);
    bystander.close();
  });

  test('an oversized frame closes that connection only, and the server never holds more than the limit', async () => {
    const home = tempHome();
    const server = await startEchoServer(home);
    const bystander = await connectClient(home);
    const bystanderInbox = inbox(bystander);

    /** Streams 1 MiB chunks of one endless line until the server hangs up; returns bytes sent. */
    const flood = async (peer: RawPeer): Promise<number> => {
      const chunk = Buffer.alloc(MiB, 0x61);
      let sent = 0;
      let open = true;
      void peer.closed.then(() => {
        open = false;
      });
      peer.socket.write('{"t":"mcp","m":"');
      while (open && sent < 64 * MiB) {
        sent += chunk.length;
        if (!peer.socket.write(chunk)) {
          await Promise.race([new Promise((resolve) => peer.socket.once('drain', resolve)), peer.closed]);
        }
      }
      await within(peer.closed, 5_000, 'closing the flooding connection');
      return sent;
    };

    // Before the handshake …
    const stranger = await RawPeer.open(server.handle.path);
    await stranger.frame(0);
    const strangerSent = await flood(stranger);
    assert.ok(strangerSent < 64 * MiB, 'the server hung up before the flood ended');
    assert.equal(stranger.frames[1]?.['code'], 'validation_error');
    assert.match(String(stranger.frames[1]?.['message']), /8 MiB/);

    // … and inside an authenticated session.
    const insider = await RawPeer.authenticated(home, server.handle.path);
    await flood(insider);
    assert.equal(insider.frames[2]?.['code'], 'validation_error');

    assert.ok(
      server.handle.stats().peakBufferedBytes <= MAX_FRAME_BYTES,
      `held ${server.handle.stats().peakBufferedBytes} bytes of one frame`,
    );
    bystander.send({ t: 'still-here' });
    assert.deepEqual(await bystanderInbox(), { t: 'echo', frame: { t: 'still-here' } });
    await assertServes(home);
    assert.ok(server.logs.some((line) => line.includes('dropped') && line.includes('8 MiB')));
    bystander.close();
  });

  test('a silent connection is dropped when the handshake times out', async () => {
    const home = tempHome();
    const server = await startEchoServer(home, { handshakeTimeoutMs: 300 });
    const started = Date.now();
    const silent = await RawPeer.open(server.handle.path);
    await within(silent.closed, 3_000, 'dropping the silent connection');
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 250, `dropped after ${elapsed} ms, before the timeout`);
    assert.equal(silent.frames[0]?.['t'], 'hello');
    assert.equal(silent.frames[1]?.['code'], 'auth_failed');
    assert.match(String(silent.frames[1]?.['message']), /no handshake within 300 ms/);
    assert.equal(server.handle.stats().refused, 1);
    await assertServes(home);
  });
});

describe('ipc: versions', () => {
  test('a client speaking another protocol gets a readable version_mismatch', async () => {
    const home = tempHome();
    await startEchoServer(home);
    const error = await rejection(connectClient(home, { protocol: IPC_PROTOCOL + 1 }));
    assert.equal(error.code, 'version_mismatch');
    assert.match(error.message, new RegExp(`bridge protocol ${IPC_PROTOCOL + 1} but app speaks ${IPC_PROTOCOL}`));
    assert.match(error.message, /restart the app/);
    assert.match(error.message, /9\.9\.9-test/);
  });

  test('the app tells an older or newer client why it refuses it', async () => {
    const home = tempHome();
    const server = await startEchoServer(home);
    const old = await RawPeer.open(server.handle.path);
    await old.frame(0);
    old.send({ t: 'auth', protocol: 0, anything: 'an old client may send' });
    await within(old.closed, 3_000, 'closing the old client');
    assert.equal(old.frames[1]?.['code'], 'version_mismatch');
    assert.match(String(old.frames[1]?.['message']), /bridge protocol 0 but app speaks 1: this bridge is older/);
    await assertServes(home);
  });
});

describe('ipc: who owns the socket', () => {
  test('a squatter that cannot prove the credential is rejected, and never learns it', async () => {
    const home = tempHome();
    const key = createCredential(home);
    const { dir, path } = socketLocation(home);
    ensurePrivateDir(dir);
    const received: Buffer[] = [];
    const squatter = createServer((socket) => {
      socket.on('data', (chunk: Buffer) => {
        received.push(chunk);
        // Plays along: answers the auth with a welcome whose proof it had to guess.
        socket.write(`${JSON.stringify({ t: 'welcome', proof: 'cd'.repeat(32), connection_id: 'fake' })}\n`);
      });
      socket.write(`${JSON.stringify({ t: 'hello', protocol: IPC_PROTOCOL, app_version: '9.9.9', server_nonce: newNonce() })}\n`);
    });
    await new Promise<void>((resolve) => squatter.listen(path, resolve));
    cleanups.push(() => new Promise((resolve) => squatter.close(resolve)));

    const error = await rejection(connectClient(home));
    assert.equal(error.code, 'auth_failed');
    assert.equal(error.message, `the process listening on ${path} is not the Nuzo app (it could not prove it knows the credential)`);
    const seen = Buffer.concat(received).toString('utf8');
    assert.ok(seen.includes('"t":"auth"'), 'the client did talk to it');
    assert.ok(!seen.includes(key.toString('hex')), 'the credential never crossed the socket');
  });

  test('a stale socket file from a crashed run is removed and the server starts', { skip: isWindows ? 'named pipes leave no file behind' : false }, async () => {
    const home = tempHome();
    const { dir, path } = socketLocation(home);
    ensurePrivateDir(dir);
    const script = `require('node:net').createServer().listen(${JSON.stringify(path)}, () => process.stdout.write('ready\\n'))`;
    const crashed = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => crashed.stdout.once('data', () => resolve()));
    const exited = new Promise((resolve) => crashed.once('exit', resolve));
    crashed.kill('SIGKILL');
    await exited;
    assert.ok(lstatSync(path).isSocket(), 'the crashed run left its socket file behind');

    await startEchoServer(home);
    await assertServes(home);
  });

  test('a second server on the same data folder gets already_running; the first keeps its key and serves', async () => {
    const home = tempHome();
    const server = await startEchoServer(home);
    const keyBefore = readFileSync(credentialPath(home), 'utf8');
    const error = await rejection(startIpcServer({ home, appVersion: '1', onSession: () => {}, log: () => {} }));
    assert.equal(error.code, 'already_running');
    assert.ok(error.message.includes(home), error.message);
    assert.equal(readFileSync(credentialPath(home), 'utf8'), keyBefore);
    await assertServes(home);
    assert.equal(server.handle.stats().sessions, 1);
  });

  test('no app running is app_unavailable, not an auth problem', async () => {
    const home = tempHome();
    const never = await rejection(connectClient(home));
    assert.equal(never.code, 'app_unavailable');
    // A key left by an earlier run, and nothing listening.
    const server = await startEchoServer(home);
    await server.handle.close();
    const stopped = await rejection(connectClient(home));
    assert.equal(stopped.code, 'app_unavailable');
    assert.match(stopped.message, /not running/);
  });
});

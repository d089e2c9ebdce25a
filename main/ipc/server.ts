/**
 * The app's local socket server: one authenticated session per bridge, hook or CLI connection.
 * What travels over a session (MCP messages, …) is the business of the layer above.
 */
import { chmodSync, mkdirSync, rmdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { NuzoError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { FramedConnection } from './connection.js';
import { createCredential } from './credential.js';
import { runServerHandshake } from './handshake.js';
import { HANDSHAKE_TIMEOUT_MS, type ClientHello } from './protocol.js';
import { openSession, type FrameSession } from './session.js';
import { ensurePrivateDir, socketLocation } from './socket-path.js';
import { probeEndpoint } from './stale-socket.js';

export interface IpcSession extends FrameSession {
  /** The connection id, also told to the client in its welcome. */
  id: string;
  hello: ClientHello;
}

export interface IpcServerOptions {
  home: string;
  appVersion: string;
  onSession: (session: IpcSession) => void;
  /** One line per event; defaults to stderr. */
  log?: (line: string) => void;
  /** Defaults to HANDSHAKE_TIMEOUT_MS. */
  handshakeTimeoutMs?: number;
}

export interface IpcServerStats {
  /** Connections open now, authenticated or not. */
  openConnections: number;
  /** Sessions accepted since start. */
  sessions: number;
  /** Connections refused during the handshake since start. */
  refused: number;
  /** The largest partly received frame held for one connection since start; never above MAX_FRAME_BYTES. */
  peakBufferedBytes: number;
}

export interface IpcServerHandle {
  /** The socket file or named pipe clients connect to. */
  path: string;
  stats(): IpcServerStats;
  /** Stops listening and closes every connection (queued frames get a moment to drain). */
  close(): Promise<void>;
}

/** Plenty for every host and hook on one machine; bounds what a runaway client can hold open. */
const MAX_CONNECTIONS = 256;
const isWindows = process.platform === 'win32';

/** A live listener means another app owns this data folder; a dead socket file is a crashed run's. */
async function claimEndpoint(path: string, home: string): Promise<void> {
  const probe = await probeEndpoint(path);
  if (probe.state === 'live') throw alreadyRunning(path, home);
  if (probe.state === 'unclear') {
    throw new NuzoError(
      'internal_error',
      `Cannot tell whether another Nuzo app is listening on ${path} (${probe.reason}). Quit any other Nuzo app for ${home}, or remove that file, then start again.`,
      { path },
    );
  }
  if (!isWindows) rmSync(path, { force: true });
}

function alreadyRunning(path: string, home: string): NuzoError {
  return new NuzoError(
    'already_running',
    `Nuzo is already running for the data folder ${home} (it answers on ${path}). Use that one, or quit it first.`,
    { path, home },
  );
}

function listen(server: Server, path: string, home: string, onListening: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(error.code === 'EADDRINUSE' ? alreadyRunning(path, home) : error);
    };
    server.once('error', onError);
    server.listen(path, () => {
      server.off('error', onError);
      try {
        onListening();
        resolve();
      } catch (error) {
        server.close();
        reject(error);
      }
    });
  });
}

export async function startIpcServer(opts: IpcServerOptions): Promise<IpcServerHandle> {
  const log = opts.log ?? ((line: string) => void process.stderr.write(`nuzo ipc: ${line}\n`));
  const timeoutMs = opts.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS;
  mkdirSync(opts.home, { recursive: true, mode: 0o700 });
  const location = socketLocation(opts.home);
  ensurePrivateDir(location.dir);
  await claimEndpoint(location.path, opts.home);

  const connections = new Set<FramedConnection>();
  let key: Buffer = Buffer.alloc(0);
  let sessions = 0;
  let refused = 0;
  let peakBufferedBytes = 0;

  const server = createServer();
  server.maxConnections = MAX_CONNECTIONS;
  server.on('connection', (socket) => {
    const id = newId();
    let established = false;
    const conn = new FramedConnection(socket, {
      onBuffered: (bytes) => {
        if (bytes > peakBufferedBytes) peakBufferedBytes = bytes;
      },
      // Refusals during the handshake are logged with their reason below; this covers sessions.
      onDrop: (reason) => {
        if (established) log(`session ${id} dropped: ${reason}`);
      },
    });
    connections.add(conn);
    conn.onClose(() => connections.delete(conn));
    runServerHandshake(conn, {
      key,
      appVersion: opts.appVersion,
      connectionId: id,
      timeoutMs,
      onRefused: (reason) => {
        refused += 1;
        log(`connection ${id} refused: ${reason}`);
      },
      onAccepted: (hello) => {
        established = true;
        sessions += 1;
        const report = (error: unknown): void => {
          log(`session ${id}: a frame or close handler threw: ${error instanceof Error ? error.message : String(error)}`);
        };
        const session: IpcSession = { ...openSession(conn, report), id, hello };
        log(`session ${id} open: ${hello.mode} client ${hello.client_version}, pid ${hello.pid}`);
        try {
          opts.onSession(session);
        } catch (error) {
          report(error);
          session.close();
        }
      },
    });
  });

  // The credential is written once this server owns the socket (so a start that loses the race
  // never replaces the running app's key) and before any connection is served (each is handled
  // on a later turn of the event loop).
  await listen(server, location.path, opts.home, () => {
    if (!isWindows) chmodSync(location.path, 0o600);
    key = createCredential(opts.home);
  });
  server.on('error', (error) => log(`server error: ${error.message}`));
  log(`listening on ${location.path}`);

  let closing: Promise<void> | undefined;
  return {
    path: location.path,
    stats: () => ({ openConnections: connections.size, sessions, refused, peakBufferedBytes }),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const conn of connections) conn.close();
      }).then(() => {
        // Only succeeds when empty: the per-home runtime folder should not pile up.
        if (!isWindows) {
          try {
            rmdirSync(location.dir);
          } catch {
            // not empty, or already gone
          }
        }
      });
      return closing;
    },
  };
}

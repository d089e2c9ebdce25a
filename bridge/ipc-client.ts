/**
 * The client end of the app's local socket, for the bridge, hooks and CLI. Node builtins only
 * (and dependency-free project files): this is on the bridge's cold-start path.
 */
import { connect } from 'node:net';
import { NuzoError } from '../main/core/errors.js';
import { FramedConnection } from '../main/ipc/connection.js';
import { readCredential } from '../main/ipc/credential.js';
import { IPC_PROTOCOL, type ClientHello, type ClientMode } from '../main/ipc/protocol.js';
import { openSession, type FrameSession } from '../main/ipc/session.js';
import { socketCandidates, socketLocation } from '../main/ipc/socket-path.js';
import { runClientHandshake } from './ipc/client-handshake.js';

export interface ConnectIpcOptions {
  home: string;
  mode: ClientMode;
  clientVersion: string;
  /** For connecting and the whole handshake. */
  timeoutMs: number;
  /** The protocol this client claims; only tests set it. */
  protocol?: number;
  /** The bridge process's instance id (32 lowercase hex digits), the same on every reconnect. */
  instance?: string;
  /** Where a throwing frame or close handler is reported; defaults to stderr. */
  log?: (line: string) => void;
}

export interface IpcClientSession extends FrameSession {
  /** The connection id the app gave this session (it appears in the app's log). */
  id: string;
  appVersion: string;
  /** The socket or pipe connected to. */
  path: string;
}

type Attempt = { session: IpcClientSession } | { absent: true };

function currentDirectory(): string {
  try {
    return process.cwd();
  } catch {
    // The folder was deleted under us; the app still deserves a connection.
    return '/';
  }
}

function clientHello(opts: ConnectIpcOptions): ClientHello {
  const script = process.argv[1];
  return {
    mode: opts.mode,
    client_version: opts.clientVersion,
    pid: process.pid,
    cwd: currentDirectory(),
    ...(script !== undefined && script.length <= 4_096 ? { argv0: script } : {}),
    ...(opts.instance !== undefined ? { instance: opts.instance } : {}),
  };
}

function attempt(path: string, opts: ConnectIpcOptions, deadline: number): Promise<Attempt> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let settled = false;
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      finish();
    };
    const timer = setTimeout(() => {
      settle(() => {
        socket.destroy();
        reject(
          new NuzoError('app_unavailable', `The Nuzo app on ${path} did not answer within ${opts.timeoutMs} ms: it may be starting or stuck.`, {
            path,
          }),
        );
      });
    }, Math.max(0, deadline - Date.now()));

    const onConnectError = (error: NodeJS.ErrnoException): void => {
      settle(() => {
        socket.destroy();
        if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') {
          resolve({ absent: true });
        } else if (error.code === 'EACCES' || error.code === 'EPERM') {
          reject(new NuzoError('auth_failed', `Permission denied on ${path}: the Nuzo app there runs as another user.`, { path }));
        } else {
          reject(new NuzoError('app_unavailable', `Cannot connect to the Nuzo app on ${path} (${error.code ?? error.message}).`, { path }));
        }
      });
    };
    socket.once('error', onConnectError);
    socket.once('connect', () => {
      socket.off('error', onConnectError);
      const conn = new FramedConnection(socket);
      const log = opts.log ?? ((line: string) => void process.stderr.write(`nuzo ipc: ${line}\n`));
      runClientHandshake(conn, {
        path,
        home: opts.home,
        protocol: opts.protocol ?? IPC_PROTOCOL,
        hello: clientHello(opts),
        readKey: () => readCredential(opts.home),
        onFailed: (error) => settle(() => reject(error)),
        onAccepted: ({ connectionId, appVersion }) => {
          const report = (error: unknown): void => {
            log(`a frame or close handler threw: ${error instanceof Error ? error.message : String(error)}`);
          };
          // Built now, not after the promise settles: frames behind the welcome wait in its backlog.
          const session: IpcClientSession = { ...openSession(conn, report), id: connectionId, appVersion, path };
          settle(() => resolve({ session }));
        },
      });
    });
  });
}

/**
 * Connects and authenticates. Rejects with a NuzoError: `app_unavailable` when no app listens
 * (or it does not answer in time), `auth_failed` when either side fails to prove the credential,
 * `version_mismatch` when the app speaks another protocol.
 */
export async function connectIpc(opts: ConnectIpcOptions): Promise<IpcClientSession> {
  const deadline = Date.now() + opts.timeoutMs;
  const primary = socketLocation(opts.home);
  for (const { path } of socketCandidates(opts.home)) {
    const result = await attempt(path, opts, deadline);
    if ('session' in result) return result.session;
  }
  throw new NuzoError('app_unavailable', `The Nuzo app is not running for the data folder ${opts.home}: nothing listens on ${primary.path}.`, {
    path: primary.path,
    home: opts.home,
  });
}

/**
 * The client's half of the IPC handshake. Node builtins only: the bridge must cold-start fast, so
 * frames are checked by hand here rather than with zod.
 */
import { NuzoError } from '../../main/core/errors.js';
import type { FramedConnection } from '../../main/ipc/connection.js';
import {
  clientProof,
  HEX_64,
  newNonce,
  proofMatches,
  serverProof,
  versionMismatchMessage,
  type AuthFrame,
  type ClientHello,
} from '../../main/ipc/protocol.js';

export interface ClientHandshakeOptions {
  path: string;
  home: string;
  protocol: number;
  hello: ClientHello;
  /** Called once the server has spoken: by then a just-restarted app has written its new key. */
  readKey(): Buffer;
  /** Called synchronously, so frames right behind the welcome reach the session. */
  onAccepted(accepted: { connectionId: string; appVersion: string }): void;
  onFailed(error: NuzoError): void;
}

function text(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined;
}

/** Text from a peer not yet proven to be the app: shown only as a detail, short and printable. */
function quoted(value: unknown): string {
  return typeof value === 'string' ? value.replace(/[^\x20-\x7e]/g, ' ').slice(0, 300) : '';
}

export function runClientHandshake(conn: FramedConnection, opts: ClientHandshakeOptions): void {
  let step: 'hello' | 'welcome' | 'done' = 'hello';
  let key: Buffer = Buffer.alloc(0);
  let serverNonce = '';
  let serverProtocol: number | undefined;
  let appVersion = '';
  const clientNonce = newNonce();

  const fail = (error: NuzoError): void => {
    if (step === 'done') return;
    step = 'done';
    conn.close();
    opts.onFailed(error);
  };
  const impostor = (): NuzoError =>
    new NuzoError(
      'auth_failed',
      `the process listening on ${opts.path} is not the Nuzo app (it could not prove it knows the credential)`,
      { path: opts.path },
    );

  /** The app's own words go in details; the message is ours, since the peer is not yet proven. */
  const refused = (frame: Record<string, unknown>): NuzoError => {
    const details = { path: opts.path, server_message: quoted(frame['message']) };
    switch (frame['code']) {
      case 'auth_failed':
        return new NuzoError(
          'auth_failed',
          `The Nuzo app on ${opts.path} refused this client's credential: the app may have restarted since, ` +
            `or this client uses another data folder (${opts.home}). Try again; if it persists, restart the app.`,
          details,
        );
      case 'version_mismatch':
        return new NuzoError(
          'version_mismatch',
          serverProtocol === undefined
            ? `The Nuzo app on ${opts.path} speaks another IPC protocol than this bridge (${opts.protocol}): update Nuzo / restart the app.`
            : versionMismatchMessage(opts.protocol, serverProtocol, appVersion),
          details,
        );
      default:
        return new NuzoError('internal_error', `The Nuzo app on ${opts.path} refused the connection: ${details.server_message}`, details);
    }
  };

  conn.onClose(() => {
    fail(new NuzoError('app_unavailable', `The Nuzo app on ${opts.path} closed the connection during the handshake.`, { path: opts.path }));
  });

  conn.setHandler((frame) => {
    if (step === 'done') return;
    if (frame['t'] === 'error') {
      fail(refused(frame));
      return;
    }
    if (step === 'hello') {
      if (frame['t'] !== 'hello' || typeof frame['protocol'] !== 'number') {
        fail(impostor());
        return;
      }
      serverProtocol = frame['protocol'];
      appVersion = text(frame['app_version'], 100) ?? '';
      if (serverProtocol !== opts.protocol) {
        fail(new NuzoError('version_mismatch', versionMismatchMessage(opts.protocol, serverProtocol, appVersion), { path: opts.path }));
        return;
      }
      const nonce = frame['server_nonce'];
      if (typeof nonce !== 'string' || !HEX_64.test(nonce) || appVersion === '') {
        fail(impostor());
        return;
      }
      serverNonce = nonce;
      try {
        key = opts.readKey();
      } catch (error) {
        fail(error instanceof NuzoError ? error : new NuzoError('auth_failed', `Cannot read the Nuzo IPC credential for ${opts.home}.`));
        return;
      }
      step = 'welcome';
      const auth: AuthFrame = {
        t: 'auth',
        protocol: opts.protocol,
        client_nonce: clientNonce,
        proof: clientProof(key, serverNonce, clientNonce),
        hello: opts.hello,
      };
      conn.send(auth);
      return;
    }
    const proof = frame['proof'];
    const connectionId = text(frame['connection_id'], 100);
    if (frame['t'] !== 'welcome' || typeof proof !== 'string' || connectionId === undefined) {
      fail(impostor());
      return;
    }
    if (!proofMatches(serverProof(key, clientNonce, serverNonce), proof)) {
      fail(impostor());
      return;
    }
    step = 'done';
    opts.onAccepted({ connectionId, appVersion });
  });
}

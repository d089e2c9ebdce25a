/**
 * The server's half of the handshake (the client's is in bridge/ipc/). Every incoming frame is
 * checked with zod before anything reads it.
 */
import { z } from 'zod';
import type { ErrorCode } from '../core/vocabulary.js';
import type { FramedConnection } from './connection.js';
import {
  CLIENT_MODES,
  clientProof,
  HEX_64,
  INSTANCE_ID,
  IPC_PROTOCOL,
  newNonce,
  proofMatches,
  serverProof,
  versionMismatchMessage,
  type ClientHello,
  type HelloFrame,
  type WelcomeFrame,
} from './protocol.js';

const clientHelloSchema = z.object({
  mode: z.enum(CLIENT_MODES),
  client_version: z.string().min(1).max(100),
  pid: z.number().int().positive(),
  cwd: z.string().min(1).max(4_096),
  argv0: z.string().max(4_096).optional(),
  instance: z.string().regex(INSTANCE_ID).optional(),
}) satisfies z.ZodType<ClientHello>;

/** Only what every protocol version will share, so an old or new client still hears "mismatch". */
const versionProbeSchema = z.object({ t: z.literal('auth'), protocol: z.number().int() });

const authSchema = z.object({
  t: z.literal('auth'),
  protocol: z.literal(IPC_PROTOCOL),
  client_nonce: z.string().regex(HEX_64),
  proof: z.string().regex(HEX_64),
  hello: clientHelloSchema,
});

export interface ServerHandshakeOptions {
  key: Buffer;
  appVersion: string;
  connectionId: string;
  timeoutMs: number;
  /** Called synchronously, so frames right behind the auth frame reach the session. */
  onAccepted(hello: ClientHello): void;
  /** A line for the log; never contains the credential or proofs. */
  onRefused(reason: string): void;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(frame)'}: ${issue.message}`)
    .join('; ');
}

export function runServerHandshake(conn: FramedConnection, opts: ServerHandshakeOptions): void {
  const serverNonce = newNonce();
  let settled = false;

  const refuse = (code: ErrorCode, message: string, reason: string): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    conn.fail(code, message);
    opts.onRefused(reason);
  };

  const timer = setTimeout(() => {
    refuse('auth_failed', `no handshake within ${opts.timeoutMs} ms; connection closed`, 'handshake timed out');
  }, opts.timeoutMs);
  timer.unref();

  conn.onClose(() => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    opts.onRefused(conn.failureReason ?? 'peer left before the handshake finished');
  });

  conn.setHandler((frame) => {
    if (settled) return;
    const probe = versionProbeSchema.safeParse(frame);
    if (!probe.success) {
      refuse('validation_error', 'expected an auth frame to start the connection', 'first frame was not an auth frame');
      return;
    }
    if (probe.data.protocol !== IPC_PROTOCOL) {
      const message = versionMismatchMessage(probe.data.protocol, IPC_PROTOCOL, opts.appVersion);
      refuse('version_mismatch', message, `client speaks protocol ${probe.data.protocol}`);
      return;
    }
    const auth = authSchema.safeParse(frame);
    if (!auth.success) {
      const issues = describeIssues(auth.error);
      refuse('validation_error', `malformed auth frame: ${issues}`, `malformed auth frame: ${issues}`);
      return;
    }
    const expected = clientProof(opts.key, serverNonce, auth.data.client_nonce);
    if (!proofMatches(expected, auth.data.proof)) {
      refuse(
        'auth_failed',
        'the client could not prove it knows the current credential: it may have read ipc.key before the app restarted, or use another data folder (NUZO_HOME)',
        `wrong credential (pid ${auth.data.hello.pid}, ${auth.data.hello.mode})`,
      );
      return;
    }
    settled = true;
    clearTimeout(timer);
    const welcome: WelcomeFrame = {
      t: 'welcome',
      proof: serverProof(opts.key, auth.data.client_nonce, serverNonce),
      connection_id: opts.connectionId,
    };
    conn.send(welcome);
    opts.onAccepted(auth.data.hello);
  });

  const hello: HelloFrame = { t: 'hello', protocol: IPC_PROTOCOL, app_version: opts.appVersion, server_nonce: serverNonce };
  conn.send(hello);
}

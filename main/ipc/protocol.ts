/**
 * The IPC wire contract shared by the app (server) and the bridge (client). Node builtins only:
 * the bridge imports this file and must cold-start without zod.
 *
 * Handshake, one frame each way after the connection opens:
 *   server → {t:"hello", protocol, app_version, server_nonce}
 *   client → {t:"auth", protocol, client_nonce, proof, hello}
 *   server → {t:"welcome", proof, connection_id}   or   {t:"error", code, message} and close
 * Each side proves it knows the credential with an HMAC over both nonces, so the credential never
 * crosses the socket and a process squatting on the socket path cannot pass as the app.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Bump on any incompatible change to framing, handshake or the frames the layer above relays. */
export const IPC_PROTOCOL = 1;

/** A connection that has not finished the handshake by then is dropped. */
export const HANDSHAKE_TIMEOUT_MS = 5_000;

export const NONCE_BYTES = 32;
export const HEX_64 = /^[0-9a-f]{64}$/;
/** A bridge process's instance id: 128 random bits, made once per process. */
export const INSTANCE_ID = /^[0-9a-f]{32}$/;

export const CLIENT_MODES = ['mcp', 'hook', 'cli'] as const;
export type ClientMode = (typeof CLIENT_MODES)[number];

/** What a client says about itself; claimed, not verified (only credential knowledge is). */
export interface ClientHello {
  mode: ClientMode;
  client_version: string;
  pid: number;
  cwd: string;
  argv0?: string | undefined;
  /**
   * Made once per bridge process and sent again on every reconnect, so the app can tell the same
   * host session coming back after a restart from a new one (its offers stay bound to it).
   */
  instance?: string | undefined;
}

export interface HelloFrame {
  t: 'hello';
  protocol: number;
  app_version: string;
  server_nonce: string;
}

export interface AuthFrame {
  t: 'auth';
  protocol: number;
  client_nonce: string;
  proof: string;
  hello: ClientHello;
}

export interface WelcomeFrame {
  t: 'welcome';
  proof: string;
  connection_id: string;
}

export interface ErrorFrame {
  t: 'error';
  code: string;
  message: string;
}

export function newNonce(): string {
  return randomBytes(NONCE_BYTES).toString('hex');
}

/** Distinct labels per direction, so one side's proof can never be reflected back as the other's. */
export function clientProof(key: Buffer, serverNonce: string, clientNonce: string): string {
  return createHmac('sha256', key).update(`nuzo-client\n${serverNonce}\n${clientNonce}`).digest('hex');
}

export function serverProof(key: Buffer, clientNonce: string, serverNonce: string): string {
  return createHmac('sha256', key).update(`nuzo-server\n${clientNonce}\n${serverNonce}`).digest('hex');
}

/** Constant-time comparison of two hex proofs; anything malformed is simply unequal. */
export function proofMatches(expectedHex: string, givenHex: string): boolean {
  if (!HEX_64.test(expectedHex) || !HEX_64.test(givenHex)) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(givenHex, 'hex'));
}

/**
 * Written for the person reading the host's error: which side is older and what to do about it.
 * The two normally ship together, so a mismatch means one of them is still the old process.
 */
export function versionMismatchMessage(bridgeProtocol: number, appProtocol: number, appVersion?: string): string {
  const app = appVersion ? `the running app (Nuzo ${appVersion})` : 'the running app';
  const advice =
    bridgeProtocol > appProtocol
      ? `${app} is older than this bridge: update Nuzo / restart the app so the new version runs`
      : `this bridge is older than ${app}: restart your MCP host (or update the nuzo-bridge it launches)`;
  return `bridge protocol ${bridgeProtocol} but app speaks ${appProtocol}: ${advice}`;
}

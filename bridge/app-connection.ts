/**
 * Getting an authenticated session with the app, starting the app when nothing listens, within
 * a bounded time. Every way this can fail ends in a NuzoError whose message is a short reason
 * the relay quotes to the host.
 */
import { NuzoError } from '../main/core/errors.js';
import { connectIpc, type IpcClientSession } from './ipc-client.js';
import { describeError, type Log } from './bridge-log.js';
import { BRIDGE_INSTANCE, BRIDGE_VERSION } from './bridge-env.js';
import { launchApp, type Launched } from './start-app.js';

export interface ConnectOrStartOptions {
  home: string;
  /** The whole wait, launch included. */
  timeoutMs: number;
  /** Wait this long for an app that is restarting itself before launching one. */
  graceMs: number;
  log: Log;
  env?: NodeJS.ProcessEnv;
}

/** One connect and handshake: a live app answers in milliseconds. */
const ATTEMPT_TIMEOUT_MS = 2_000;
const POLL_MS = 100;
/**
 * A launch that exits with an error may have lost a race with another bridge starting the same
 * service: keep polling this long before believing the failure.
 */
const FAILED_EXIT_GRACE_MS = 1_500;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function attempt(opts: ConnectOrStartOptions, deadline: number): Promise<IpcClientSession> {
  return connectIpc({
    home: opts.home,
    mode: 'mcp',
    clientVersion: BRIDGE_VERSION,
    instance: BRIDGE_INSTANCE,
    timeoutMs: Math.max(50, Math.min(ATTEMPT_TIMEOUT_MS, deadline - Date.now())),
    log: opts.log,
  });
}

const isAbsent = (error: unknown): boolean => error instanceof NuzoError && error.code === 'app_unavailable';

function launchFailure(launched: Launched): string | null {
  if (launched.spawnError) return launched.spawnError;
  const exit = launched.exit;
  if (exit === null || exit.code === 0 || Date.now() - exit.at < FAILED_EXIT_GRACE_MS) return null;
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  return `${launched.label} ${how} before it was ready; see ${launched.logPath}`;
}

/**
 * Connects to the running app; when none answers, launches it once and polls until it does or
 * the time is up. Refusals (`auth_failed`, `version_mismatch`) end the wait at once: starting
 * another app would not change them.
 */
export async function connectOrStart(opts: ConnectOrStartOptions): Promise<IpcClientSession> {
  const started = Date.now();
  const deadline = started + opts.timeoutMs;
  let launched: Launched | null = null;
  let lastError: unknown;
  for (;;) {
    try {
      return await attempt(opts, deadline);
    } catch (error) {
      if (!isAbsent(error)) throw error;
      lastError = error;
    }
    if (launched === null && Date.now() - started >= opts.graceMs) {
      try {
        launched = launchApp(opts.home, opts.log, opts.env);
      } catch (error) {
        throw new NuzoError('app_unavailable', describeError(error));
      }
    }
    if (launched !== null) {
      const failure = launchFailure(launched);
      if (failure !== null) throw new NuzoError('app_unavailable', failure);
    }
    if (Date.now() + POLL_MS >= deadline) break;
    await sleep(POLL_MS);
  }
  const seconds = (opts.timeoutMs / 1000).toFixed(opts.timeoutMs % 1000 === 0 ? 0 : 1);
  if (launched === null) throw new NuzoError('app_unavailable', `it did not answer within ${seconds} s: ${describeError(lastError)}`);
  throw new NuzoError('app_unavailable', `${launched.label} was started but did not answer within ${seconds} s; see ${launched.logPath}`);
}

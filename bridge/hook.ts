/**
 * `nuzo-bridge hook <event>`: one host hook call. It hands the host's hook JSON to the running
 * app and, for session start, prints the context pack the app returns (Claude Code adds a
 * SessionStart hook's stdout to the session). A hook must never slow the host down for long or
 * fail it: it always exits 0 within its deadline, and never starts the app (a hook is no reason
 * to launch a service the person has quit). Problems are one line on stderr.
 */
import { dataHome } from '../main/core/paths.js';
import { connectIpc, type IpcClientSession } from './ipc-client.js';
import { BRIDGE_VERSION, envMs } from './bridge-env.js';
import { describeError, stderrLog } from './bridge-log.js';
import { readHookInput } from './hook-input.js';

export const HOOK_EVENTS = ['session-start', 'post-tool-use'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export const DEFAULT_HOOK_TIMEOUT_MS = 3_000;

export function isHookEvent(value: string | undefined): value is HookEvent {
  return (HOOK_EVENTS as readonly (string | undefined)[]).includes(value);
}

type HookResult = { ok: true; text?: string; status?: string } | { ok: false; code: string; message: string };

function awaitResult(session: IpcClientSession, deadline: number): Promise<HookResult> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Nuzo did not answer in time')), Math.max(0, deadline - Date.now()));
    session.onFrame((frame) => {
      const f = frame as Record<string, unknown>;
      if (f['t'] === 'hook-result') {
        clearTimeout(timer);
        resolve(
          f['ok'] === true
            ? { ok: true, ...(typeof f['text'] === 'string' ? { text: f['text'] } : {}), ...(typeof f['status'] === 'string' ? { status: f['status'] } : {}) }
            : { ok: false, code: String(f['code'] ?? 'internal_error'), message: String(f['message'] ?? 'no reason given') },
        );
      } else if (f['t'] === 'error') {
        clearTimeout(timer);
        resolve({ ok: false, code: String(f['code'] ?? 'internal_error'), message: String(f['message'] ?? 'no reason given') });
      }
    });
    session.onClose(() => {
      clearTimeout(timer);
      reject(new Error('Nuzo closed the connection before answering'));
    });
  });
}

async function callApp(event: HookEvent, host: string, deadline: number): Promise<string | null> {
  const input = await readHookInput(deadline);
  if (!input.ok) throw new Error(input.problem);
  const session = await connectIpc({
    home: dataHome(),
    mode: 'hook',
    clientVersion: BRIDGE_VERSION,
    timeoutMs: Math.max(50, deadline - Date.now()),
    log: stderrLog,
  });
  try {
    const answer = awaitResult(session, deadline);
    session.send({ t: 'hook', event, payload: input.payload, host });
    const result = await answer;
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
    return event === 'session-start' && result.text ? result.text : null;
  } finally {
    session.close();
  }
}

/** Runs one hook and exits 0, whatever happens. */
export function runHook(event: HookEvent, host: string): void {
  const timeoutMs = envMs('NUZO_HOOK_TIMEOUT_MS', DEFAULT_HOOK_TIMEOUT_MS);
  // Each step below is bounded by the deadline; this is the backstop should one of them not be.
  const backstop = setTimeout(() => {
    stderrLog(`hook ${event} skipped: no result within ${timeoutMs} ms`);
    process.exit(0);
  }, timeoutMs + 250);
  backstop.unref();
  const exit = (): void => {
    // An open stdin or a lingering socket must not keep the host waiting.
    process.exit(0);
  };
  // Not even a bug of ours may fail the host's tool call.
  const crashed = (error: unknown): void => {
    stderrLog(`hook ${event} skipped: ${describeError(error)}`);
    exit();
  };
  process.once('uncaughtException', crashed);
  process.once('unhandledRejection', crashed);
  callApp(event, host, Date.now() + timeoutMs).then(
    (text) => {
      if (text === null) exit();
      else process.stdout.write(text.endsWith('\n') ? text : `${text}\n`, exit);
    },
    (error: unknown) => {
      stderrLog(`hook ${event} skipped: ${describeError(error)}`);
      exit();
    },
  );
}

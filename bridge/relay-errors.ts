/**
 * What the host (and so the person reading its MCP log or the agent's tool error) is told when
 * the bridge itself must answer. Each text says what happened and what to do next.
 */
import { NuzoError } from '../main/core/errors.js';
import { describeError } from './bridge-log.js';
import { BRIDGE_ERROR, INVALID_REQUEST, PARSE_ERROR, type JsonRpcErrorBody } from './jsonrpc.js';

const RESTART_HINT = 'then restart this MCP server';

/** The app is down and starting it failed (or was not allowed). */
export function notRunning(reason: string): JsonRpcErrorBody {
  return {
    code: BRIDGE_ERROR,
    message: `Nuzo is not running and could not be started (${reason}). Start it with \`nuzo serve\` or open the Nuzo app, ${RESTART_HINT}.`,
    data: { code: 'app_unavailable' },
  };
}

/** The app answered but refused this bridge: another user, another data folder, another version. */
export function refused(error: NuzoError): JsonRpcErrorBody {
  const detail = error.message.replace(/\.$/, '');
  const what =
    error.code === 'version_mismatch'
      ? `This nuzo-bridge and the running Nuzo app do not speak the same version (${detail}).`
      : `The running Nuzo app refused this bridge (${detail}). The MCP server must run as the same user and with the same NUZO_HOME as the app.`;
  return { code: BRIDGE_ERROR, message: `${what} Fix that, ${RESTART_HINT}.`, data: { code: error.code } };
}

/** Any connection failure, mapped to the right one of the above. */
export function connectionFailure(error: unknown): JsonRpcErrorBody {
  if (error instanceof NuzoError && (error.code === 'auth_failed' || error.code === 'version_mismatch')) return refused(error);
  const reason = describeError(error).replace(/\.$/, '');
  return notRunning(reason);
}

export function restartedDuringRequest(): JsonRpcErrorBody {
  return { code: BRIDGE_ERROR, message: 'Nuzo restarted while this request was running; retry it.', data: { code: 'app_unavailable' } };
}

export function sessionNotRestored(detail: string): JsonRpcErrorBody {
  return {
    code: BRIDGE_ERROR,
    message: `Nuzo restarted and this MCP session could not be restored (${detail}). Restart this MCP server.`,
    data: { code: 'app_unavailable' },
  };
}

export function queueFull(limit: number): JsonRpcErrorBody {
  return {
    code: BRIDGE_ERROR,
    message: `Nuzo is reconnecting and ${limit} messages are already waiting; retry this request in a few seconds.`,
    data: { code: 'app_unavailable' },
  };
}

export function parseError(): JsonRpcErrorBody {
  return { code: PARSE_ERROR, message: 'Parse error: a line on the bridge\'s stdin is not valid JSON (MCP stdio sends one JSON-RPC message per line).' };
}

export function invalidRequest(reason: string): JsonRpcErrorBody {
  return { code: INVALID_REQUEST, message: `Invalid Request: ${reason}.` };
}

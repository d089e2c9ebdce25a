/**
 * Checks a window call before it leaves the main process: a known method and params that pass
 * the same zod schemas the HTTP adapter uses (main/ui-api/http-schemas.ts), so both transports
 * accept exactly the same calls.
 */
import type { ApiError, ApiMethod } from '../ui-api/contract.js';
import { isApiMethod, parseParams } from '../ui-api/http-schemas.js';

/** What `nuzo:call` resolves to; the preload turns `ok: false` into a rejection. */
export type CallResult = { ok: true; result: unknown } | { ok: false; error: ApiError };

export type CheckedCall = { ok: true; method: ApiMethod; params: unknown } | { ok: false; error: ApiError };

export function checkCall(method: unknown, params: unknown): CheckedCall {
  if (typeof method !== 'string' || !isApiMethod(method)) {
    const name = typeof method === 'string' ? method.slice(0, 64) : typeof method;
    return { ok: false, error: { code: 'not_found', message: `There is no API method "${name}".`, details: {} } };
  }
  const parsed = parseParams(method, params);
  if (!parsed.ok) return { ok: false, error: { code: 'validation_error', message: `Invalid parameters for ${method}.`, details: { issues: parsed.issues } } };
  return { ok: true, method, params: parsed.value };
}

export const SENDER_REFUSED: CallResult = {
  ok: false,
  error: { code: 'auth_failed', message: 'Only the Nuzo window may call Nuzo’s API.', details: {} },
};

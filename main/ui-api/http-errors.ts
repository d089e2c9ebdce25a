/** How the HTTP layer turns whatever the service threw into a status and a safe JSON error. */
import { ERROR_CODES, type ErrorCode } from '../core/vocabulary.js';
import type { ApiError } from './contract.js';

const STATUS: Partial<Record<ErrorCode, number>> = {
  validation_error: 400,
  auth_failed: 401,
  scope_denied: 403,
  not_found: 404,
  revision_conflict: 409,
  duplicate: 409,
  internal_error: 500,
  app_unavailable: 503,
};

export function statusFor(code: ErrorCode): number {
  // Everything else is a well-formed request the service refused on its merits.
  return STATUS[code] ?? 422;
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/**
 * A thrown value with a known `code` (NuzoError, or the same shape from another module) keeps its
 * person-written message and structured details. Anything else becomes internal_error without its
 * original text, which could hold memory content or paths.
 */
export function toApiError(thrown: unknown): ApiError {
  if (typeof thrown === 'object' && thrown !== null && 'code' in thrown && isErrorCode(thrown.code)) {
    const message = 'message' in thrown && typeof thrown.message === 'string' ? thrown.message : thrown.code;
    const details = 'details' in thrown && typeof thrown.details === 'object' && thrown.details !== null ? (thrown.details as Record<string, unknown>) : {};
    return { code: thrown.code, message, details };
  }
  return {
    code: 'internal_error',
    message: 'Nuzo hit an internal error; the operation changed nothing. See the service log for details.',
    details: {},
  };
}

import { ERROR_CODES } from '../../../main/core/vocabulary';
import type { ApiError, ErrorCode } from '../../../main/ui-api/contract';

/** A rejected API call, whichever transport it came through. */
export class ApiRequestError extends Error implements ApiError {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ApiRequestError';
    this.code = code;
    this.details = details;
  }
}

// Word boundaries written as \\b: inside a template literal a single backslash-b is a backspace.
const CODE_PATTERN = new RegExp(`\\b(${ERROR_CODES.join('|')})\\b`);

/**
 * Normalises anything a call threw. Errors crossing Electron's contextBridge lose their own
 * properties and keep only the message, so the code is recovered from the text there.
 */
export function toApiError(thrown: unknown): ApiError {
  if (thrown instanceof ApiRequestError) return thrown;
  if (typeof thrown === 'object' && thrown !== null) {
    const record = thrown as { code?: unknown; message?: unknown; details?: unknown };
    const message = typeof record.message === 'string' ? record.message : 'Something went wrong.';
    const details = typeof record.details === 'object' && record.details !== null ? (record.details as Record<string, unknown>) : {};
    if (typeof record.code === 'string' && CODE_PATTERN.test(record.code)) return { code: record.code as ErrorCode, message, details };
    const found = CODE_PATTERN.exec(message);
    return { code: (found?.[1] as ErrorCode | undefined) ?? 'internal_error', message, details };
  }
  return { code: 'internal_error', message: String(thrown) };
}

/** What a person should do about an error, in one sentence, by code. */
export function nextStepFor(error: ApiError): string {
  switch (error.code) {
    case 'app_unavailable':
      return 'Check that `nuzo serve --ui` (or the Nuzo app) is still running, then retry.';
    case 'auth_failed':
      return 'Nuzo was restarted or this tab lost its session: open the URL that `nuzo serve --ui` printed.';
    case 'revision_conflict':
      return 'The memory changed since you loaded it. Review the current text, then decide again.';
    case 'validation_error':
      return 'Fix the highlighted field and try again.';
    case 'secret_detected':
      return 'Remove the secret from the text; Nuzo never stores secrets.';
    case 'duplicate':
      return 'The same memory already exists; open it instead.';
    case 'not_found':
      return 'It may have been decided or removed elsewhere. Reload the list.';
    case 'offer_closed':
      return 'It was already decided elsewhere (in the host’s own prompt or another window).';
    case 'scope_denied':
      return 'Choose a scope this connection may use.';
    default:
      return 'Retry; if it keeps failing, the service log (stderr of `nuzo serve`) has the details.';
  }
}

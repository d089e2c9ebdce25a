import type { ErrorCode } from './vocabulary.js';

/**
 * The one error type that crosses a boundary (tool result, CLI, HTTP). `message` is written for a
 * person and must never contain memory text or secret material; `details` holds structured,
 * equally safe data (field paths, ids, revisions).
 */
export class NuzoError extends Error {
  readonly code: ErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'NuzoError';
    this.code = code;
    this.details = details;
  }

  toJSON(): { code: ErrorCode; message: string; details: Readonly<Record<string, unknown>> } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

export function isNuzoError(value: unknown): value is NuzoError {
  return value instanceof NuzoError;
}

/** Turns anything thrown into a NuzoError without leaking the original text of unknown errors. */
export function toNuzoError(value: unknown): NuzoError {
  if (value instanceof NuzoError) return value;
  return new NuzoError('internal_error', 'Nuzo hit an internal error; the operation changed nothing. See the service log for details.');
}

import { toNuzoError } from '../core/errors.js';

/** Results go to stdout; everything meant for a person's eyes alone goes to stderr. */
export const say = (line: string): void => {
  process.stderr.write(line + '\n');
};

export const print = (text: string): void => {
  process.stdout.write(text.endsWith('\n') ? text : text + '\n');
};

export class UsageError extends Error {}

/** Prints a NuzoError as `nuzo: <code>: <message>` and returns the exit code. */
export function reportFailure(error: unknown): number {
  if (error instanceof UsageError) {
    say(`nuzo: ${error.message}\nRun 'nuzo help' for usage.`);
    return 2;
  }
  const e = toNuzoError(error);
  if (e.code === 'internal_error' && error instanceof Error) say(`nuzo: internal detail: ${error.stack ?? error.message}`);
  say(`nuzo: ${e.code}: ${e.message}`);
  return 1;
}

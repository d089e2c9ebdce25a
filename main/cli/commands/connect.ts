import { UsageError } from '../output.js';

/** Placeholder until the connect module lands. */
export function connectCommand(_args: string[]): number {
  throw new UsageError('connect is not built yet');
}

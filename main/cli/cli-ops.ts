import { z } from 'zod';
import { NuzoError } from '../core/errors.js';
import type { Store } from '../store/store.js';
import type { ConsentEngine } from '../consent/engine.js';
import type { NuzoApi } from '../ui-api/contract.js';
import { importJsonl } from '../transfer/import-jsonl.js';
import { summariseIssues, validationError } from '../pipeline/validate.js';
import { parseParams } from '../ui-api/http-schemas.js';

/** What the command line may ask a running service for: writes a person makes at a terminal. */
export const CLI_API_METHODS = ['grants', 'createGrant', 'revokeGrant', 'settings', 'setCapturePaused'] as const;
export type CliApiMethod = (typeof CLI_API_METHODS)[number];

const cliFrame = z.discriminatedUnion('op', [
  z.object({ t: z.literal('cli'), op: z.literal('import'), lines: z.array(z.string()).max(100_000), first_line: z.number().int().min(1) }),
  z.object({ t: z.literal('cli'), op: z.literal('api'), method: z.enum(CLI_API_METHODS), params: z.unknown() }),
  z.object({ t: z.literal('cli'), op: z.literal('window') }),
]);

/** Answers one `cli` frame on the service; the same code runs in-process when no service is up. */
export async function answerCli(api: NuzoApi, store: Store, engine: ConsentEngine, frame: unknown, openWindow?: () => Promise<string>): Promise<unknown> {
  const parsed = cliFrame.safeParse(frame);
  if (!parsed.success) throw validationError(summariseIssues(parsed.error));
  const request = parsed.data;
  if (request.op === 'window') {
    if (!openWindow) throw new NuzoError('app_unavailable', 'Nuzo is not running. Start it with `nuzo serve --ui` (or open the Nuzo app).');
    return { url: await openWindow() };
  }
  if (request.op === 'import') {
    const summary = await importJsonl(store, request.lines, undefined, undefined, request.first_line - 1);
    engine.emit({ type: 'memory.changed', id: '*' });
    return summary;
  }
  // the same parameter schemas as the window's HTTP API: a terminal is no reason to accept less
  const params = parseParams(request.method, request.params ?? {});
  if (!params.ok) throw validationError(params.issues);
  const method = api[request.method] as (params: unknown) => Promise<unknown>;
  if (typeof method !== 'function') throw new NuzoError('validation_error', `unknown method ${request.method}`);
  return method(params.value);
}

import { parseArgs } from 'node:util';
import { startService } from '../../headless.js';
import { UsageError } from '../output.js';

/** `nuzo serve [--ui] [--port N] [--open]`: runs until SIGINT/SIGTERM. */
export async function serveCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { ui: { type: 'boolean' }, port: { type: 'string' }, open: { type: 'boolean' } } });
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port is a number from 0 to 65535');
  const service = await startService({ ui: values.ui ?? false, port });
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await service.close();
  // Nothing is left to finish once the store is closed; do not wait on hosts' open pipes.
  process.exit(0);
}

import { withWriter } from '../service-link.js';
import { print } from '../output.js';

/**
 * `nuzo window`: asks the running service (started by a bridge, say) to serve its window on
 * loopback and prints the address, so offers can be decided without restarting anything.
 */
export async function windowCommand(): Promise<number> {
  const answer = (await withWriter('nuzo window', (ask) => ask({ t: 'cli', op: 'window' }))) as { url: string };
  print(answer.url);
  return 0;
}

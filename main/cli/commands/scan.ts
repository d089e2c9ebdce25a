import { text } from 'node:stream/consumers';
import { scanSecrets } from '../../pipeline/secrets/scanner.js';
import { print } from '../output.js';

/** `nuzo scan`: the pipeline's own scanner on stdin. Exit 0; with `--fail`, exit 1 on findings. */
export async function scanCommand(args: string[]): Promise<number> {
  const input = await text(process.stdin);
  const findings = scanSecrets(input).map(({ rule, start, end }) => ({ rule, start, end }));
  print(JSON.stringify({ findings }));
  return args.includes('--fail') && findings.length > 0 ? 1 : 0;
}

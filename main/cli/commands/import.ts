import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { dataHome } from '../../core/paths.js';
import { Store } from '../../store/store.js';
import { importJsonl, type ImportSummary } from '../../transfer/import-jsonl.js';
import { progressBar } from '../progress.js';
import { print, say, UsageError } from '../output.js';

function countLines(file: string): number {
  const buffer = readFileSync(file);
  let n = 0;
  for (let i = buffer.indexOf(10); i !== -1; i = buffer.indexOf(10, i + 1)) n++;
  return buffer.length && buffer[buffer.length - 1] !== 10 ? n + 1 : n;
}

export function formatSummary(summary: ImportSummary): string {
  const lines = [`imported: ${summary.written} written, ${summary.duplicate} duplicate, ${summary.refused} refused`];
  for (const p of summary.problems) lines.push(`  line ${p.line}: ${p.status} (${p.code}) ${p.message}`);
  const shown = summary.problems.length;
  const all = summary.duplicate + summary.refused;
  if (all > shown) lines.push(`  … and ${all - shown} more`);
  return lines.join('\n');
}

/** `nuzo import FILE [--json]`: through the whole pipeline, origin `import`. */
export async function importCommand(args: string[]): Promise<number> {
  const json = args.includes('--json');
  const file = args.find((a) => !a.startsWith('--'));
  if (!file) throw new UsageError('import needs a FILE (JSON Lines, one memory a line)');
  const total = countLines(file);
  const store = Store.open(dataHome(), 'nuzo import');
  const bar = progressBar('importing', total);
  try {
    const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    const summary = await importJsonl(store, lines, (done, s) => bar.update(done, `${s.written} written`));
    bar.end();
    print(json ? JSON.stringify(summary) : formatSummary(summary));
    if (!json) say(`nuzo: ${file} imported into ${store.home}`);
    return summary.refused > 0 ? 1 : 0;
  } finally {
    bar.end();
    store.close();
  }
}

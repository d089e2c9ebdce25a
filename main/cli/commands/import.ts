import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { ImportSummary } from '../../transfer/import-jsonl.js';
import { withWriter } from '../service-link.js';
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

const PART_LINES = 2_000;
const PART_BYTES = 2 * 1024 * 1024;
const PROBLEMS_KEPT = 200;

/**
 * `nuzo import FILE [--json]`: through the whole pipeline, origin `import`, in parts of a few
 * thousand lines — sent to the running service when there is one, else written under the lock.
 */
export async function importCommand(args: string[]): Promise<number> {
  const json = args.includes('--json');
  const file = args.find((a) => !a.startsWith('--'));
  if (!file) throw new UsageError('import needs a FILE (JSON Lines, one memory a line)');
  const total = countLines(file);
  const bar = progressBar('importing', total);
  const summary: ImportSummary = { written: 0, duplicate: 0, refused: 0, problems: [] };
  const via = await withWriter('nuzo import', async (ask, via) => {
    let part: string[] = [];
    let partBytes = 0;
    let firstLine = 1;
    let done = 0;
    const send = async (): Promise<void> => {
      if (part.length === 0) return;
      const got = (await ask({ t: 'cli', op: 'import', lines: part, first_line: firstLine })) as ImportSummary;
      summary.written += got.written;
      summary.duplicate += got.duplicate;
      summary.refused += got.refused;
      summary.problems.push(...got.problems.slice(0, PROBLEMS_KEPT - summary.problems.length));
      done += part.length;
      firstLine += part.length;
      part = [];
      partBytes = 0;
      bar.update(done, `${summary.written} written`);
    };
    const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) {
      part.push(line);
      partBytes += line.length;
      if (part.length >= PART_LINES || partBytes >= PART_BYTES) await send();
    }
    await send();
    return via;
  });
  bar.end();
  print(json ? JSON.stringify(summary) : formatSummary(summary));
  if (!json) say(`nuzo: ${file} imported${via === 'service' ? ' through the running service' : ''}`);
  return summary.refused > 0 ? 1 : 0;
}

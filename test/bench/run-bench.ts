/**
 * `npm run bench`: every figure as a table, each next to a baseline measured in the same run.
 * BENCH_SIZE overrides the corpus size (default 100,000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCoreBench } from './core-bench.js';
import { fmt, renderTable } from './stats.js';
import type { BenchTable } from './table.js';

const size = Number(process.env['BENCH_SIZE'] ?? 100_000);
const root = mkdtempSync(join(tmpdir(), 'nuzo-bench-'));
const out = (table: BenchTable): void => void process.stdout.write(renderTable(table) + '\n');

async function optional(file: string, fn: string, ...args: unknown[]): Promise<BenchTable[]> {
  try {
    const mod = (await import(file)) as Record<string, (...a: unknown[]) => Promise<BenchTable[]>>;
    return mod[fn] ? await mod[fn]!(...args) : [];
  } catch (error) {
    process.stderr.write(`bench: ${file} skipped: ${(error as Error).message}\n`);
    return [];
  }
}

try {
  process.stdout.write(`# Nuzo benchmarks — ${new Date().toISOString()}, node ${process.version}, corpus ${size.toLocaleString('en')}\n`);
  const core = await runCoreBench(join(root, 'home'), size);
  core.tables.forEach(out);
  (await optional('./secrets-compare.js', 'compareScanners')).forEach(out);
  (await optional('./mcp-bench.js', 'runMcpBench', core.home, core.queries)).forEach(out);
  (await optional('./window-bench.js', 'runWindowBench', core.home, core.queries)).forEach(out);
  out({ title: 'Process', columns: ['measure', 'value'], rows: [['peak RSS of the bench process', `${fmt(process.resourceUsage().maxRSS / 1024, 0)} MiB`]] });
} finally {
  rmSync(root, { recursive: true, force: true });
}

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { Store } from '../../main/store/store.js';
import { databasePath } from '../../main/core/paths.js';
import { importJsonl } from '../../main/transfer/import-jsonl.js';
import { recall } from '../../main/store/recall.js';
import { buildFtsQuery } from '../../main/store/fts-query.js';
import { prepareDraft } from '../../main/pipeline/pipeline.js';
import { scanSecrets } from '../../main/pipeline/secrets/scanner.js';
import { generateCorpus, generateQueries } from './corpus.js';
import { fmt, summarise, timeMs } from './stats.js';
import type { BenchTable } from './table.js';

export interface CoreBenchResult {
  tables: BenchTable[];
  /** The loaded data folder, reused by the MCP and window benchmarks. */
  home: string;
  queries: string[];
}

/**
 * Issue 2's figures: import rate through the whole pipeline, recall next to the same FTS5 query
 * run raw on the same file, suggest (stages 1–6), and the scanner per 2 KB.
 */
export async function runCoreBench(home: string, size: number): Promise<CoreBenchResult> {
  const corpus = generateCorpus(size);
  const lines = corpus.map((item) => JSON.stringify(item));
  const store = Store.open(home, 'bench');
  const [summaryPromise, importStartMs] = [importJsonl(store, lines), Date.now()];
  const summary = await summaryPromise;
  const importSeconds = (Date.now() - importStartMs) / 1000;

  const queries = generateQueries(200);
  const ours: number[] = [];
  const raw: number[] = [];
  const rawDb = new Database(databasePath(home), { readonly: true });
  const rawStmt = rawDb.prepare(
    'SELECT m.* FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid WHERE memories_fts MATCH ? AND m.deleted_at IS NULL ORDER BY bm25(memories_fts) LIMIT 20',
  );
  let hits = 0;
  // warm both paths once so neither pays the first-page cache misses
  for (const q of queries.slice(0, 20)) {
    recall(store.db, { query: q, limit: 20 });
    rawStmt.all(buildFtsQuery(q)!.all);
  }
  for (const q of queries) {
    const [page, ms] = timeMs(() => recall(store.db, { query: q, limit: 20 }));
    hits += page.items.length;
    ours.push(ms);
    const match = buildFtsQuery(q)!.all;
    raw.push(timeMs(() => rawStmt.all(match))[1]);
  }
  rawDb.close();

  const person = { actor: 'bench', channel: 'window' as const, projects: [], person: true };
  const fresh = generateCorpus(200, 99);
  const suggest = fresh.map((item) => timeMs(() => prepareDraft(store, item, person))[1]);

  const text2k = fresh.map((f) => f.content).join(' ').slice(0, 2048).padEnd(2048, ' lorem');
  for (let i = 0; i < 200; i++) scanSecrets(text2k);
  const scans = Array.from({ length: 2000 }, () => timeMs(() => scanSecrets(text2k))[1] * 1000);
  store.close();

  const r = summarise(ours);
  const rr = summarise(raw);
  const s = summarise(suggest);
  const sc = summarise(scans);
  return {
    home,
    queries,
    tables: [
      {
        title: `Core store and pipeline (${size.toLocaleString('en')} memories)`,
        columns: ['measure', 'p50', 'p99', 'unit', 'note'],
        rows: [
          ['import through the whole pipeline', fmt(summary.written / importSeconds, 0), '', 'memories/s', `${summary.written} written, ${summary.duplicate} duplicate, ${summary.refused} refused in ${fmt(importSeconds, 1)} s`],
          ['recall (ranked, filters, recency blend)', fmt(r.p50, 3), fmt(r.p99, 3), 'ms', `200 queries, ${hits} hits`],
          ['same FTS5 query, raw better-sqlite3', fmt(rr.p50, 3), fmt(rr.p99, 3), 'ms', 'baseline in the same run'],
          ['ratio recall / raw', fmt(r.p50 / rr.p50, 2), fmt(r.p99 / rr.p99, 2), '×', 'the figure that matters'],
          ['suggest (stages 1–6)', fmt(s.p50, 3), fmt(s.p99, 3), 'ms', '200 new drafts'],
          ['secret scan of 2 KB text', fmt(sc.p50, 1), fmt(sc.p99, 1), 'µs', '2,000 runs'],
        ],
      },
    ],
  };
}

export const benchHomeFor = (root: string): string => join(root, 'bench-home');

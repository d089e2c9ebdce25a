/**
 * The MCP reference memory server (`@modelcontextprotocol/server-memory`) loaded with the bench
 * corpus, for a like-for-like look at an MCP memory server that many hosts ship with.
 *
 * Its `create_entities` reads and rewrites the whole JSON Lines file per call and checks each new
 * name against every existing entity (O(n) per entity, O(n²) to load n), so loading 100,000
 * memories through the tool is not practical: the file is written directly, in exactly the line
 * format its `saveGraph` writes (`{"type":"entity","name","entityType","observations"}` per line,
 * joined by "\n"), and a few `create_entities` calls are timed afterwards as its write figure.
 */
import Database from 'better-sqlite3';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { databasePath } from '../../main/core/paths.js';
import { connectStdio, DIST, log, nowMs, procMem, structured, type ProcMem } from './mcp-procs.js';

export const SERVER_MEMORY_BIN = join(DIST, '..', 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');

export interface ReferenceRun {
  entities: number;
  fileBytes: number;
  writeFileMs: number;
  /** Per query, in the order given; shorter than the query list when the time box ran out. */
  ms: number[];
  results: number[];
  bytes: number[];
  capped: boolean;
  budgetMs: number;
  rss: ProcMem | null;
  createMs: number[];
  createError: string | null;
}

/** Every live memory of the data folder as one entity: name = id, type = kind, observations = [content, ...tags]. */
export function writeMemoryFile(home: string, file: string): { entities: number; ms: number } {
  const started = nowMs();
  const db = new Database(databasePath(home), { readonly: true });
  const lines: string[] = [];
  try {
    const rows = db.prepare('SELECT id, kind, content, tags FROM memories WHERE deleted_at IS NULL ORDER BY seq').iterate() as Iterable<{ id: string; kind: string; content: string; tags: string }>;
    for (const row of rows) {
      const tags = JSON.parse(row.tags) as string[];
      lines.push(JSON.stringify({ type: 'entity', name: row.id, entityType: row.kind, observations: [row.content, ...tags] }));
    }
  } finally {
    db.close();
  }
  writeFileSync(file, lines.join('\n'));
  return { entities: lines.length, ms: nowMs() - started };
}

export async function runReference(opts: { home: string; file: string; cwd: string; queries: string[]; budgetMs: number; creates: number }): Promise<ReferenceRun> {
  if (!existsSync(SERVER_MEMORY_BIN)) throw new Error(`${SERVER_MEMORY_BIN} is missing (npm install the devDependencies)`);
  const written = writeMemoryFile(opts.home, opts.file);
  log(`server-memory: wrote ${written.entities} entities to its JSONL file in ${(written.ms / 1000).toFixed(1)} s`);
  const proc = await connectStdio({ command: process.execPath, args: [SERVER_MEMORY_BIN], env: { MEMORY_FILE_PATH: opts.file }, cwd: opts.cwd, clientName: 'nuzo-bench' });
  const run: ReferenceRun = {
    entities: written.entities,
    fileBytes: statSync(opts.file).size,
    writeFileMs: written.ms,
    ms: [],
    results: [],
    bytes: [],
    capped: false,
    budgetMs: opts.budgetMs,
    rss: null,
    createMs: [],
    createError: null,
  };
  try {
    await proc.client.listTools();
    const search = (query: string) => proc.client.callTool({ name: 'search_nodes', arguments: { query } }, undefined, { timeout: 600_000 });
    const started = nowMs();
    // warm up (file cache, JIT) with the first queries, as the Nuzo paths were
    for (const q of opts.queries.slice(0, 3)) await search(q);
    for (const q of opts.queries) {
      if (nowMs() - started > opts.budgetMs) {
        run.capped = true;
        break;
      }
      const t = nowMs();
      const result = await search(q);
      run.ms.push(nowMs() - t);
      const entities = structured(result)['entities'];
      run.results.push(Array.isArray(entities) ? entities.length : 0);
      run.bytes.push(Buffer.byteLength(JSON.stringify(result)));
      if (run.ms.length % 25 === 0) log(`server-memory: ${run.ms.length}/${opts.queries.length} queries`);
    }
    run.rss = procMem(proc.pid);
    for (let i = 0; i < opts.creates; i++) {
      const t = nowMs();
      const result = await proc.client.callTool(
        { name: 'create_entities', arguments: { entities: [{ name: `bench-write-${i}`, entityType: 'note', observations: [`Bench write ${i} through create_entities.`] }] } },
        undefined,
        { timeout: 600_000 },
      );
      const created = structured(result)['entities'];
      if (result.isError || !Array.isArray(created) || created.length !== 1) {
        run.createError = JSON.stringify(result).slice(0, 200);
        break;
      }
      run.createMs.push(nowMs() - t);
    }
  } finally {
    await proc.close();
  }
  return run;
}

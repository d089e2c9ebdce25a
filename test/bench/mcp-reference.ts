/**
 * The MCP reference memory server (`@modelcontextprotocol/server-memory`) loaded with the bench
 * corpus: the memory server of the MCP reference servers repository, as a like-for-like baseline.
 *
 * Loading goes through its own `create_entities` tool over stdio, in batches, for as long as a
 * time box allows: every call rereads and rewrites the whole JSON Lines file and checks each new
 * name against every existing entity, so the cost per batch grows with the file. Whatever is left
 * when the time box runs out is appended directly in exactly the line format its `saveGraph`
 * writes (`{"type":"entity","name","entityType","observations"}` per line, joined by "\n").
 */
import Database from 'better-sqlite3';
import { appendFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { databasePath } from '../../main/core/paths.js';
import { connectStdio, DIST, log, nowMs, procMem, structured, type ProcMem } from './mcp-procs.js';

const SDK_DEFAULT_MAX_BUFFER = 10 * 1024 * 1024;
const MAX_BUFFER_BYTES = 512 * 1024 * 1024;

export const SERVER_MEMORY_BIN = join(DIST, '..', 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');

export interface ReferenceRun {
  entities: number;
  fileBytes: number;
  /** Entities loaded through create_entities, and the wall time that took. */
  loadedViaTool: number;
  loadMs: number;
  loadBatch: number;
  loadBudgetMs: number;
  /** Entities appended directly to the file once the load time box ran out, and how long that took. */
  appendedDirectly: number;
  appendMs: number;
  /** Per query, in the order given; shorter than the query list when the time box ran out. */
  ms: number[];
  results: number[];
  bytes: number[];
  capped: boolean;
  budgetMs: number;
  /** The query that broke the run, if one did (the rest were not run). */
  searchFailure: string | null;
  /** Responses larger than the SDK client's default 10 MiB stdio message limit (they would fail a default SDK client). */
  overSdkDefault: number;
  maxBufferBytes: number;
  rss: ProcMem | null;
  createMs: number[];
  createError: string | null;
}

interface Entity {
  name: string;
  entityType: string;
  observations: string[];
}

/** Every live memory of the data folder as one entity: name = id, type = kind, observations = [content, ...tags]. */
export function readEntities(home: string): Entity[] {
  const db = new Database(databasePath(home), { readonly: true });
  try {
    const rows = db.prepare('SELECT id, kind, content, tags FROM memories WHERE deleted_at IS NULL ORDER BY seq').all() as Array<{ id: string; kind: string; content: string; tags: string }>;
    return rows.map((row) => ({ name: row.id, entityType: row.kind, observations: [row.content, ...(JSON.parse(row.tags) as string[])] }));
  } finally {
    db.close();
  }
}

/** Appends entities in the server's own line format (its loader skips blank lines; its saver joins with "\n"). */
function appendEntities(file: string, entities: Entity[]): void {
  const lines = entities.map((e) => JSON.stringify({ type: 'entity', name: e.name, entityType: e.entityType, observations: e.observations }));
  const hasContent = existsSync(file) && statSync(file).size > 0;
  appendFileSync(file, (hasContent ? '\n' : '') + lines.join('\n'));
}

export async function runReference(opts: {
  home: string;
  file: string;
  cwd: string;
  queries: string[];
  budgetMs: number;
  loadBudgetMs: number;
  loadBatch: number;
  creates: number;
}): Promise<ReferenceRun> {
  if (!existsSync(SERVER_MEMORY_BIN)) throw new Error(`${SERVER_MEMORY_BIN} is missing (npm install the devDependencies)`);
  const entities = readEntities(opts.home);
  // Its answers to common words run to tens of MiB at 100,000 entities, past the SDK client's default 10 MiB message limit.
  const proc = await connectStdio({
    command: process.execPath,
    args: [SERVER_MEMORY_BIN],
    env: { MEMORY_FILE_PATH: opts.file },
    cwd: opts.cwd,
    clientName: 'nuzo-bench',
    maxBufferSize: MAX_BUFFER_BYTES,
  });
  const run: ReferenceRun = {
    entities: entities.length,
    fileBytes: 0,
    loadedViaTool: 0,
    loadMs: 0,
    loadBatch: opts.loadBatch,
    loadBudgetMs: opts.loadBudgetMs,
    appendedDirectly: 0,
    appendMs: 0,
    ms: [],
    results: [],
    bytes: [],
    capped: false,
    budgetMs: opts.budgetMs,
    searchFailure: null,
    overSdkDefault: 0,
    maxBufferBytes: MAX_BUFFER_BYTES,
    rss: null,
    createMs: [],
    createError: null,
  };
  try {
    await proc.client.listTools();
    const loadStarted = nowMs();
    while (run.loadedViaTool < entities.length && nowMs() - loadStarted < opts.loadBudgetMs) {
      const batch = entities.slice(run.loadedViaTool, run.loadedViaTool + opts.loadBatch);
      const result = await proc.client.callTool({ name: 'create_entities', arguments: { entities: batch } }, undefined, { timeout: 600_000 });
      const created = structured(result)['entities'];
      if (result.isError || !Array.isArray(created) || created.length !== batch.length) {
        throw new Error(`create_entities failed: ${JSON.stringify(result).slice(0, 300)}`);
      }
      run.loadedViaTool += batch.length;
      if ((run.loadedViaTool / opts.loadBatch) % 10 === 0) log(`server-memory: ${run.loadedViaTool} entities loaded through create_entities`);
    }
    run.loadMs = nowMs() - loadStarted;
    if (run.loadedViaTool < entities.length) {
      // the server holds no state between calls (it rereads the file every time), so appending is safe
      const t = nowMs();
      appendEntities(opts.file, entities.slice(run.loadedViaTool));
      run.appendedDirectly = entities.length - run.loadedViaTool;
      run.appendMs = nowMs() - t;
    }
    run.fileBytes = statSync(opts.file).size;
    log(`server-memory: ${run.loadedViaTool} entities through create_entities in ${(run.loadMs / 1000).toFixed(1)} s, ${run.appendedDirectly} appended directly`);
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
      let result: Awaited<ReturnType<typeof search>>;
      try {
        result = await search(q);
      } catch (error) {
        run.searchFailure = `query ${run.ms.length + 1} "${q}": ${(error as Error).message}${proc.stderr() ? ` (stderr: ${proc.stderr().slice(-300)})` : ''}`;
        log(`server-memory: ${run.searchFailure}`);
        break;
      }
      run.ms.push(nowMs() - t);
      const entities = structured(result)['entities'];
      run.results.push(Array.isArray(entities) ? entities.length : 0);
      // the JSON-RPC line on the wire is this plus the envelope ({"result":…,"jsonrpc":"2.0","id":n})
      const bytes = Buffer.byteLength(JSON.stringify(result));
      run.bytes.push(bytes);
      if (bytes > SDK_DEFAULT_MAX_BUFFER) run.overSdkDefault++;
      if (run.ms.length % 25 === 0) log(`server-memory: ${run.ms.length}/${opts.queries.length} queries`);
    }
    run.rss = procMem(proc.pid);
    for (let i = 0; i < opts.creates && !run.searchFailure; i++) {
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

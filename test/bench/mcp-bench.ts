/**
 * MCP figures for `npm run bench`, each next to a baseline measured in the same run:
 *  1. memory_recall through the real bridge vs recall() in-process vs the raw FTS5 query;
 *  2. bridge cold start to the first tools/list vs a trivial SDK server;
 *  3. memory_confirm_capture under a standing grant (sequential and 4 clients) vs in-process;
 *  4. the MCP reference memory server (@modelcontextprotocol/server-memory) on the same memories;
 *  5. resident memory of the service and of the other processes.
 *
 * It runs on a copy of the loaded data folder (the writes of part 3 must not change what later
 * benchmarks see), with a real `nuzo serve` child and real bridge processes spawned by the MCP
 * SDK's stdio client, exactly as a host launches them.
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { databasePath } from '../../main/core/paths.js';
import { projectIdForDir } from '../../main/core/project.js';
import { openDatabase } from '../../main/store/database.js';
import { recall } from '../../main/store/recall.js';
import { buildFtsQuery } from '../../main/store/fts-query.js';
import { Store } from '../../main/store/store.js';
import { ConsentEngine } from '../../main/consent/engine.js';
import type { StoredRequester } from '../../main/consent/offers.js';
import { generateCorpus, prng } from './corpus.js';
import { fmt, percentile, summarise, timeMs } from './stats.js';
import type { BenchTable } from './table.js';
import {
  connectStdio,
  errorCode,
  log,
  nowMs,
  NUZO_BRIDGE,
  NUZO_CLI,
  nuzoEnv,
  procMem,
  run,
  startService,
  structured,
  type McpProc,
  type ProcMem,
  type Service,
} from './mcp-procs.js';
import { runReference, type ReferenceRun } from './mcp-reference.js';

const CLIENT = 'nuzo-bench';
const COLD_RUNS = 15;
const SEQ_WRITES = 500;
const CONC_CLIENTS = 4;
const CONC_EACH = 250;
const REF_BUDGET_MS = Number(process.env['BENCH_MCP_REF_BUDGET_S'] ?? 180) * 1000;
const REF_CREATES = 10;
const NO_MATCH = 'zqxjvkw';
const REF_LOAD_BUDGET_MS = Number(process.env['BENCH_MCP_REF_LOAD_S'] ?? 90) * 1000;
const REF_LOAD_BATCH = 1000;

const mib = (m: ProcMem | null | undefined, key: keyof ProcMem): string => (m ? `${fmt(m[key], 0)} MiB` : 'n/a');
const sizeMiB = (bytes: number): string => `${fmt(bytes / 1048576, 1)} MiB`;
const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const p = (xs: number[], q: number): number => percentile([...xs].sort((a, b) => a - b), q);

/** Distinct contents: a corpus sentence (realistic index and near-duplicate work) + four made-up words, so no two are (near-)duplicates. */
function writeContents(n: number, seed: number, tag: string): Array<{ content: string; kind: string; tags: string[] }> {
  const SYL = ['ka', 'ro', 'mi', 'tu', 'sel', 'van', 'dor', 'pi', 'le', 'zu', 'fen', 'ma', 'qo', 'rin', 'tas', 'bo', 'ne', 'wix', 'lu', 'har'];
  const r = prng(seed * 7919);
  const word = (): string => Array.from({ length: 3 }, () => SYL[Math.floor(r() * SYL.length)]).join('');
  return generateCorpus(n, seed).map((item, i) => ({
    content: `${item.content} Bench ${tag} ${i}: ${word()} ${word()} ${word()} ${word()}.`,
    kind: item.kind,
    tags: item.tags,
  }));
}

function dirBytes(home: string): number {
  return readdirSync(home)
    .filter((f) => /^nuzo\.sqlite(-wal)?$/.test(f))
    .reduce((sum, f) => sum + statSync(join(home, f)).size, 0);
}

function failedTable(title: string, error: unknown): BenchTable {
  const message = error instanceof Error ? error.message : String(error);
  log(`${title}: failed: ${message}`);
  return { title, columns: ['measure', 'value'], rows: [['failed', message.slice(0, 400)]] };
}

interface RecallRun {
  bridgeMs: number[];
  inprocMs: number[];
  rawMs: number[];
  pingMs: number[];
  /** memory_recall for a word no memory contains: the per-call cost of a tool call with (almost) no SQL work. */
  emptyMs: number[];
  bridgeHits: number;
  /** Items per query through the bridge, in query order. */
  bridgeCounts: number[];
  inprocHits: number;
  rawHits: number;
  bridgeZero: number;
  bytes: number[];
  mismatches: number;
  rssAfter: ProcMem | null;
}

async function recallRun(work: string, cwd: string, queries: string[], service: Service): Promise<RecallRun> {
  const bridge = await connectStdio({ command: process.execPath, args: [NUZO_BRIDGE], env: nuzoEnv(work), cwd, clientName: CLIENT });
  const db = openDatabase(work, { readonly: true });
  const rawDb = new Database(databasePath(work), { readonly: true });
  try {
    // a host's SDK client lists tools first; that also makes the client check every result against the output schema
    await bridge.client.listTools();
    const scopes = ['user', `project:${projectIdForDir(cwd)}`];
    const rawStmt = rawDb.prepare(
      "SELECT m.* FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid WHERE memories_fts MATCH ? AND m.deleted_at IS NULL AND m.scope = 'user' ORDER BY bm25(memories_fts) LIMIT 20",
    );
    const viaBridge = (query: string) => bridge.client.callTool({ name: 'memory_recall', arguments: { query, limit: 20 } });
    for (const q of queries.slice(0, 20)) {
      await viaBridge(q);
      recall(db, { query: q, limit: 20, scopes });
      rawStmt.all(buildFtsQuery(q)!.all);
      await bridge.client.ping();
      await viaBridge(NO_MATCH);
    }
    const out: RecallRun = { bridgeMs: [], inprocMs: [], rawMs: [], pingMs: [], emptyMs: [], bridgeHits: 0, bridgeCounts: [], inprocHits: 0, rawHits: 0, bridgeZero: 0, bytes: [], mismatches: 0, rssAfter: null };
    for (const q of queries) {
      const t = nowMs();
      const result = await viaBridge(q);
      out.bridgeMs.push(nowMs() - t);
      const items = structured(result)['items'] as Array<{ id: string }> | undefined;
      if (result.isError || !Array.isArray(items)) throw new Error(`memory_recall("${q}") failed: ${errorCode(result)}`);
      out.bridgeHits += items.length;
      out.bridgeCounts.push(items.length);
      if (items.length === 0) out.bridgeZero++;
      out.bytes.push(Buffer.byteLength(JSON.stringify(result)));

      const [page, ms] = timeMs(() => recall(db, { query: q, limit: 20, scopes }));
      out.inprocMs.push(ms);
      out.inprocHits += page.items.length;
      const mine = new Set(page.items.map((m) => m.id));
      if (mine.size !== items.length || items.some((m) => !mine.has(m.id))) out.mismatches++;

      const match = buildFtsQuery(q)!.all;
      const [rows, rawMs] = timeMs(() => rawStmt.all(match));
      out.rawMs.push(rawMs);
      out.rawHits += rows.length;

      const tp = nowMs();
      await bridge.client.ping();
      out.pingMs.push(nowMs() - tp);

      const te = nowMs();
      const empty = await viaBridge(NO_MATCH);
      out.emptyMs.push(nowMs() - te);
      if (empty.isError || (structured(empty)['items'] as unknown[]).length !== 0) throw new Error(`memory_recall("${NO_MATCH}") should find nothing: ${errorCode(empty)}`);
    }
    out.rssAfter = procMem(service.pid);
    return out;
  } finally {
    rawDb.close();
    db.close();
    await bridge.close();
  }
}

function recallTable(size: string, r: RecallRun): BenchTable {
  const b = summarise(r.bridgeMs);
  const i = summarise(r.inprocMs);
  const w = summarise(r.rawMs);
  const g = summarise(r.pingMs);
  const e = summarise(r.emptyMs);
  return {
    title: `MCP recall through the real bridge (${size} memories, 200 queries, limit 20)`,
    columns: ['measure', 'p50', 'p99', 'unit', 'note'],
    rows: [
      ['memory_recall via nuzo-bridge (SDK client, stdio)', fmt(b.p50, 3), fmt(b.p99, 3), 'ms', `${r.bridgeHits} hits, ${r.bridgeZero} queries with none`],
      ['recall() in-process, same scopes', fmt(i.p50, 3), fmt(i.p99, 3), 'ms', `${r.inprocHits} hits; ${r.mismatches} queries whose ids differ from the bridge's`],
      ['same FTS5 query, raw better-sqlite3, scope user', fmt(w.p50, 3), fmt(w.p99, 3), 'ms', `baseline in the same run; ${r.rawHits} rows`],
      ['ratio bridge / raw', fmt(b.p50 / w.p50, 1), fmt(b.p99 / w.p99, 1), '×', ''],
      ['ratio in-process / raw', fmt(i.p50 / w.p50, 2), fmt(i.p99 / w.p99, 2), '×', ''],
      ['MCP ping via nuzo-bridge (no tool, no SQL)', fmt(g.p50, 3), fmt(g.p99, 3), 'ms', 'transport floor: client → bridge → socket → service and back'],
      [`memory_recall via nuzo-bridge, "${NO_MATCH}" (matches nothing)`, fmt(e.p50, 3), fmt(e.p99, 3), 'ms', 'tool-call floor: dispatch, argument checks, per-call bookkeeping, ~no SQL'],
      ['bridge − in-process (p50 of each)', fmt(b.p50 - i.p50, 3), '', 'ms', 'what the MCP path adds to one recall'],
      ['recall result size on the wire', fmt(p(r.bytes, 50) / 1024, 1), fmt(p(r.bytes, 99) / 1024, 1), 'KiB', 'JSON of the tool result (text + structuredContent carry the same items)'],
    ],
    notes: [
      'Method: one `nuzo serve` child on a copy of the bench data folder; an MCP SDK Client over StdioClientTransport spawns',
      '`node dist/bridge/nuzo-bridge.js` (cwd: an empty temp folder, so the connection reads `user` + a project with no memories).',
      'Per query the three paths run back to back (bridge, then in-process, then raw), after 20 warm-up queries on each; the',
      'in-process recall() uses exactly the connection\'s scopes; the raw query is the bare FTS5 MATCH + bm25 on scope user.',
      'Bridge time includes the SDK client\'s zod parse and JSON-schema check of structuredContent (it listed tools first, as hosts do).',
      'p99 of 200 samples is the second-slowest one: read it as "the bad tail", not as a precise figure.',
    ],
  };
}

/** The single-file CommonJS bridge the packaged app ships (scripts/bundle-bridge.mjs), when the build made it. */
const NUZO_BRIDGE_BUNDLE = join(NUZO_BRIDGE, '..', '..', 'bridge-bundle', 'nuzo-bridge.cjs');

interface ColdRun {
  bridgeMs: number[];
  bundleMs: number[];
  trivialMs: number[];
  nodeMs: number[];
  bridgeMem: ProcMem | null;
  trivialMem: ProcMem | null;
}

function trivialServerSource(): string {
  const url = (spec: string): string => import.meta.resolve(spec);
  return [
    `import { McpServer } from ${JSON.stringify(url('@modelcontextprotocol/sdk/server/mcp.js'))};`,
    `import { StdioServerTransport } from ${JSON.stringify(url('@modelcontextprotocol/sdk/server/stdio.js'))};`,
    `import { z } from ${JSON.stringify(url('zod'))};`,
    `const server = new McpServer({ name: 'trivial', version: '1.0.0' });`,
    `server.registerTool('echo', { description: 'Echoes the text back', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));`,
    `await server.connect(new StdioServerTransport());`,
    '',
  ].join('\n');
}

function bareNodeMs(): Promise<number> {
  return new Promise((done, fail) => {
    const t = nowMs();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.once('error', fail);
    child.once('close', () => done(nowMs() - t));
  });
}

async function coldRun(work: string, cwd: string, trivialFile: string): Promise<ColdRun> {
  const out: ColdRun = { bridgeMs: [], bundleMs: [], trivialMs: [], nodeMs: [], bridgeMem: null, trivialMem: null };
  const once = async (args: string[], env: Record<string, string>): Promise<[number, ProcMem | null]> => {
    const t = nowMs();
    let proc: McpProc | null = null;
    try {
      proc = await connectStdio({ command: process.execPath, args, env, cwd, clientName: CLIENT });
      const tools = await proc.client.listTools();
      const ms = nowMs() - t;
      if (tools.tools.length === 0) throw new Error('tools/list returned no tools');
      return [ms, procMem(proc.pid)];
    } finally {
      await proc?.close();
    }
  };
  for (let i = 0; i < COLD_RUNS; i++) {
    // rotate which goes first, so none always runs on a freshly idle machine
    const kinds: Array<'bridge' | 'bundle' | 'trivial'> = existsSync(NUZO_BRIDGE_BUNDLE) ? ['bridge', 'bundle', 'trivial'] : ['bridge', 'trivial'];
    const order = [...kinds.slice(i % kinds.length), ...kinds.slice(0, i % kinds.length)];
    for (const which of order) {
      if (which === 'bundle') {
        out.bundleMs.push((await once([NUZO_BRIDGE_BUNDLE], nuzoEnv(work)))[0]);
      } else if (which === 'bridge') {
        const [ms, mem] = await once([NUZO_BRIDGE], nuzoEnv(work));
        out.bridgeMs.push(ms);
        out.bridgeMem = mem;
      } else {
        const [ms, mem] = await once([trivialFile], {});
        out.trivialMs.push(ms);
        out.trivialMem = mem;
      }
    }
    out.nodeMs.push(await bareNodeMs());
  }
  return out;
}

function coldTable(c: ColdRun): BenchTable {
  const row = (name: string, xs: number[], note: string): Array<string | number> => [name, fmt(p(xs, 50), 1), fmt(p(xs, 90), 1), 'ms', note];
  return {
    title: `Bridge cold start: spawn to first tools/list response (${COLD_RUNS} runs each)`,
    columns: ['measure', 'median', 'p90', 'unit', 'note'],
    rows: [
      row('nuzo-bridge (service already running)', c.bridgeMs, 'spawn + IPC connect + HMAC handshake + initialize + tools/list relayed'),
      ...(c.bundleMs.length ? [row('nuzo-bridge, bundled (dist/bridge-bundle/nuzo-bridge.cjs)', c.bundleMs, 'the one-file CommonJS build the packaged app ships')] : []),
      row('trivial SDK server (McpServer + stdio, 1 tool)', c.trivialMs, 'baseline in the same run: node -e-style .mjs loading the SDK and zod'),
      ['ratio bridge / trivial', fmt(p(c.bridgeMs, 50) / p(c.trivialMs, 50), 2), fmt(p(c.bridgeMs, 90) / p(c.trivialMs, 90), 2), '×', ''],
      row('bare `node -e 0` spawn to exit', c.nodeMs, 'floor: what any Node-based MCP server pays before its first line runs'),
    ],
    notes: [
      'Method: each run constructs the SDK StdioClientTransport, connects (initialize) and awaits tools/list; the clock starts',
      'before the spawn and stops at the tools/list response. The kinds take turns going first; the close is not timed.',
    ],
  };
}

interface WriteRun {
  scope: string;
  wouldBefore: string;
  wouldAfter: string;
  grant: string;
  seq: { ms: number[]; wallMs: number; failure: string | null; via: string };
  conc: { ms: number[]; wallMs: number; failure: string | null };
  inproc: { ms: number[]; wallMs: number; failure: string | null };
  rssAfter: ProcMem | null;
}

async function writeRun(work: string, cwd: string, service: Service): Promise<WriteRun> {
  const procs: McpProc[] = [];
  const connect = async (): Promise<McpProc> => {
    const proc = await connectStdio({ command: process.execPath, args: [NUZO_BRIDGE], env: nuzoEnv(work), cwd, clientName: CLIENT });
    procs.push(proc);
    await proc.client.listTools();
    return proc;
  };
  try {
    const writer = await connect();
    const sample = writeContents(1, 4242, 'probe')[0]!;
    const suggest = async (): Promise<Record<string, unknown>> => {
      const result = await writer.client.callTool({ name: 'memory_suggest_capture', arguments: sample });
      if (result.isError) throw new Error(`memory_suggest_capture failed: ${errorCode(result)}`);
      return structured(result);
    };
    const before = await suggest();
    const scope = String(before['scope']);
    const granted = await run([NUZO_CLI, 'grant', 'add', '--host', CLIENT, '--scope', scope, '--origins', 'agent', '--kinds', 'all'], nuzoEnv(work));
    if (granted.code !== 0) throw new Error(`nuzo grant add exited ${granted.code}: ${granted.stderr.trim() || granted.stdout.trim()}`);
    const after = await suggest();
    const out: WriteRun = {
      scope,
      wouldBefore: String(before['would']),
      wouldAfter: String(after['would']),
      grant: granted.stdout.trim(),
      seq: { ms: [], wallMs: NaN, failure: null, via: '' },
      conc: { ms: [], wallMs: NaN, failure: null },
      inproc: { ms: [], wallMs: NaN, failure: null },
      rssAfter: null,
    };

    const confirmAll = async (proc: McpProc, items: ReturnType<typeof writeContents>, into: { ms: number[]; failure: string | null }, vias?: Set<string>): Promise<void> => {
      for (const item of items) {
        if (into.failure) return;
        const t = nowMs();
        const result = await proc.client.callTool({ name: 'memory_confirm_capture', arguments: item }, undefined, { timeout: 120_000 });
        const ms = nowMs() - t;
        const body = structured(result);
        if (result.isError || body['status'] !== 'written') {
          into.failure = errorCode(result);
          return;
        }
        vias?.add(String(body['via']));
        into.ms.push(ms);
      }
    };

    const vias = new Set<string>();
    let t = nowMs();
    await confirmAll(writer, writeContents(SEQ_WRITES, 101, 'seq'), out.seq, vias);
    out.seq.wallMs = nowMs() - t;
    out.seq.via = [...vias].join(',');
    log(`writes: ${out.seq.ms.length} sequential in ${fmt(out.seq.wallMs / 1000, 1)} s${out.seq.failure ? `; stopped: ${out.seq.failure}` : ''}`);

    const clients = [writer];
    while (clients.length < CONC_CLIENTS) clients.push(await connect());
    const sets = clients.map((_, k) => writeContents(CONC_EACH, 201 + k, `conc${k}`));
    t = nowMs();
    await Promise.all(clients.map((c, k) => confirmAll(c, sets[k]!, out.conc)));
    out.conc.wallMs = nowMs() - t;
    log(`writes: ${out.conc.ms.length} from ${CONC_CLIENTS} clients in ${fmt(out.conc.wallMs / 1000, 1)} s${out.conc.failure ? `; stopped: ${out.conc.failure}` : ''}`);
    out.rssAfter = procMem(service.pid);
    return out;
  } finally {
    for (const proc of procs) await proc.close();
  }
}

/** Same writes, same grant, same path minus MCP and IPC: ConsentEngine.confirm on the service's store (service stopped). */
async function inprocWrites(work: string, cwd: string, into: WriteRun['inproc']): Promise<void> {
  const store = Store.open(work, 'mcp-bench in-process');
  try {
    const engine = new ConsentEngine(store);
    const requester: StoredRequester = {
      key: 'bench:in-process',
      actor: `mcp:${CLIENT}:in-process`,
      channel: 'mcp',
      host: CLIENT,
      hostVersion: '0.1.0',
      projects: [projectIdForDir(cwd)],
      person: false,
    };
    const items = writeContents(SEQ_WRITES, 301, 'inproc');
    const t = nowMs();
    for (const item of items) {
      const t1 = nowMs();
      try {
        const outcome = await engine.confirm({ ...item }, requester, null);
        if (outcome.status !== 'executed') throw new Error(`outcome ${outcome.status}`);
      } catch (error) {
        into.failure = `${(error as { code?: string }).code ?? 'error'}: ${(error as Error).message}`;
        break;
      }
      into.ms.push(nowMs() - t1);
    }
    into.wallMs = nowMs() - t;
  } finally {
    store.close();
  }
}

function writeTable(w: WriteRun, ref: ReferenceRun | null): BenchTable {
  const row = (name: string, s: { ms: number[]; wallMs: number; failure: string | null }, n: number, note: string): Array<string | number> =>
    s.failure
      ? [name, 'stopped', '', '', `after ${s.ms.length}/${n}: ${s.failure}`]
      : [name, fmt(s.ms.length / (s.wallMs / 1000), 0), fmt(p(s.ms, 50), 2), fmt(p(s.ms, 99), 2), note];
  const rows = [
    row(`memory_confirm_capture via bridge, ${SEQ_WRITES} sequential`, w.seq, SEQ_WRITES, `every result status "written" (via ${w.seq.via || '?'})`),
    row(`same, ${CONC_CLIENTS} clients × ${CONC_EACH} concurrently`, w.conc, CONC_CLIENTS * CONC_EACH, `${CONC_CLIENTS} bridges, one service, every result "written"`),
    row(`ConsentEngine.confirm in-process, ${SEQ_WRITES} sequential`, w.inproc, SEQ_WRITES, 'baseline: same grant, scope and kind of content, no MCP/IPC'),
  ];
  if (ref && ref.loadedViaTool > 0) {
    rows.push([
      `server-memory create_entities, ${ref.loadBatch.toLocaleString('en')} entities/call (its load)`,
      fmt(ref.loadedViaTool / (ref.loadMs / 1000), 0),
      '',
      '',
      `${ref.loadedViaTool.toLocaleString('en')} entities into an empty file in ${fmt(ref.loadMs / 1000, 1)} s; batched, so compare with the core import row`,
    ]);
  }
  if (ref && ref.createMs.length) {
    rows.push([
      `server-memory create_entities, 1 entity/call, ${ref.createMs.length} calls`,
      fmt(ref.createMs.length / (ref.createMs.reduce((a, b) => a + b, 0) / 1000), 1),
      fmt(p(ref.createMs, 50), 2),
      fmt(p(ref.createMs, 99), 2),
      `into its ${ref.entities.toLocaleString('en')}-entity file: rereads and rewrites the whole file per call, no fsync`,
    ]);
  } else if (ref?.createError) {
    rows.push(['server-memory create_entities', 'failed', '', '', ref.createError]);
  }
  return {
    title: 'Confirm under a standing grant: write rate',
    columns: ['measure', 'writes/s', 'p50 ms', 'p99 ms', 'note'],
    rows,
    notes: [
      `Grant made first with \`nuzo grant add --host ${CLIENT} --scope ${w.scope} --origins agent --kinds all\` (through the running service):`,
      `  ${w.grant}`,
      `memory_suggest_capture said would="${w.wouldBefore}" before the grant and would="${w.wouldAfter}" after it.`,
      'Contents are distinct corpus sentences plus four made-up words each, so none is a duplicate or near-duplicate',
      '(a near-duplicate always needs a person, never a grant). Every write is its own transaction with synchronous=FULL (one',
      'fsync per write); the "import through the whole pipeline" row of the core table above is the batched in-process rate',
      '(fsync amortised over a batch, near-duplicate search skipped), so it is the ceiling, not a like-for-like baseline.',
      'The in-process row ran after the service stopped, on the same data folder, through ConsentEngine.confirm: the code the',
      'MCP handler calls. writes/s = writes / wall time; p50/p99 are per call.',
    ],
  };
}

function referenceTable(size: string, r: RecallRun | null, ref: ReferenceRun, nuzoBytes: number): BenchTable {
  const n = ref.ms.length;
  const nuzo = r ? r.bridgeMs.slice(0, n) : [];
  const refZero = ref.results.filter((x) => x === 0).length;
  const rows: Array<Array<string | number>> = [
    r
      ? [
          'Nuzo memory_recall via bridge (limit 20)',
          fmt(p(nuzo, 50), 2),
          fmt(p(nuzo, 99), 2),
          fmt(mean(r.bridgeCounts.slice(0, n)), 1),
          `${r.bridgeCounts.slice(0, n).filter((x) => x === 0).length}/${n} queries with no result; response p50 ${fmt(p(r.bytes.slice(0, n), 50) / 1024, 0)} KiB; same run as the recall table`,
        ]
      : ['Nuzo memory_recall via bridge', 'n/a', '', '', 'the recall run failed'],
    ['server-memory search_nodes via stdio', fmt(p(ref.ms, 50), 2), fmt(p(ref.ms, 99), 2), fmt(mean(ref.results), 1), `${refZero}/${n} queries with no result; response p50 ${fmt(p(ref.bytes, 50) / 1024, 0)} KiB, max ${fmt(Math.max(...ref.bytes) / 1048576, 1)} MiB`],
    ['ratio server-memory / Nuzo', fmt(p(ref.ms, 50) / p(nuzo, 50), 1), fmt(p(ref.ms, 99) / p(nuzo, 99), 1), '', `over the same ${n} queries`],
    ['storage: server-memory JSONL file', sizeMiB(ref.fileBytes), '', '', `${ref.entities.toLocaleString('en')} entities`],
    ['storage: Nuzo database (nuzo.sqlite + WAL)', sizeMiB(nuzoBytes), '', '', 'memories, revisions, FTS5 index, audit, offers'],
  ];
  return {
    title: `MCP reference memory server on the same ${size} memories`,
    columns: ['measure', 'p50 ms', 'p99 ms', 'avg results', 'note'],
    rows,
    notes: [
      `Content: all ${ref.entities.toLocaleString('en')} live memories of every scope, one entity each (name = memory id, entityType = kind,`,
      'observations = [content, ...tags]).',
      ref.appendedDirectly === 0
        ? `Loaded entirely through its create_entities tool over stdio, ${ref.loadBatch.toLocaleString('en')} per call, in ${fmt(ref.loadMs / 1000, 1)} s (time box ${fmt(ref.loadBudgetMs / 1000, 0)} s).`
        : `Loaded ${ref.loadedViaTool.toLocaleString('en')} through its create_entities tool (${ref.loadBatch.toLocaleString('en')} per call) before the ${fmt(ref.loadBudgetMs / 1000, 0)} s load time box ran out; the other ` +
          `${ref.appendedDirectly.toLocaleString('en')} were appended to its file directly, in its own saveGraph line format, in ${fmt(ref.appendMs / 1000, 1)} s` +
          ' (each create_entities call rereads and rewrites the whole file and checks every new name against every entity, so calls slow down as it grows).',
      ref.capped
        ? `Time box: ${fmt(ref.budgetMs / 1000, 0)} s for its queries; it finished ${n} of 200 (in order), and the Nuzo figures in this table are over those same ${n}.`
        : ref.searchFailure
          ? `Its run stopped at ${ref.searchFailure}; the figures cover the ${n} queries before it, Nuzo's too.`
          : `All 200 queries ran (time box ${fmt(ref.budgetMs / 1000, 0)} s not reached).`,
      ...(ref.overSdkDefault === 0
        ? [`None of its ${n} responses was larger than 10 MiB, the MCP SDK client's default stdio message limit (this client allowed ${fmt(ref.maxBufferBytes / 1048576, 0)} MiB).`]
        : [
            `${ref.overSdkDefault} of its ${n} responses ${ref.overSdkDefault === 1 ? 'was' : 'were'} larger than 10 MiB, the MCP SDK client's default stdio message limit: a host on a default`,
            `SDK client gets "Connection closed" (and loses the server) on such a query. This client allowed ${fmt(ref.maxBufferBytes / 1048576, 0)} MiB so that every query could be timed.`,
          ]),
      'Semantics differ, so the result counts are not a quality score: search_nodes returns EVERY entity whose name, type or any',
      'observation contains the whole query as a case-insensitive substring, unranked and unlimited, over all entities (no scopes),',
      'rereading and parsing the file on every call; Nuzo returns the top 20 by BM25 + recency, matching word tokens (last one as a',
      'prefix, falling back to any-word when all-words finds nothing), in the scopes this connection may read (user here, ~1/5 of them).',
    ],
  };
}

function memoryTable(rows: Array<[string, ProcMem | null, string]>): BenchTable {
  return {
    title: 'Resident memory of the processes (from /proc/<pid>/status)',
    columns: ['process', 'VmRSS', 'VmHWM (peak)', 'note'],
    rows: rows.map(([name, m, note]) => [name, mib(m, 'rssMiB'), mib(m, 'hwmMiB'), note]),
  };
}

export async function runMcpBench(home: string, queries: string[]): Promise<BenchTable[]> {
  const started = nowMs();
  const loadStart = loadavg()[0]!;
  const root = mkdtempSync(join(tmpdir(), 'nuzo-mcp-'));
  const work = join(root, 'home');
  const cwd = join(root, 'cwd');
  mkdirSync(work, { mode: 0o700 });
  mkdirSync(cwd);
  const tables: BenchTable[] = [];
  const timings: string[] = [];
  const lap = (name: string, since: number): void => void timings.push(`${name} ${fmt((nowMs() - since) / 1000, 1)} s`);
  let service: Service | null = null;
  try {
    if (!existsSync(NUZO_BRIDGE)) throw new Error(`${NUZO_BRIDGE} is not built`);
    let t = nowMs();
    for (const f of readdirSync(home)) if (/^nuzo\.sqlite(-wal)?$/.test(f)) copyFileSync(join(home, f), join(work, f));
    const nuzoBytes = dirBytes(work);
    const countDb = new Database(databasePath(work), { readonly: true });
    const count = (countDb.prepare('SELECT count(*) AS n FROM memories WHERE deleted_at IS NULL').get() as { n: number }).n;
    countDb.close();
    const size = count.toLocaleString('en');
    lap('copy', t);

    t = nowMs();
    service = await startService(work);
    lap('service start', t);
    log(`service pid ${service.pid} on a copy of the data folder (${sizeMiB(nuzoBytes)})`);

    const mem: Array<[string, ProcMem | null, string]> = [];
    let recallResult: RecallRun | null = null;
    t = nowMs();
    try {
      recallResult = await recallRun(work, cwd, queries, service);
      tables.push(recallTable(size, recallResult));
      mem.push(['nuzo serve, after the recall run', recallResult.rssAfter, `${size} memories; SQLite page cache 32 MB per connection`]);
    } catch (error) {
      tables.push(failedTable('MCP recall through the real bridge', error));
    }
    lap('recall', t);

    t = nowMs();
    const trivialFile = join(root, 'trivial-server.mjs');
    writeFileSync(trivialFile, trivialServerSource());
    try {
      const cold = await coldRun(work, cwd, trivialFile);
      tables.push(coldTable(cold));
      mem.push(['nuzo-bridge, after tools/list', cold.bridgeMem, 'one per host session']);
      mem.push(['trivial SDK server, after tools/list', cold.trivialMem, 'baseline: SDK + zod loaded, nothing else']);
    } catch (error) {
      tables.push(failedTable('Bridge cold start', error));
    }
    lap('cold start', t);

    t = nowMs();
    let writes: WriteRun | null = null;
    try {
      writes = await writeRun(work, cwd, service);
      mem.push(['nuzo serve, after the write runs', writes.rssAfter, `+${writes.seq.ms.length + writes.conc.ms.length} writes`]);
    } catch (error) {
      tables.push(failedTable('Confirm under a standing grant', error));
    }
    await service.stop();
    service = null;
    if (writes) {
      try {
        await inprocWrites(work, cwd, writes.inproc);
      } catch (error) {
        writes.inproc.failure = (error as Error).message;
      }
    }
    lap('writes', t);

    t = nowMs();
    let ref: ReferenceRun | null = null;
    try {
      ref = await runReference({
        home,
        file: join(root, 'memory.jsonl'),
        cwd,
        queries,
        budgetMs: REF_BUDGET_MS,
        loadBudgetMs: REF_LOAD_BUDGET_MS,
        loadBatch: REF_LOAD_BATCH,
        creates: REF_CREATES,
      });
      mem.push(['server-memory, after its search run', ref.rss, `${ref.entities.toLocaleString('en')} entities; it rereads and parses its file on every call`]);
    } catch (error) {
      tables.push(failedTable('MCP reference memory server', error));
    }
    lap('server-memory', t);
    if (writes) tables.push(writeTable(writes, ref));
    if (ref) tables.push(referenceTable(size, recallResult, ref, nuzoBytes));
    const memTable = memoryTable(mem);
    memTable.notes = [
      `Time per part: ${timings.join(', ')}; whole MCP bench ${fmt((nowMs() - started) / 1000, 1)} s on ${process.arch}, node ${process.version}, ${cpus().length} CPUs.`,
      `Load average (1 min) ${fmt(loadStart, 2)} when the MCP bench started and ${fmt(loadavg()[0]!, 2)} when it ended: other work on the machine shows up in the tails.`,
    ];
    tables.push(memTable);
    return tables;
  } finally {
    await service?.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

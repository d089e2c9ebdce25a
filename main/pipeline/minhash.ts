import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/database.js';
import { SettingsQueries } from '../store/settings.js';

/**
 * MinHash locality-sensitive hashing: the candidate index for near-duplicates (DESIGN §4 stage 6).
 *
 * Why not "the rarest words": a writer who knows the corpus can prefix words that each occur in
 * one memory of its own, and a probe built from the rarest words then never reaches the real
 * near-duplicate (content making a write easier). MinHash does not look at frequencies: every
 * word of the text takes part, and which word decides a hash function's minimum depends on a
 * per-installation secret seed, so nobody outside this data folder can pick words that win.
 *
 * For two texts with word-set Jaccard similarity J, each of the K hash functions has the same
 * minimum for both with probability J. The K minima are cut into BANDS bands of BAND_ROWS rows;
 * two texts become candidates when they agree on every row of at least one band:
 *
 *     P(candidate) = 1 − (1 − J^BAND_ROWS)^BANDS          (`candidateProbability`)
 *
 * K = 32, 16 bands of 2 rows: J = 0.5 → 0.99000, J = 0.6 → 0.99921, J = 0.7 → 0.99998.
 *
 * Every candidate is then scored exactly (word-set Jaccard over the same word set), so LSH only
 * decides what gets looked at, never what is reported. All candidates are scored, not the first
 * few hundred: in a scope full of similar-looking memories (one template, different details)
 * thousands of them share a band, and a cut by "most bands shared" would drop a real
 * near-duplicate that happens to share few (a pair at J = 0.6 shares ≤ 3 of 16 bands 12 % of the
 * time). Scoring stays cheap: each memory's word set is kept in memory as sorted 32-bit word ids.
 *
 * Storage: `memory_bands (gen, key, memory_seq)`, WITHOUT ROWID, primary key in that order.
 * `key` folds the scope and the band number into one 32-bit integer (a collision only adds a
 * candidate that the exact score and the scope check then drop). `gen` = memory_seq >> GEN_SHIFT:
 * band keys are random, and inserting them into one big B-tree dirties a different page per key
 * (an import rewrote the whole index at every batch commit); grouping rows by generation keeps
 * new rows in the newest, small part of the tree. A lookup probes each generation (25 at
 * 100,000 memories).
 */
export const MINHASH_FUNCTIONS = 32;
export const BAND_ROWS = 2;
export const BANDS = MINHASH_FUNCTIONS / BAND_ROWS;
export const GEN_SHIFT = 12;

/** Probability that a pair with word-set Jaccard `j` shares at least one band. */
export function candidateProbability(j: number, bands = BANDS, rows = BAND_ROWS): number {
  return 1 - (1 - j ** rows) ** bands;
}

/**
 * The words of a text, as the near-duplicate score counts them: letters, digits and marks,
 * NFKC-folded and lower-cased. The same set feeds the MinHash signature and the exact Jaccard
 * score, so the candidate probability above holds for the very similarity that is reported.
 */
export function wordSet(text: string): Set<string> {
  return new Set(text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? []);
}

// ---------------------------------------------------------------------------------------------
// Keyed hashing

const rotl = (x: number, b: number): number => (x << b) | (x >>> (32 - b));

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * HalfSipHash-2-4 with a 64-bit output (the 32-bit SipHash variant by Aumasson and Bernstein),
 * keyed with 64 bits of the installation seed, over the text's UTF-16 code units (two per 32-bit
 * word). A keyed pseudo-random function: without the key nothing about a word's hash can be
 * predicted, which is what makes the minima unsteerable. Writes the two halves to `out`.
 */
export function halfSipHash64(k0: number, k1: number, text: string, out: Uint32Array): void {
  let v0 = k0 | 0;
  let v1 = k1 ^ 0xee;
  let v2 = 0x6c796765 ^ k0;
  let v3 = 0x74656462 ^ k1;
  const n = text.length;
  // blocks of two code units; then the last block: the byte length in the top byte and a
  // trailing odd code unit in the low bytes; then finalisation (4 rounds per output half)
  const blocks = (n >> 1) + 1;
  for (let block = 0; block < blocks + 2; block++) {
    let m = 0;
    let rounds = 2;
    if (block < blocks - 1) m = text.charCodeAt(2 * block) | (text.charCodeAt(2 * block + 1) << 16);
    else if (block === blocks - 1) m = (((n * 2) & 0xff) << 24) | (n & 1 ? text.charCodeAt(n - 1) : 0);
    else {
      if (block === blocks) v2 ^= 0xee;
      else {
        out[0] = (v1 ^ v3) >>> 0;
        v1 ^= 0xdd;
      }
      rounds = 4;
    }
    v3 ^= m;
    for (let r = 0; r < rounds; r++) {
      v0 = (v0 + v1) | 0; v1 = (v1 << 5) | (v1 >>> 27); v1 ^= v0; v0 = (v0 << 16) | (v0 >>> 16);
      v2 = (v2 + v3) | 0; v3 = (v3 << 8) | (v3 >>> 24); v3 ^= v2;
      v0 = (v0 + v3) | 0; v3 = (v3 << 7) | (v3 >>> 25); v3 ^= v0;
      v2 = (v2 + v1) | 0; v1 = (v1 << 13) | (v1 >>> 19); v1 ^= v2; v2 = (v2 << 16) | (v2 >>> 16);
    }
    v0 ^= m;
  }
  out[1] = (v1 ^ v3) >>> 0;
}

/** Everything derived from one installation seed. Never logged, never exported. */
export interface BandHasher {
  readonly k0: number;
  readonly k1: number;
  /** Per hash function: an xor salt and an odd multiplier, from the other 64 bits of the seed. */
  readonly salt: Uint32Array;
  readonly mult: Uint32Array;
}

export function hasherFromSeed(seed: Buffer): BandHasher {
  if (seed.length !== 16) throw new Error('near-duplicate seed must be 16 bytes');
  const salt = new Uint32Array(MINHASH_FUNCTIONS);
  const mult = new Uint32Array(MINHASH_FUNCTIONS);
  const out = new Uint32Array(2);
  for (let i = 0; i < MINHASH_FUNCTIONS; i++) {
    halfSipHash64(seed.readUInt32LE(8), seed.readUInt32LE(12), `minhash function ${i}`, out);
    salt[i] = out[0]!;
    mult[i] = out[1]! | 1;
  }
  return { k0: seed.readUInt32LE(0), k1: seed.readUInt32LE(4), salt, mult };
}

/** A text's near-duplicate sketch: its band keys (for lookup) and sorted word ids (for scoring). */
export interface Sketch {
  keys: number[];
  ids: Uint32Array;
}

/**
 * Word w of the set gets the keyed hash (h1, h2): h1 is its word id, and hash function f maps it
 * to fmix32((h1 ^ salt_f) + h2·mult_f). The signature is the K minima; each band key folds
 * (scope, band, the band's minima) into one signed 32-bit integer.
 */
export function sketch(hasher: BandHasher, scope: string, words: Set<string>): Sketch {
  if (words.size === 0) return { keys: [], ids: new Uint32Array(0) };
  const sig = new Uint32Array(MINHASH_FUNCTIONS).fill(0xffffffff);
  const ids = new Uint32Array(words.size);
  const out = new Uint32Array(2);
  const { k0, k1, salt, mult } = hasher;
  let w = 0;
  for (const word of words) {
    halfSipHash64(k0, k1, word, out);
    const h1 = out[0]!;
    const h2 = out[1]!;
    ids[w++] = h1;
    for (let f = 0; f < MINHASH_FUNCTIONS; f++) {
      const v = fmix32(((h1 ^ salt[f]!) + Math.imul(h2, mult[f]!)) | 0);
      if (v < sig[f]!) sig[f] = v;
    }
  }
  ids.sort();
  halfSipHash64(k0, k1, `scope:${scope}`, out);
  const s0 = out[0]!;
  const s1 = out[1]!;
  const keys = new Set<number>();
  for (let band = 0; band < BANDS; band++) {
    // murmur3-style combination of (scope, band, the band's minima)
    let h = s0 ^ Math.imul(band + 1, 0x9e3779b1);
    for (let r = 0; r < BAND_ROWS; r++) {
      let k = Math.imul(sig[band * BAND_ROWS + r]!, 0xcc9e2d51);
      k = Math.imul(rotl(k, 15), 0x1b873593);
      h = (Math.imul(rotl(h ^ k, 13), 5) + 0xe6546b64) | 0;
    }
    keys.add(fmix32(h ^ s1) | 0);
  }
  return { keys: [...keys], ids };
}

/**
 * Sorted word ids (32-bit keyed hashes; two words that collide keep both entries). Comparing
 * two such lists as multisets never counts fewer shared words than the texts share — a shared
 * word has the same id on both sides — so a Jaccard computed on ids is never below the real one:
 * as a filter it can let an extra candidate through to the exact score, never drop a match.
 */
export function wordIds(hasher: BandHasher, words: Set<string>): Uint32Array {
  const ids = new Uint32Array(words.size);
  const out = new Uint32Array(2);
  let w = 0;
  for (const word of words) {
    halfSipHash64(hasher.k0, hasher.k1, word, out);
    ids[w++] = out[0]!;
  }
  return ids.sort();
}

/** Multiset intersection size of sorted a[aFrom, aTo) and b[bFrom, bTo). */
function sharedIds(a: Uint32Array, aFrom: number, aTo: number, b: Uint32Array, bFrom: number, bTo: number): number {
  let shared = 0;
  while (aFrom < aTo && bFrom < bTo) {
    const x = a[aFrom]!;
    const y = b[bFrom]!;
    if (x === y) {
      shared++;
      aFrom++;
      bFrom++;
    } else if (x < y) aFrom++;
    else bFrom++;
  }
  return shared;
}

// ---------------------------------------------------------------------------------------------
// The seed

export const SEED_SETTING = 'near_duplicate_seed';

interface DbState {
  hasher: BandHasher;
  /** this connection's word-id cache (kept apart from the hasher: a new seed keeps its marks) */
  words: WordCache;
  statements: {
    maxSeq: Statement;
    dataVersion: Statement;
    seqOf: Statement;
    previous: Statement;
    insertAll: Statement;
    remove: Statement;
    contents: Statement;
    hashes: Statement;
  };
}
const states = new WeakMap<Db, DbState>();

function readSeed(db: Db): Buffer | null {
  const hex = new SettingsQueries(db).get<unknown>(SEED_SETTING, null);
  if (typeof hex !== 'string' || !/^[0-9a-f]{32}$/.test(hex)) return null;
  return Buffer.from(hex, 'hex');
}

/**
 * Creates the installation seed if there is none (16 random bytes, a JSON hex string in
 * `settings`). Returns true when it had to create one: band rows made with another seed, if any,
 * are then meaningless and must be rebuilt (`rebuildBands`).
 */
export function ensureSeed(db: Db): boolean {
  if (readSeed(db)) return false;
  new SettingsQueries(db).set(SEED_SETTING, randomBytes(16).toString('hex'));
  states.delete(db);
  forgetIds(db);
  return true;
}

function stateFor(db: Db): DbState {
  let state = states.get(db);
  if (state) return state;
  let seed = readSeed(db);
  if (!seed) {
    // The seed row went missing (removed by hand): the old bands cannot be reproduced.
    if (db.readonly) throw new Error('the near-duplicate index has no seed and this handle is read-only');
    db.transaction(() => {
      ensureSeed(db);
      rebuildBands(db);
    })();
    seed = readSeed(db)!;
  }
  state = {
    hasher: hasherFromSeed(seed),
    words: cacheFor(db),
    statements: {
      maxSeq: db.prepare('SELECT max(seq) FROM memories').pluck(),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
      seqOf: db.prepare('SELECT seq FROM memories WHERE id = ?').pluck(),
      previous: db.prepare('SELECT scope, content FROM memory_revisions WHERE memory_id = ? AND revision = ?'),
      insertAll: db.prepare('INSERT OR IGNORE INTO memory_bands (gen, key, memory_seq) SELECT ?, value, ? FROM json_each(?)'),
      remove: db.prepare('DELETE FROM memory_bands WHERE gen = ? AND key = ? AND memory_seq = ?'),
      contents: db.prepare('SELECT m.seq, m.content FROM json_each(?) j CROSS JOIN memories m ON m.seq = j.value').raw(),
      hashes: db.prepare('SELECT m.seq, m.content_hash FROM json_each(?) j CROSS JOIN memories m ON m.seq = j.value').raw(),
    },
  };
  states.set(db, state);
  return state;
}

export function hasherFor(db: Db): BandHasher {
  return stateFor(db).hasher;
}

// ---------------------------------------------------------------------------------------------
// The band table

/**
 * Recomputes every memory's bands (live and forgotten) from the stored seed in one pass, each
 * generation's rows sorted and appended in primary-key order. Used by migration 3 and when the
 * seed had to be replaced. The caller owns the transaction (the migration runs inside one).
 */
export function rebuildBands(db: Db): { memories: number; rows: number } {
  states.delete(db);
  forgetIds(db);
  const seed = readSeed(db);
  if (!seed) throw new Error('near-duplicate seed missing');
  const hasher = hasherFromSeed(seed);
  db.exec('DELETE FROM memory_bands');
  const insert = db.prepare('INSERT OR IGNORE INTO memory_bands (gen, key, memory_seq) VALUES (?, ?, ?)');
  const CHUNK = 128;
  const insertChunk = db.prepare(`INSERT OR IGNORE INTO memory_bands (gen, key, memory_seq) VALUES ${Array.from({ length: CHUNK }, () => '(?, ?, ?)').join(', ')}`);
  const chunk: number[] = [];
  const byGeneration = db.prepare(`SELECT seq, scope, content FROM memories WHERE seq >= ? AND seq < ? ORDER BY seq`).raw();
  const maxSeq = (db.prepare('SELECT max(seq) FROM memories').pluck().get() as number | null) ?? -1;
  let memories = 0;
  let rows = 0;
  let packed = new BigInt64Array(1 << 16);
  // one generation at a time: its rows sorted by (key, seq), then appended in that order
  for (let gen = 0; gen <= maxSeq >> GEN_SHIFT; gen++) {
    let n = 0;
    for (const [seq, scope, content] of byGeneration.all(gen << GEN_SHIFT, (gen + 1) << GEN_SHIFT) as Array<[number, string, string]>) {
      memories++;
      for (const key of sketch(hasher, scope, wordSet(content)).keys) {
        if (n === packed.length) {
          const grown = new BigInt64Array(packed.length * 2);
          grown.set(packed);
          packed = grown;
        }
        packed[n++] = (BigInt(key) << 32n) | BigInt(seq);
      }
    }
    const sorted = packed.subarray(0, n).sort();
    let i = 0;
    for (; i + CHUNK <= n; i += CHUNK) {
      chunk.length = 0;
      for (let k = i; k < i + CHUNK; k++) chunk.push(gen, Number(sorted[k]! >> 32n), Number(sorted[k]! & 0xffffffffn));
      insertChunk.run(chunk);
    }
    for (; i < n; i++) insert.run(gen, Number(sorted[i]! >> 32n), Number(sorted[i]! & 0xffffffffn));
    rows += n;
  }
  return { memories, rows };
}

/**
 * Keeps a memory's bands current after it was created or replaced (persist, stage 8, inside the
 * write's transaction). The bands of the revision before this one (its scope and text, from
 * `memory_revisions`) are removed and the current ones written: an update that changes the text
 * refreshes them, one that changes the scope moves them.
 */
export function indexNearDuplicates(db: Db, memory: { id: string; scope: string; content: string; revision: number; content_hash: string }): void {
  const state = stateFor(db);
  const s = state.statements;
  const seq = s.seqOf.get(memory.id) as number | undefined;
  if (seq === undefined) throw new Error(`memory ${memory.id} is not stored`);
  const gen = seq >> GEN_SHIFT;
  const next = sketch(state.hasher, memory.scope, wordSet(memory.content));
  noteWritten(state.words, seq, next.ids, memory.content_hash);
  if (memory.revision > 1) {
    const before = s.previous.get(memory.id, memory.revision - 1) as { scope: string; content: string } | undefined;
    if (!before) {
      // no earlier revision on record (never expected): drop whatever this memory had
      db.prepare('DELETE FROM memory_bands WHERE gen = ? AND memory_seq = ?').run(gen, seq);
    } else if (before.scope !== memory.scope || before.content !== memory.content) {
      const keep = new Set(next.keys);
      for (const key of sketch(state.hasher, before.scope, wordSet(before.content)).keys) if (!keep.has(key)) s.remove.run(gen, key, seq);
    }
  }
  if (next.keys.length) s.insertAll.run(gen, seq, JSON.stringify(next.keys));
}

/**
 * Memories sharing at least one of `keys` (seqs ascending), with the number of keys each shares.
 * Keys fold the scope in, so these are (but for a rare collision) memories of that scope; live
 * or forgotten.
 */
export function bandCandidates(db: Db, keys: readonly number[]): { seqs: number[]; shared: number[] } {
  const state = stateFor(db);
  const seqs: number[] = [];
  const shared: number[] = [];
  const maxSeq = state.statements.maxSeq.get() as number | null;
  if (keys.length === 0 || maxSeq === null) return { seqs, shared };
  const rows = Float64Array.from(lookupStatement(db, keys.length).all(maxSeq >> GEN_SHIFT, ...keys) as number[]).sort();
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && rows[i] === rows[i - 1]) shared[shared.length - 1]!++;
    else {
      seqs.push(rows[i]!);
      shared.push(1);
    }
  }
  return { seqs, shared };
}

const lookups = new WeakMap<Db, Map<number, Statement>>();

function lookupStatement(db: Db, keyCount: number): Statement {
  let byCount = lookups.get(db);
  if (!byCount) lookups.set(db, (byCount = new Map()));
  let statement = byCount.get(keyCount);
  if (!statement) {
    statement = db
      .prepare(
        `WITH RECURSIVE gens(gen) AS (SELECT 0 UNION ALL SELECT gen + 1 FROM gens WHERE gen < ?)
         SELECT b.memory_seq FROM gens CROSS JOIN memory_bands b
          WHERE b.gen = gens.gen AND b.key IN (${Array.from({ length: keyCount }, () => '?').join(', ')})`,
      )
      .pluck();
    byCount.set(keyCount, statement);
  }
  return statement;
}

/**
 * Word ids of stored memories, so scoring a candidate needs neither its row nor re-cutting its
 * text: one growing array (`arena`) and, per memory seq, where its ids sit in it (`offset`,
 * `count`) and how far they can be trusted (`mark`). 100,000 memories cost about 10 MB.
 *
 * An entry must never describe text the database does not hold, or a real match could be
 * scored too low. Memory text changes only through persist, so:
 * - persist marks the memory DIRTY (and keeps the ids it wrote as a provisional entry with the
 *   row's content hash): until this connection is next seen outside any transaction, that write
 *   may still be rolled back, so a dirty entry is never used and a dirty row read back is not
 *   cached;
 * - outside any transaction every earlier write has committed or rolled back: each provisional
 *   entry is kept if the row's content hash still matches, dropped otherwise, and the dirty
 *   marks are cleared (`settle`);
 * - a row read for a memory that is not dirty holds committed text (no open transaction of
 *   this connection changed it), so it is cached even inside a transaction;
 * - a commit by another connection (`PRAGMA data_version`) drops every trusted entry.
 */
interface WordCache {
  arena: Uint32Array;
  used: number;
  offset: Int32Array;
  count: Uint16Array;
  /** per seq: NONE, TRUSTED, PROVISIONAL (dirty, ids kept) or DIRTY (dirty, no ids) */
  mark: Uint8Array;
  /** seqs marked PROVISIONAL or DIRTY, and the content hash each provisional entry was made from */
  dirty: number[];
  provisional: Map<number, string>;
  dataVersion: number;
}

const NONE = 0;
const TRUSTED = 1;
const PROVISIONAL = 2;
const DIRTY = 3;
/** Bound on the arena: 4 M ids (16 MB), about 200,000 typical memories; then it starts over. */
const MAX_CACHED_IDS = 1 << 22;
const MAX_PROVISIONAL = 100_000;
const MAX_WORDS = 0xffff;

const caches = new WeakMap<Db, WordCache>();

function cacheFor(db: Db): WordCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = emptyWordCache()));
  return cache;
}

/** A new seed means new word ids: every stored id goes, the dirty marks stay. */
function forgetIds(db: Db): void {
  const cache = caches.get(db);
  if (cache) dropAllIds(cache);
}

function emptyWordCache(): WordCache {
  return {
    arena: new Uint32Array(1 << 16),
    used: 0,
    offset: new Int32Array(0),
    count: new Uint16Array(0),
    mark: new Uint8Array(0),
    dirty: [],
    provisional: new Map(),
    dataVersion: -1,
  };
}

/** Forgets every entry's ids; dirty memories stay marked dirty. */
function dropAllIds(cache: WordCache): void {
  cache.used = 0;
  for (let seq = 0; seq < cache.mark.length; seq++) {
    if (cache.mark[seq] === TRUSTED) cache.mark[seq] = NONE;
    else if (cache.mark[seq] === PROVISIONAL) cache.mark[seq] = DIRTY;
  }
  cache.provisional.clear();
}

function ensureSlot(cache: WordCache, seq: number): void {
  if (seq < cache.mark.length) return;
  const size = Math.max(seq + 1, cache.mark.length * 2, 1024);
  const offset = new Int32Array(size);
  offset.set(cache.offset);
  const count = new Uint16Array(size);
  count.set(cache.count);
  const mark = new Uint8Array(size);
  mark.set(cache.mark);
  Object.assign(cache, { offset, count, mark });
}

/** Stores ids for `seq`; false when they do not fit (too many words, or the arena started over). */
function storeIds(cache: WordCache, seq: number, ids: Uint32Array): boolean {
  if (ids.length === 0 || ids.length > MAX_WORDS) return false;
  if (cache.used + ids.length > cache.arena.length) {
    if (cache.used + ids.length > MAX_CACHED_IDS) dropAllIds(cache);
    else {
      const grown = new Uint32Array(Math.min(MAX_CACHED_IDS, Math.max(cache.arena.length * 2, cache.used + ids.length)));
      grown.set(cache.arena.subarray(0, cache.used));
      cache.arena = grown;
    }
  }
  ensureSlot(cache, seq);
  cache.arena.set(ids, cache.used);
  cache.offset[seq] = cache.used;
  cache.count[seq] = ids.length;
  cache.used += ids.length;
  return true;
}

/** persist wrote `seq` (inside a transaction): its ids become a provisional entry. */
function noteWritten(cache: WordCache, seq: number, ids: Uint32Array, contentHash: string): void {
  ensureSlot(cache, seq);
  if (cache.mark[seq] !== PROVISIONAL && cache.mark[seq] !== DIRTY) cache.dirty.push(seq);
  cache.mark[seq] = DIRTY;
  cache.provisional.delete(seq);
  if (cache.provisional.size < MAX_PROVISIONAL && storeIds(cache, seq, ids)) {
    cache.mark[seq] = PROVISIONAL;
    cache.provisional.set(seq, contentHash);
  }
}

/** Outside any transaction: keep the provisional entries the database confirms, clear dirt. */
function settle(state: DbState): void {
  const cache = state.words;
  if (cache.dirty.length === 0) return;
  if (cache.provisional.size) {
    const seqs = [...cache.provisional.keys()];
    const held = new Map(state.statements.hashes.all(JSON.stringify(seqs)) as Array<[number, string]>);
    for (const seq of seqs) if (cache.mark[seq] === PROVISIONAL && held.get(seq) === cache.provisional.get(seq)) cache.mark[seq] = TRUSTED;
  }
  for (const seq of cache.dirty) if (cache.mark[seq] !== TRUSTED) cache.mark[seq] = NONE;
  cache.dirty = [];
  cache.provisional.clear();
}

/**
 * Of the memories `seqs`, those whose word-id Jaccard with `ids` (a sketch's) is at least
 * `threshold` — never fewer than those whose real word-set Jaccard is (see `wordIds`). A size
 * check comes first: Jaccard ≥ t needs t·|a| ≤ |b| ≤ |a|/t.
 */
export function scoreCandidates(db: Db, ids: Uint32Array, seqs: readonly number[], threshold: number): number[] {
  const state = stateFor(db);
  const cache = state.words;
  const version = state.statements.dataVersion.get() as number;
  if (version !== cache.dataVersion) {
    if (cache.dataVersion !== -1) dropAllIds(cache);
    cache.dataVersion = version;
  }
  if (!db.inTransaction) settle(state);
  const low = threshold * ids.length;
  const high = ids.length / threshold;
  const hits: number[] = [];
  const missing: number[] = [];
  for (const seq of seqs) {
    if (seq >= cache.mark.length || cache.mark[seq] !== TRUSTED) {
      missing.push(seq);
      continue;
    }
    const n = cache.count[seq]!;
    if (n < low || n > high) continue;
    const from = cache.offset[seq]!;
    const both = sharedIds(ids, 0, ids.length, cache.arena, from, from + n);
    if (both >= threshold * (ids.length + n - both)) hits.push(seq);
  }
  if (missing.length) {
    for (const [seq, content] of state.statements.contents.all(JSON.stringify(missing)) as Array<[number, string]>) {
      const other = wordIds(state.hasher, wordSet(content));
      const n = other.length;
      if (n >= low && n <= high) {
        const both = sharedIds(ids, 0, ids.length, other, 0, n);
        if (both >= threshold * (ids.length + n - both)) hits.push(seq);
      }
      // a dirty memory's text may be a write still open (or about to be rolled back)
      if ((seq >= cache.mark.length || cache.mark[seq] === NONE) && storeIds(cache, seq, other)) cache.mark[seq] = TRUSTED;
    }
  }
  return hits.sort((a, b) => a - b);
}

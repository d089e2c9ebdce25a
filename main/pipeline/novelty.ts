import { createHash } from 'node:crypto';
import { prepareCached } from '../store/statement-cache.js';
import type { Db } from '../store/database.js';
import { queryTokens } from '../store/fts-query.js';
import type { Scope } from '../core/types.js';
import type { SimilarMemory } from './types.js';

/** Case, width and spacing do not make a memory new. */
export function normaliseForHash(content: string): string {
  return content.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function contentHash(content: string): string {
  return createHash('sha256').update(normaliseForHash(content)).digest('hex');
}

export const NEAR_DUPLICATE_THRESHOLD = 0.6;
const CANDIDATE_TOKENS = 4;
const CANDIDATES = 24;

function tokenSet(text: string): Set<string> {
  return new Set(text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? []);
}

/** Jaccard similarity of word sets: cheap, symmetric, and easy to explain in the window. */
export function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const token of small) if (large.has(token)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * Document frequency per indexed term, read once from an fts5vocab view (≈160 ms at 100,000
 * memories) and then kept current by `noteIndexed` on every write. Looking terms up through the
 * view instead walks each term's whole posting list on every call. It only chooses which words
 * to probe with, so a count that drifts by a rolled-back write does no harm.
 */
const frequencies = new WeakMap<Db, Map<string, number>>();

function documentFrequencies(db: Db): Map<string, number> {
  let map = frequencies.get(db);
  if (!map) {
    db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.memories_vocab USING fts5vocab(main, 'memories_fts', 'row')");
    const rows = db.prepare('SELECT term, doc FROM temp.memories_vocab').all() as Array<{ term: string; doc: number }>;
    map = new Map(rows.map((r) => [r.term, r.doc]));
    frequencies.set(db, map);
  }
  return map;
}

/** Called for every row the index gains, so the counts stay current without re-reading them. */
export function noteIndexed(db: Db, content: string, tags: readonly string[]): void {
  const map = frequencies.get(db);
  if (!map) return;
  for (const term of new Set(queryTokens(`${content} ${tags.join(' ')}`, Infinity))) map.set(term, (map.get(term) ?? 0) + 1);
}

/**
 * Near-duplicates in the same scope: the full-text index proposes candidates that share the
 * content's rarest words (a near-duplicate shares almost all words, so it shares those too, and
 * rare words keep the candidate set small), then word-set similarity scores them.
 */
export function findSimilar(db: Db, scope: Scope, content: string, exceptId: string | null, limit = 5): SimilarMemory[] {
  const words = [...new Set(queryTokens(content.slice(0, 4096)))].filter((w) => w.length > 2).slice(0, 64);
  if (words.length === 0) return [];
  const df = documentFrequencies(db);
  const present = words.filter((w) => (df.get(w) ?? 0) > 0);
  if (present.length === 0) return [];
  const probe = present.sort((x, y) => df.get(x)! - df.get(y)!).slice(0, CANDIDATE_TOKENS).map((w) => `"${w}"`);
  // any two of the rarest words: a near-duplicate with one of them edited away is still found
  const pairs: string[] = [];
  for (let i = 0; i < probe.length; i++) for (let j = i + 1; j < probe.length; j++) pairs.push(`(${probe[i]} AND ${probe[j]})`);
  const match = pairs.length ? pairs.join(' OR ') : probe[0]!;
  const rows = prepareCached(
    db,
    `SELECT m.id, m.content FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid
       WHERE memories_fts MATCH ? AND m.scope = ? AND m.deleted_at IS NULL ORDER BY bm25(memories_fts) LIMIT ?`,
  ).all(match, scope, CANDIDATES) as Array<{ id: string; content: string }>;
  const mine = tokenSet(content);
  return rows
    .filter((row) => row.id !== exceptId)
    .map((row) => ({ id: row.id, score: Math.round(similarity(mine, tokenSet(row.content)) * 1000) / 1000 }))
    .filter((row) => row.score >= NEAR_DUPLICATE_THRESHOLD)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}

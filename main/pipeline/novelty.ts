import { createHash } from 'node:crypto';
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

const vocabReady = new WeakSet<Db>();

/** Document frequency per term, from a per-connection fts5vocab view (no schema change). */
function documentFrequencies(db: Db, terms: string[]): Map<string, number> {
  if (!vocabReady.has(db)) {
    db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.memories_vocab USING fts5vocab(main, 'memories_fts', 'row')");
    vocabReady.add(db);
  }
  const rows = db.prepare(`SELECT term, doc FROM temp.memories_vocab WHERE term IN (${terms.map(() => '?').join(',')})`).all(...terms) as Array<{ term: string; doc: number }>;
  return new Map(rows.map((r) => [r.term, r.doc]));
}

/**
 * Near-duplicates in the same scope: the full-text index proposes candidates that share the
 * content's rarest words (a near-duplicate shares almost all words, so it shares those too, and
 * rare words keep the candidate set small), then word-set similarity scores them.
 */
export function findSimilar(db: Db, scope: Scope, content: string, exceptId: string | null, limit = 5): SimilarMemory[] {
  const words = [...new Set(queryTokens(content.slice(0, 4096)))].filter((w) => w.length > 2).slice(0, 64);
  if (words.length === 0) return [];
  const df = documentFrequencies(db, words);
  const present = words.filter((w) => (df.get(w) ?? 0) > 0);
  if (present.length === 0) return [];
  const probe = present.sort((x, y) => df.get(x)! - df.get(y)!).slice(0, CANDIDATE_TOKENS).map((w) => `"${w}"`);
  // any two of the rarest words: a near-duplicate with one of them edited away is still found
  const pairs: string[] = [];
  for (let i = 0; i < probe.length; i++) for (let j = i + 1; j < probe.length; j++) pairs.push(`(${probe[i]} AND ${probe[j]})`);
  const match = pairs.length ? pairs.join(' OR ') : probe[0]!;
  const rows = db
    .prepare(
      `SELECT m.id, m.content FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid
       WHERE memories_fts MATCH ? AND m.scope = ? AND m.deleted_at IS NULL ORDER BY bm25(memories_fts) LIMIT ?`,
    )
    .all(match, scope, CANDIDATES) as Array<{ id: string; content: string }>;
  const mine = tokenSet(content);
  return rows
    .filter((row) => row.id !== exceptId)
    .map((row) => ({ id: row.id, score: Math.round(similarity(mine, tokenSet(row.content)) * 1000) / 1000 }))
    .filter((row) => row.score >= NEAR_DUPLICATE_THRESHOLD)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}

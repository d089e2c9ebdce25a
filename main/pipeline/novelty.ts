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
const CANDIDATE_TOKENS = 8;
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
 * Near-duplicates in the same scope: the full-text index proposes candidates that share the
 * content's most distinctive (longest) words, then word-set similarity scores them.
 */
export function findSimilar(db: Db, scope: Scope, content: string, exceptId: string | null, limit = 5): SimilarMemory[] {
  const words = queryTokens(content).filter((w) => w.length > 2);
  const probe = [...new Set(words)].sort((x, y) => y.length - x.length).slice(0, CANDIDATE_TOKENS);
  if (probe.length === 0) return [];
  const match = probe.map((w) => `"${w}"`).join(' OR ');
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

import { createHash } from 'node:crypto';
import { prepareCached } from '../store/statement-cache.js';
import type { Db } from '../store/database.js';
import { bandCandidates, hasherFor, scoreCandidates, sketch, wordSet } from './minhash.js';
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
/**
 * A bound on the work one lookup may do. Every memory sharing a band is scored (see minhash.ts:
 * a cut by "most bands shared" would lose real near-duplicates in a dense scope); only beyond
 * this many candidates are those sharing the fewest bands left out. In the bench corpus (20,000
 * memories per scope, from seven templates) a draft has about 3,000.
 */
export const MAX_CANDIDATES = 50_000;

/** Jaccard similarity of word sets: cheap, symmetric, and easy to explain in the window. */
export function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const token of small) if (large.has(token)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * Near-duplicates in the same scope (live memories only). Candidates come from the MinHash band
 * index (minhash.ts): every memory sharing at least one band key with the content. Nothing there
 * depends on how often a word occurs, and the hashes depend on a secret seed, so no choice of
 * extra words can steer a near-duplicate out of the candidates. Every candidate is scored on its
 * word ids (a bound that never drops a match), and those at the threshold are read back and
 * scored exactly on their text, best first.
 */
export function findSimilar(db: Db, scope: Scope, content: string, exceptId: string | null, limit = 5): SimilarMemory[] {
  const mine = wordSet(content);
  const { keys, ids } = sketch(hasherFor(db), scope, mine);
  if (keys.length === 0) return [];
  let { seqs, shared } = bandCandidates(db, keys);
  if (seqs.length > MAX_CANDIDATES) {
    const order = seqs.map((_, i) => i).sort((a, b) => shared[b]! - shared[a]! || seqs[a]! - seqs[b]!);
    seqs = order.slice(0, MAX_CANDIDATES).map((i) => seqs[i]!);
  }
  // generous by the reported score's rounding (0.5995 shows as 0.6): the exact score decides
  const hits = scoreCandidates(db, ids, seqs, NEAR_DUPLICATE_THRESHOLD - 0.0005 - 1e-9);
  if (hits.length === 0) return [];
  const rows = prepareCached(
    db,
    `SELECT m.id, m.content FROM json_each(?) j CROSS JOIN memories m ON m.seq = j.value
      WHERE m.scope = ? AND m.deleted_at IS NULL AND m.id <> ?`,
  ).all(JSON.stringify(hits), scope, exceptId ?? '') as Array<{ id: string; content: string }>;
  return rows
    .map((row) => ({ id: row.id, score: Math.round(similarity(mine, wordSet(row.content)) * 1000) / 1000 }))
    .filter((row) => row.score >= NEAR_DUPLICATE_THRESHOLD)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, limit);
}

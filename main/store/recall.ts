import type { Kind, Origin } from '../core/vocabulary.js';
import { prepareCached } from './statement-cache.js';
import type { Memory, Scope } from '../core/types.js';
import { NuzoError } from '../core/errors.js';
import type { Db } from './database.js';
import { buildFtsQuery } from './fts-query.js';
import { rowToMemory } from './memories.js';

export interface MemoryFilter {
  /** Scopes the caller may see; undefined means every scope (a person in the window or CLI). */
  scopes?: Scope[];
  kinds?: Kind[];
  origins?: Origin[];
  tags?: string[];
  /** Hosts as recorded in provenance.host. */
  hosts?: string[];
  /** 'live' (default), 'deleted' (the Trash) or 'all'. */
  state?: 'live' | 'deleted' | 'all';
}

export interface RecallQuery extends MemoryFilter {
  query: string;
  limit?: number;
  cursor?: string;
}

export interface RecallHit extends Memory {
  score: number;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

type SqlParam = string | number;

/** Shared WHERE clauses for filters; column names are fixed, values are always bound. */
export function filterClauses(filter: MemoryFilter, params: SqlParam[]): string[] {
  const where: string[] = [];
  const state = filter.state ?? 'live';
  if (state === 'live') where.push('m.deleted_at IS NULL');
  if (state === 'deleted') where.push('m.deleted_at IS NOT NULL');
  const inList = (column: string, values: readonly string[] | undefined): void => {
    if (values === undefined) return;
    if (values.length === 0) {
      where.push('0');
      return;
    }
    where.push(`${column} IN (${values.map(() => '?').join(',')})`);
    params.push(...values);
  };
  inList('m.scope', filter.scopes);
  inList('m.kind', filter.kinds);
  inList('m.origin', filter.origins);
  inList("json_extract(m.provenance, '$.host')", filter.hosts);
  for (const tag of filter.tags ?? []) {
    where.push('EXISTS (SELECT 1 FROM json_each(m.tags) WHERE json_each.value = ?)');
    params.push(tag);
  }
  return where;
}

const RECENCY_HALF_LIFE_DAYS = 30;
const RECENCY_WEIGHT = 0.25;

/**
 * Ranked search. BM25 picks a candidate pool, then a mild recency factor reorders it, so that of
 * two equally relevant memories the newer wins without burying an old exact match.
 */
export function recall(db: Db, query: RecallQuery, now: number = Date.now()): Page<RecallHit> {
  const limit = clampLimit(query.limit);
  const offset = decodeOffsetCursor(query.cursor);
  const fts = buildFtsQuery(query.query);
  if (fts === null) return listRecent(db, query, limit, offset, now);

  const poolSize = Math.max(50, (offset + limit) * 3);
  const run = (match: string): Array<Record<string, unknown> & { rank: number }> => {
    const params: SqlParam[] = [match];
    const where = ['memories_fts MATCH ?', ...filterClauses(query, params)];
    params.push(poolSize);
    const sql = `SELECT m.*, bm25(memories_fts, 1.0, 0.5) AS rank
      FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid
      WHERE ${where.join(' AND ')} ORDER BY rank LIMIT ?`;
    return prepareCached(db, sql).all(...params) as Array<Record<string, unknown> & { rank: number }>;
  };
  let rows = run(fts.all);
  if (rows.length === 0 && fts.any !== fts.all) rows = run(fts.any);

  const best = rows.length ? -rows[0]!.rank : 1;
  const scored = rows.map((row) => {
    const relevance = best > 0 ? -row.rank / best : 0;
    const ageDays = Math.max(0, (now - Number(row['updated_at'])) / 86_400_000);
    const recency = Math.pow(0.5, ageDays / RECENCY_HALF_LIFE_DAYS);
    const score = relevance * (1 - RECENCY_WEIGHT + RECENCY_WEIGHT * recency);
    return { memory: rowToMemory(row as unknown as Parameters<typeof rowToMemory>[0]), score };
  });
  scored.sort((a, b) => b.score - a.score || (a.memory.id < b.memory.id ? 1 : -1));
  const page = scored.slice(offset, offset + limit);
  const hasMore = scored.length > offset + limit;
  return {
    items: page.map(({ memory, score }) => ({ ...memory, score: round(score) })),
    next_cursor: hasMore ? encodeOffsetCursor(offset + limit) : null,
  };
}

function listRecent(db: Db, query: RecallQuery, limit: number, offset: number, now: number): Page<RecallHit> {
  const params: SqlParam[] = [];
  const where = filterClauses(query, params);
  params.push(limit + 1, offset);
  const sql = `SELECT m.* FROM memories m ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
    ORDER BY m.updated_at DESC, m.id DESC LIMIT ? OFFSET ?`;
  const rows = prepareCached(db, sql).all(...params) as Array<Parameters<typeof rowToMemory>[0]>;
  const items = rows.slice(0, limit).map((row) => {
    const ageDays = Math.max(0, (now - row.updated_at) / 86_400_000);
    return { ...rowToMemory(row), score: round(Math.pow(0.5, ageDays / RECENCY_HALF_LIFE_DAYS)) };
  });
  return { items, next_cursor: rows.length > limit ? encodeOffsetCursor(offset + limit) : null };
}

const round = (n: number): number => Math.round(n * 10_000) / 10_000;

export function clampLimit(limit: number | undefined): number {
  return Math.min(Math.max(Math.trunc(limit ?? 20), 1), 200);
}

function encodeOffsetCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

function decodeOffsetCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
    if (typeof parsed.o === 'number' && Number.isInteger(parsed.o) && parsed.o >= 0 && parsed.o <= 100_000) return parsed.o;
  } catch {
    // fall through to the named error
  }
  throw new NuzoError('validation_error', 'The cursor is not one this server issued; start again without a cursor.', { field: 'cursor' });
}

import type { Memory } from '../core/types.js';
import { prepareCached } from './statement-cache.js';
import { NuzoError } from '../core/errors.js';
import type { Db } from './database.js';
import { rowToMemory } from './memories.js';
import { clampLimit, filterClauses, type MemoryFilter, type Page } from './recall.js';

export interface ListQuery extends MemoryFilter {
  limit?: number;
  cursor?: string;
  /** newest first by creation (default), or by last change. */
  order?: 'created' | 'updated';
}

/** Keyset paging: stable under concurrent inserts, cheap at any depth. */
export function listMemories(db: Db, query: ListQuery): Page<Memory> {
  const limit = clampLimit(query.limit);
  const column = query.order === 'updated' ? 'updated_at' : 'created_at';
  const params: Array<string | number> = [];
  const where = filterClauses(query, params);
  if (query.cursor) {
    const after = decodeKeyset(query.cursor);
    where.push(`(m.${column} < ? OR (m.${column} = ? AND m.id < ?))`);
    params.push(after.t, after.t, after.id);
  }
  params.push(limit + 1);
  const sql = `SELECT m.* FROM memories m ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
    ORDER BY m.${column} DESC, m.id DESC LIMIT ?`;
  const rows = prepareCached(db, sql).all(...params) as Array<Parameters<typeof rowToMemory>[0]>;
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(rowToMemory),
    next_cursor: rows.length > limit && last ? encodeKeyset(last[column], last.id) : null,
  };
}

export function countMemories(db: Db, filter: MemoryFilter): number {
  const params: Array<string | number> = [];
  const where = filterClauses(filter, params);
  const sql = `SELECT count(*) AS n FROM memories m ${where.length ? 'WHERE ' + where.join(' AND ') : ''}`;
  return (prepareCached(db, sql).get(...params) as { n: number }).n;
}

function encodeKeyset(t: number, id: string): string {
  return Buffer.from(JSON.stringify({ t, id })).toString('base64url');
}

function decodeKeyset(cursor: string): { t: number; id: string } {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { t?: unknown; id?: unknown };
    if (typeof parsed.t === 'number' && typeof parsed.id === 'string') return { t: parsed.t, id: parsed.id };
  } catch {
    // fall through to the named error
  }
  throw new NuzoError('validation_error', 'The cursor is not one this server issued; start again without a cursor.', { field: 'cursor' });
}

import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';

const caches = new WeakMap<Db, Map<string, Statement>>();
const MAX_STATEMENTS = 256;

/**
 * Prepared statements for SQL built from filters: the same few shapes recur, and preparing costs
 * about a tenth of a millisecond a call. Bounded, so unusual filter mixes cannot grow it forever.
 */
export function prepareCached(db: Db, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    if (cache.size >= MAX_STATEMENTS) cache.clear();
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement;
}

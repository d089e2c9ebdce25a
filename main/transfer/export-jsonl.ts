import type { Memory, MemoryRevision } from '../core/types.js';
import type { Db } from '../store/database.js';
import type { MemoryQueries } from '../store/memories.js';
import { rowToMemory } from '../store/memories.js';

export interface ExportLine extends Omit<Memory, 'content_hash'> {
  forgotten: boolean;
  revisions: Array<Omit<MemoryRevision, 'memory_id'>>;
}

/**
 * Every memory, forgotten ones included and marked, each with its full revision history, oldest
 * first. A generator so a large store streams instead of being held in memory.
 */
export function* exportLines(db: Db, memories: MemoryQueries): Generator<ExportLine> {
  const rows = db.prepare('SELECT * FROM memories ORDER BY created_at, id').iterate() as IterableIterator<Parameters<typeof rowToMemory>[0]>;
  for (const row of rows) {
    const { content_hash: _hash, ...memory } = rowToMemory(row);
    const revisions = memories.revisions(memory.id).map(({ memory_id: _id, ...revision }) => revision);
    yield { ...memory, forgotten: memory.deleted_at !== null, revisions };
  }
}

import { NuzoError } from '../core/errors.js';
import type { Memory } from '../core/types.js';
import type { MemoryQueries } from '../store/memories.js';
import type { Requester } from './types.js';
import { mayUseScope } from './scope.js';

/**
 * Stage 5. An update or delete names the memory and the revision it was based on; the memory must
 * exist, be live (unless `allowDeleted`), be in a scope the requester may use, and still be at
 * that revision.
 */
export function checkRevision(
  memories: MemoryQueries,
  requester: Requester,
  memoryId: string,
  expectedRevision: number,
  options: { allowDeleted?: boolean } = {},
): Memory {
  const current = memories.get(memoryId);
  // A memory in a scope the requester may not use is reported exactly like one that does not
  // exist: neither its scope nor its state is anyone else's business.
  if (!current || !mayUseScope(requester, current.scope)) {
    throw new NuzoError('not_found', `There is no memory ${memoryId}.`, { memory_id: memoryId });
  }
  if (current.deleted_at !== null && !options.allowDeleted) {
    throw new NuzoError('not_found', `There is no memory ${memoryId} (it was forgotten; restore it from the window first).`, { memory_id: memoryId });
  }
  if (current.revision !== expectedRevision) {
    throw new NuzoError(
      'revision_conflict',
      `Memory ${memoryId} is at revision ${current.revision}, not ${expectedRevision}: it changed since you read it. Read it again and re-apply your change.`,
      { memory_id: memoryId, current_revision: current.revision, expected_revision: expectedRevision },
    );
  }
  return current;
}

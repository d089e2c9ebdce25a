import { NuzoError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Memory } from '../core/types.js';
import type { Store } from '../store/store.js';
import { consentLabel, type ConsentProof } from '../consent/proof.js';
import type { Draft, Requester } from './types.js';
import { indexNearDuplicates } from './minhash.js';

/**
 * Stage 8: the row, its revision, the index (by trigger) and the audit row, all inside the
 * caller's transaction so that either everything or nothing is stored.
 */
export function persistDraft(store: Store, draft: Draft, requester: Requester, consent: ConsentProof, now: number, id: string = newId(now)): Memory {
  const label = consentLabel(consent);
  const write = {
    scope: draft.fields.scope,
    kind: draft.fields.kind,
    content: draft.fields.content,
    tags: draft.fields.tags,
    provenance: draft.fields.provenance,
    origin: draft.origin,
    content_hash: draft.content_hash,
    at: now,
    actor: requester.actor,
    consent: label,
  };
  let memory: Memory | undefined;
  if (draft.action === 'create') {
    memory = store.memories.create({ ...write, id, ...(draft.created_at !== null ? { created_at: draft.created_at } : {}) });
  } else {
    memory = store.memories.replace({ ...write, id: draft.memory_id! }, draft.expected_revision!);
    if (!memory) {
      throw new NuzoError('revision_conflict', `Memory ${draft.memory_id} changed while this write was prepared. Read it again and re-apply your change.`, {
        memory_id: draft.memory_id,
      });
    }
  }
  indexNearDuplicates(store.db, memory);
  store.audit.record(
    {
      actor: requester.actor,
      action: draft.action === 'create' ? 'memory.create' : 'memory.update',
      target: memory.id,
      outcome: 'ok',
      detail: { origin: memory.origin, scope: memory.scope, kind: memory.kind, revision: memory.revision, consent: label, similar: draft.similar.length },
    },
    now,
  );
  return memory;
}

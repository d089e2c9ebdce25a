import { NuzoError, toNuzoError } from '../core/errors.js';
import { UNTRUSTED_ORIGINS, type Origin } from '../core/vocabulary.js';
import type { Memory } from '../core/types.js';
import type { Store } from '../store/store.js';
import { consentLabel, type ConsentProof } from '../consent/proof.js';
import type { Blocker, Draft, DraftWarning, Requester } from './types.js';
import { defaultScope, mergeProvenance, validateCapture, type ValidInput } from './validate.js';
import { lowerTrust, resolveOrigin } from './origin.js';
import { findSecrets, redactFields, secretError } from './secrets.js';
import { checkScope } from './scope.js';
import { checkRevision } from './revision.js';
import { contentHash, findSimilar } from './novelty.js';
import { looksLikeInstructions } from './instructions.js';
import { persistDraft } from './persist.js';

const asBlocker = (error: unknown): Blocker => {
  const e = toNuzoError(error);
  return { code: e.code, message: e.message, details: { ...e.details } };
};

/**
 * Stages 1–6 (DESIGN §4). Throws only `validation_error` (there is no draft to show without valid
 * fields); every later refusal is returned as the draft's `blocker` so a suggestion can show it.
 * Reads only: it never writes anything.
 */
export function prepareDraft(store: Store, input: unknown, requester: Requester, options: { similar?: boolean } = {}): Draft {
  const valid = validateCapture(input);
  // Tags are lower-cased by validation; case-sensitive token formats must be scanned as given.
  const given = (input as { tags?: unknown }).tags;
  const rawTags = Array.isArray(given) ? given.filter((t): t is string => typeof t === 'string') : [];
  return draftFromValid(store, valid, requester, options.similar ?? true, rawTags);
}

function draftFromValid(store: Store, valid: ValidInput, requester: Requester, searchSimilar: boolean, rawTags: string[]): Draft {
  const warnings: DraftWarning[] = [];
  const origin = resolveOrigin(requester, valid.source_origin);
  if (origin.ignoredClaim) warnings.push('origin_claim_ignored');
  if (origin.lowered) warnings.push('origin_lowered');

  let current: Memory | null = null;
  let blocker: Blocker | null = null;
  if (valid.memory_id !== undefined) {
    try {
      current = checkRevision(store.memories, requester, valid.memory_id, valid.expected_revision!);
    } catch (error) {
      blocker = asBlocker(error);
    }
  }
  let fields = {
    content: valid.content,
    kind: valid.kind ?? current?.kind ?? 'note',
    scope: valid.scope ?? current?.scope ?? defaultScope(requester),
    tags: valid.tags ?? current?.tags ?? [],
    provenance: mergeProvenance(valid.provenance ?? (current?.provenance as ValidInput['provenance']), requester),
  };

  const findings = findSecrets(fields, rawTags);
  if (findings.length && !blocker) blocker = asBlocker(secretError(findings));
  if (findings.length) fields = redactFields(fields, findings, rawTags);
  let scopeAllowed = true;
  try {
    checkScope(requester, fields.scope);
  } catch (error) {
    scopeAllowed = false;
    blocker ??= asBlocker(error);
  }

  const hash = contentHash(fields.content);
  let duplicateOf: string | null = null;
  let similar: Draft['similar'] = [];
  // Nothing is looked up for secret-bearing text, nor in a scope the requester may not read:
  // a duplicate or similarity answer there would tell it what another project holds.
  if (findings.length === 0 && scopeAllowed) {
    const duplicate = store.memories.findDuplicate(fields.scope, hash, valid.memory_id ?? '');
    duplicateOf = duplicate?.id ?? null;
    if (duplicate && !blocker) {
      blocker = asBlocker(
        new NuzoError('duplicate', `The same memory already exists in ${fields.scope} as ${duplicate.id}; nothing new was stored.`, {
          duplicate_of: duplicate.id,
        }),
      );
    }
    if (!duplicate && searchSimilar) similar = findSimilar(store.db, fields.scope, fields.content, valid.memory_id ?? null);
  }

  // An update never gains trust by being rewritten: it keeps the lower of where the memory came
  // from and who changes it, unless a person typed new text in the window (then it is theirs).
  let finalOrigin = origin.origin;
  if (current && !(requester.channel === 'window' && hash !== current.content_hash)) finalOrigin = lowerTrust(finalOrigin, current.origin);
  if (similar.length) warnings.push('near_duplicate');
  if (UNTRUSTED_ORIGINS.includes(finalOrigin)) warnings.push('untrusted_origin');
  // Whatever the origin: a local tool's output can carry text written elsewhere (curl, a file).
  if (looksLikeInstructions(fields.content)) warnings.push('instruction_like');

  return {
    action: valid.memory_id !== undefined ? 'update' : 'create',
    fields,
    origin: finalOrigin,
    content_hash: hash,
    memory_id: valid.memory_id ?? null,
    expected_revision: valid.expected_revision ?? null,
    current,
    created_at: valid.created_at !== undefined ? Date.parse(valid.created_at) : null,
    findings,
    duplicate_of: duplicateOf,
    similar,
    warnings,
    blocker,
  };
}

/**
 * A draft that no standing grant may execute: it needs a person's decision (DESIGN §4.6, §5).
 * Updates are among them: rewriting a memory is as destructive as forgetting it.
 */
export function needsPersonalDecision(draft: Draft): boolean {
  return (
    draft.action === 'update' ||
    draft.similar.length > 0 ||
    UNTRUSTED_ORIGINS.includes(draft.origin) ||
    draft.warnings.includes('instruction_like')
  );
}

export interface WriteOptions {
  /** A person edited the draft in the window: the edit is theirs (DESIGN §6). */
  originOverride?: Extract<Origin, 'user'>;
  now?: number;
  /** Imports of an export keep the memory's id, unless that id is already taken. */
  importId?: string | undefined;
  /**
   * Near-duplicates only inform a person's decision on a draft; a bulk import made by the person
   * has no draft to show them in, so it skips that search (exact duplicates are still refused).
   */
  skipSimilar?: boolean;
}

/**
 * Stages 1–8 in one transaction: every check runs again at execution time against the current
 * state, so a consent given earlier cannot write over a change made since. Refusals are audited
 * (reason code only) and thrown as NuzoError.
 */
export function executeWrite(store: Store, input: unknown, requester: Requester, consent: ConsentProof, options: WriteOptions = {}): Memory {
  const now = options.now ?? Date.now();
  let draft: Draft | null = null;
  try {
    return store.transaction(() => {
      draft = prepareDraft(store, input, requester, { similar: !options.skipSimilar });
      if (options.originOverride) draft = { ...draft, origin: options.originOverride };
      if (draft.blocker) throw new NuzoError(draft.blocker.code, draft.blocker.message, draft.blocker.details);
      if (options.importId && draft.action === 'create' && store.memories.get(options.importId)) {
        throw new NuzoError('duplicate', `Memory ${options.importId} is already in this store.`, { duplicate_of: options.importId });
      }
      return persistDraft(store, draft, requester, consent, now, options.importId);
    });
  } catch (error) {
    const e = toNuzoError(error);
    const d = draft as Draft | null;
    store.audit.record(
      {
        actor: requester.actor,
        action: d?.action === 'update' ? 'memory.update' : 'memory.create',
        target: d?.memory_id ?? e.details['duplicate_of']?.toString() ?? null,
        outcome: 'refused',
        reason: e.code,
        detail: { consent: consentLabel(consent), ...(d ? { origin: d.origin, scope: d.fields.scope } : {}) },
      },
      now,
    );
    throw e;
  }
}

export interface ForgetInput {
  memory_id: string;
  expected_revision: number;
}

/** Soft delete (forget) or undo it (restore); both are revisions and both are audited. */
export function setForgotten(store: Store, input: ForgetInput, forgotten: boolean, requester: Requester, consent: ConsentProof, now = Date.now()): Memory {
  const action = forgotten ? 'memory.forget' : 'memory.restore';
  try {
    return store.transaction(() => {
      const current = checkRevision(store.memories, requester, input.memory_id, input.expected_revision, { allowDeleted: !forgotten });
      if (!forgotten && current.deleted_at === null) {
        throw new NuzoError('validation_error', `Memory ${current.id} is not forgotten; there is nothing to restore.`, { memory_id: current.id });
      }
      if (!forgotten) {
        const twin = store.memories.findDuplicate(current.scope, current.content_hash, current.id);
        if (twin) throw new NuzoError('duplicate', `An identical memory ${twin.id} is live in ${current.scope}; restoring would duplicate it.`, { duplicate_of: twin.id });
      }
      const memory = store.memories.markDeleted(current.id, current.revision, forgotten, requester.actor, consentLabel(consent), now);
      if (!memory) throw new NuzoError('revision_conflict', `Memory ${current.id} changed meanwhile; read it again.`, { memory_id: current.id });
      store.audit.record({ actor: requester.actor, action, target: memory.id, outcome: 'ok', detail: { revision: memory.revision, consent: consentLabel(consent) } }, now);
      return memory;
    });
  } catch (error) {
    const e = toNuzoError(error);
    store.audit.record({ actor: requester.actor, action, target: input.memory_id, outcome: 'refused', reason: e.code }, now);
    throw e;
  }
}

/** Brings back the fields of an older revision as a new revision (through the whole pipeline). */
export function restoreRevision(
  store: Store,
  input: { memory_id: string; revision: number; expected_revision: number },
  requester: Requester,
  consent: ConsentProof,
): Memory {
  const old = store.memories.revision(input.memory_id, input.revision);
  if (!old) throw new NuzoError('not_found', `Memory ${input.memory_id} has no revision ${input.revision}.`, { memory_id: input.memory_id, revision: input.revision });
  const restoreAs: Requester = { ...requester };
  return executeWrite(
    store,
    {
      memory_id: input.memory_id,
      expected_revision: input.expected_revision,
      content: old.content,
      kind: old.kind,
      scope: old.scope,
      tags: old.tags,
      provenance: Object.fromEntries(Object.entries(old.provenance).filter(([k]) => !['channel', 'host', 'tool'].includes(k))),
      // the restored text keeps the trust of where it first came from, never more than the restorer's
      source_origin: old.origin,
    },
    restoreAs,
    consent,
  );
}

import { NuzoError } from '../core/errors.js';
import type { Memory } from '../core/types.js';
import { UNTRUSTED_ORIGINS } from '../core/vocabulary.js';
import type { Store } from '../store/store.js';
import { recall } from '../store/recall.js';
import { listMemories } from '../store/list.js';
import { needsPersonalDecision, prepareDraft } from '../pipeline/pipeline.js';
import { allowedScopes, checkScope } from '../pipeline/scope.js';
import type { ConsentEngine, ConfirmOutcome, DecisionAsker } from '../consent/engine.js';
import type { StoredRequester } from '../consent/offers.js';
import { buildContextPack } from './context-pack.js';
import type { MemoryOut } from './tool-schemas.js';
import type * as S from './tool-schemas.js';
import type { z } from 'zod';

export interface ToolContext {
  store: Store;
  engine: ConsentEngine;
  requester: StoredRequester;
  asker: DecisionAsker | null;
}

export function memoryOut(memory: Memory): MemoryOut {
  const { content_hash: _hash, ...rest } = memory;
  return { ...rest, untrusted: UNTRUSTED_ORIGINS.includes(memory.origin) };
}

/** The memory if this connection may see it: live and in its scopes. */
function visibleOrNull(ctx: ToolContext, id: string | null): Memory | null {
  const memory = id ? ctx.store.memories.get(id) : undefined;
  const scopes = allowedScopes(ctx.requester);
  if (!memory || memory.deleted_at !== null || (scopes && !scopes.includes(memory.scope))) return null;
  return memory;
}

/** A memory this connection may not see (other scope, forgotten) is reported like one that does not exist. */
function visibleMemory(ctx: ToolContext, id: string): Memory {
  const memory = visibleOrNull(ctx, id);
  if (!memory) throw new NuzoError('not_found', `There is no memory ${id} in this project's scopes.`, { memory_id: id });
  return memory;
}

function readScopes(ctx: ToolContext, scope: string | undefined): string[] | undefined {
  if (scope === undefined) return allowedScopes(ctx.requester);
  checkScope(ctx.requester, scope);
  return [scope];
}

function writeResult(outcome: ConfirmOutcome): z.infer<typeof S.writeOutput> {
  if (outcome.status === 'forgotten') return { status: 'forgotten', memory: memoryOut(outcome.memory), via: 'window', offer_id: outcome.offer_id };
  return { status: 'written', memory: memoryOut(outcome.memory), via: outcome.via, offer_id: outcome.offer_id };
}

type Handler = (args: never, ctx: ToolContext) => unknown;

export const HANDLERS: Record<string, Handler> = {
  memory_suggest_capture(args: z.infer<typeof S.suggestInput>, ctx: ToolContext): z.infer<typeof S.suggestOutput> {
    const draft = prepareDraft(ctx.store, args, ctx.requester);
    let would: 'write_under_grant' | 'ask_person' | 'refuse' = 'ask_person';
    if (draft.blocker) would = 'refuse';
    else if (!needsPersonalDecision(draft) && ctx.engine.grants.covering({ host: ctx.requester.host, scope: draft.fields.scope, origin: draft.origin, kind: draft.fields.kind, attested: false })) {
      would = 'write_under_grant';
    }
    return {
      action: draft.action,
      content: draft.fields.content,
      kind: draft.fields.kind,
      scope: draft.fields.scope,
      tags: draft.fields.tags,
      origin: draft.origin,
      findings: draft.findings,
      duplicate_of: draft.duplicate_of,
      similar: draft.similar,
      warnings: draft.warnings,
      would,
      refusal: draft.blocker,
    };
  },

  async memory_confirm_capture(args: z.infer<typeof S.confirmInput>, ctx: ToolContext) {
    return writeResult(await ctx.engine.confirm(args, ctx.requester, ctx.asker));
  },

  memory_capture_status(args: z.infer<typeof S.statusInput>, ctx: ToolContext): z.infer<typeof S.statusOutput> {
    const offer = ctx.engine.status(args.offer_id, ctx.requester.key);
    // the memory as it is now, and only while this connection may still see it
    const memory = visibleOrNull(ctx, offer.memory_id);
    return { offer_id: offer.id, state: offer.state, tool: offer.tool, memory: memory ? memoryOut(memory) : null, error_code: offer.error_code, expires_at: offer.expires_at };
  },

  memory_recall(args: z.infer<typeof S.recallInput>, ctx: ToolContext): z.infer<typeof S.pageOutput> {
    const scopes = readScopes(ctx, args.scope);
    const page = recall(ctx.store.db, {
      query: args.query,
      ...(scopes ? { scopes } : {}),
      ...(args.kinds ? { kinds: args.kinds } : {}),
      ...(args.tags ? { tags: args.tags.map((t) => t.trim().toLowerCase()) } : {}),
      ...(args.origins ? { origins: args.origins } : {}),
      limit: args.limit ?? 10,
      ...(args.cursor ? { cursor: args.cursor } : {}),
    });
    return { items: page.items.map((m) => ({ ...memoryOut(m), score: m.score })), next_cursor: page.next_cursor };
  },

  memory_get(args: z.infer<typeof S.getInput>, ctx: ToolContext): z.infer<typeof S.getOutput> {
    return { memory: memoryOut(visibleMemory(ctx, args.memory_id)) };
  },

  memory_list(args: z.infer<typeof S.listInput>, ctx: ToolContext): z.infer<typeof S.pageOutput> {
    const scopes = readScopes(ctx, args.scope);
    const page = listMemories(ctx.store.db, {
      ...(scopes ? { scopes } : {}),
      ...(args.kinds ? { kinds: args.kinds } : {}),
      ...(args.tags ? { tags: args.tags.map((t) => t.trim().toLowerCase()) } : {}),
      ...(args.origins ? { origins: args.origins } : {}),
      limit: args.limit ?? 20,
      ...(args.cursor ? { cursor: args.cursor } : {}),
    });
    return { items: page.items.map(memoryOut), next_cursor: page.next_cursor };
  },

  async memory_forget(args: z.infer<typeof S.forgetInput>, ctx: ToolContext) {
    visibleMemory(ctx, args.memory_id);
    return writeResult(await ctx.engine.forget(args, ctx.requester, ctx.asker));
  },

  memory_context(args: z.infer<typeof S.contextInput>, ctx: ToolContext): z.infer<typeof S.contextOutput> {
    return buildContextPack(ctx.store.db, allowedScopes(ctx.requester), {
      ...(args.budget_tokens ? { budgetTokens: args.budget_tokens } : {}),
      ...(args.query ? { query: args.query } : {}),
    });
  },
};

/**
 * Parameter schemas for `POST /api/<method>`: the HTTP boundary's own check before anything reaches
 * the service. They check shape and sane bounds; the write pipeline still does the precise
 * validation (trimmed lengths, scope syntax, secrets) and names its own field paths.
 */
import { z } from 'zod';
import { GRANTABLE_ORIGINS, KINDS, LIMITS, ORIGINS, type Origin } from '../core/vocabulary.js';
import type { ApiMethod, NuzoApi } from './contract.js';

// Generous outer bounds: the pipeline trims and enforces the real limits with its own messages.
const id = z.string().min(1).max(200);
const scope = z.string().min(1).max(300);
const content = z.string().max(LIMITS.contentMax * 4);
const tags = z.array(z.string().max(LIMITS.tagLengthMax * 4)).max(LIMITS.tagsMax * 4);
const kind = z.enum(KINDS);
const revision = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const isoDate = z.iso.datetime({ offset: true });
const path = z.string().min(1).max(4096);
// Listed literally for the type, and re-checked against the vocabulary's allowlist so that a
// narrowing there (never a widening) takes effect here too.
const grantable = z.enum(['user', 'agent', 'local_action']).refine((o: Origin) => GRANTABLE_ORIGINS.includes(o), {
  message: 'only user, agent and local_action may be covered by a grant; network and unknown always need a decision',
});

/** Methods that take no parameters accept `{}` (what the client sends) or nothing. */
const none = z.union([z.undefined(), z.null(), z.strictObject({})]).transform(() => undefined);

const draftEdits = {
  content: content.optional(),
  kind: kind.optional(),
  scope: scope.optional(),
  tags: tags.optional(),
};

type ParamsOf<M extends ApiMethod> = Parameters<NuzoApi[M]>[0];
type SchemaTable = { [M in ApiMethod]: z.ZodType<ParamsOf<M>, unknown> };

export const methodSchemas = {
  inbox: none,
  offer: z.strictObject({ offer_id: id }),
  decideOffer: z.strictObject({ offer_id: id, approve: z.boolean(), edits: z.strictObject(draftEdits).optional() }),

  searchMemories: z.strictObject({
    query: z.string().max(LIMITS.queryMax),
    scopes: z.array(scope).max(100).optional(),
    kinds: z.array(kind).max(KINDS.length).optional(),
    origins: z.array(z.enum(ORIGINS)).max(ORIGINS.length).optional(),
    tags: z.array(z.string().max(LIMITS.tagLengthMax * 4)).max(100).optional(),
    hosts: z.array(z.string().max(200)).max(100).optional(),
    state: z.enum(['live', 'deleted']).optional(),
    sort: z.enum(['relevance', 'created', 'updated']).optional(),
    limit: z.number().int().min(1).max(LIMITS.pageMax).optional(),
    cursor: z.string().min(1).max(1000).optional(),
  }),
  memory: z.strictObject({ memory_id: id }),
  facets: none,
  createMemory: z.strictObject({ content, kind: kind.optional(), scope: scope.optional(), tags: tags.optional() }),
  updateMemory: z.strictObject({ memory_id: id, expected_revision: revision, ...draftEdits }),
  forgetMemory: z.strictObject({ memory_id: id, expected_revision: revision }),
  restoreMemory: z.strictObject({ memory_id: id, expected_revision: revision }),
  restoreRevision: z.strictObject({ memory_id: id, revision, expected_revision: revision }),

  audit: z.strictObject({
    action: z.string().min(1).max(100).optional(),
    outcome: z.enum(['ok', 'refused', 'error', 'pending']).optional(),
    actor: z.string().min(1).max(200).optional(),
    before: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(500).optional(),
  }),
  connections: none,
  grants: none,
  createGrant: z.strictObject({
    host: z.string().min(1).max(200),
    scope,
    origins: z.array(grantable).min(1).max(GRANTABLE_ORIGINS.length),
    kinds: z.array(kind).min(1).max(KINDS.length),
    requires_attestation: z.boolean(),
    expires_at: isoDate.nullable(),
  }),
  revokeGrant: z.strictObject({ grant_id: id }),

  hostConfigs: none,
  writeHostConfig: z.strictObject({ host: z.enum(['claude-code', 'claude-desktop', 'cursor', 'vscode']) }),

  settings: none,
  setCapturePaused: z.strictObject({ paused: z.boolean() }),
  exportData: z.strictObject({ path: path.optional() }),
  importData: z.strictObject({ path }),
  backup: none,
} satisfies SchemaTable;

export function isApiMethod(name: string): name is ApiMethod {
  return Object.hasOwn(methodSchemas, name);
}

export interface ParamIssue {
  path: string;
  message: string;
}

/** Parses a method's params; returns the parsed value or the issues with dotted field paths. */
export function parseParams(method: ApiMethod, body: unknown): { ok: true; value: unknown } | { ok: false; issues: ParamIssue[] } {
  const schema: z.ZodType = methodSchemas[method];
  const result = schema.safeParse(body);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    issues: result.error.issues.slice(0, 20).map((issue) => ({ path: issue.path.map(String).join('.') || '(params)', message: issue.message })),
  };
}

import { z } from 'zod';
import { LIMITS } from '../core/vocabulary.js';
import { projectIdForDir } from '../core/project.js';
import { toNuzoError } from '../core/errors.js';
import type { Store } from '../store/store.js';
import type { ConsentEngine } from '../consent/engine.js';
import type { StoredRequester } from '../consent/offers.js';
import { buildContextPack } from '../mcp/context-pack.js';

/** Claude Code hook payloads; unknown fields are ignored, the ones used are typed. */
const postToolUse = z.looseObject({
  tool_name: z.string().max(256).optional(),
  tool_input: z.unknown().optional(),
  tool_response: z.unknown().optional(),
  session_id: z.string().max(256).optional(),
  cwd: z.string().max(4096).optional(),
});
const sessionStart = z.looseObject({ cwd: z.string().max(4096).optional(), session_id: z.string().max(256).optional() });

export type HookReply = { ok: true; text?: string; status?: string; offer_id?: string; memory_id?: string } | { ok: false; code: string; message: string };

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  const v = value as Record<string, unknown>;
  for (const key of ['output', 'stdout', 'content', 'result', 'text']) if (typeof v[key] === 'string') return v[key] as string;
  return JSON.stringify(value);
}

function stringField(value: unknown, key: string): string | undefined {
  if (value && typeof value === 'object' && typeof (value as Record<string, unknown>)[key] === 'string') return (value as Record<string, string>)[key];
  return undefined;
}

/**
 * `PostToolUse`: the tool's output becomes a pending draft. Its origin comes from `tool_name`
 * alone (the pipeline's classifier); nothing in the payload's text decides whether or how it is
 * captured. Pausing capture drops it without reading it.
 */
export function handlePostToolUse(store: Store, engine: ConsentEngine, payload: unknown, paused: boolean, host: string): HookReply {
  if (paused) return { ok: true, status: 'paused' };
  const parsed = postToolUse.safeParse(payload);
  if (!parsed.success) return { ok: false, code: 'validation_error', message: 'The hook payload is not a PostToolUse object.' };
  const p = parsed.data;
  const toolName = p.tool_name ?? '';
  const body = asText(p.tool_response).trim();
  if (body === '') return { ok: true, status: 'empty' };
  const content = `${toolName || 'unknown tool'} output:\n${body}`.slice(0, LIMITS.contentMax);
  const provenance: Record<string, string> = {};
  if (p.session_id) provenance['session'] = p.session_id;
  const url = stringField(p.tool_input, 'url');
  const file = stringField(p.tool_input, 'file_path');
  if (url) provenance['source_url'] = url.slice(0, 2048);
  if (file) provenance['source_file'] = file.slice(0, 2048);
  const requester: StoredRequester = {
    key: `hook:${host}`,
    actor: `hook:${host}`,
    channel: 'hook',
    toolName,
    host,
    hostVersion: null,
    projects: p.cwd ? [projectIdForDir(p.cwd)] : [],
    person: false,
  };
  try {
    const outcome = engine.propose({ content, kind: 'note', provenance }, requester);
    return outcome.status === 'written' ? { ok: true, status: 'written', memory_id: outcome.memory_id } : { ok: true, status: 'pending', offer_id: outcome.offer_id };
  } catch (error) {
    const e = toNuzoError(error);
    return { ok: false, code: e.code, message: e.message };
  }
}

/** `SessionStart`: the context pack for this project, untrusted memories fenced. */
export function handleSessionStart(store: Store, payload: unknown, budgetTokens = 1500): HookReply {
  const parsed = sessionStart.safeParse(payload ?? {});
  const cwd = parsed.success ? parsed.data.cwd : undefined;
  const scopes = ['user', ...(cwd ? [`project:${projectIdForDir(cwd)}`] : [])];
  const pack = buildContextPack(store.db, scopes, { budgetTokens, heading: 'Memories from Nuzo for this session' });
  return { ok: true, text: pack.text };
}

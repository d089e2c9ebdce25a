import { z } from 'zod';
import { NuzoError, toNuzoError } from '../core/errors.js';
import { ID_PATTERN } from '../core/ids.js';
import { ORIGINS, type ErrorCode, type Origin } from '../core/vocabulary.js';
import type { Store } from '../store/store.js';
import { personActing } from '../consent/proof.js';
import { executeWrite, setForgotten } from '../pipeline/pipeline.js';
import type { Requester } from '../pipeline/types.js';
import { summariseIssues, validationError } from '../pipeline/validate.js';

export const IMPORT_REQUESTER: Requester = { actor: 'import', channel: 'import', projects: [], person: true };

/** One line of the JSON Lines format (DESIGN §10); the fields of an export are accepted too. */
const revisionLine = z.object({
  revision: z.number().int().min(1),
  action: z.enum(['create', 'update', 'forget', 'restore']),
  content: z.string(),
  kind: z.string().optional(),
  scope: z.string().optional(),
  tags: z.array(z.string()).optional(),
  provenance: z.record(z.string(), z.unknown()).optional(),
  created_at: z.string().optional(),
  origin: z.string().optional(),
});

const importLine = z.looseObject({
  id: z.string().regex(ID_PATTERN).optional(),
  content: z.unknown(),
  kind: z.unknown().optional(),
  scope: z.unknown().optional(),
  tags: z.unknown().optional(),
  provenance: z.unknown().optional(),
  created_at: z.unknown().optional(),
  origin: z.unknown().optional(),
  forgotten: z.boolean().optional(),
  revisions: z.array(revisionLine).optional(),
});

export type LineOutcome =
  | { status: 'written'; id: string }
  | { status: 'duplicate'; duplicate_of: string | null }
  | { status: 'refused'; code: ErrorCode; message: string };

export interface ImportSummary {
  written: number;
  duplicate: number;
  refused: number;
  /** Refusals and duplicates with their line numbers (1-based), capped to keep the summary small. */
  problems: Array<{ line: number; status: 'duplicate' | 'refused'; code: ErrorCode; message: string }>;
}

const PROBLEMS_KEPT = 200;
const BATCH = 500;

function ms(iso: string | undefined): number | undefined {
  if (iso === undefined) return undefined;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : undefined;
}

/** Imports one parsed line: a plain memory, or an exported memory with its history replayed. */
export function importOne(store: Store, raw: unknown, requester: Requester = IMPORT_REQUESTER): LineOutcome {
  const parsed = importLine.safeParse(raw);
  if (!parsed.success) throw validationError(summariseIssues(parsed.error));
  const line = parsed.data;
  const consent = personActing();
  // An export says where each memory came from: a file may keep that trust low, never raise it
  // (the pipeline takes only a lower claim), so a network memory stays fenced after a restore.
  const keptOrigin = (origin: unknown): { source_origin?: Origin } =>
    typeof origin === 'string' && (ORIGINS as readonly string[]).includes(origin) ? { source_origin: origin as Origin } : {};

  if (!line.revisions || line.revisions.length === 0) {
    const memory = executeWrite(store, {
      content: line.content,
      kind: line.kind,
      scope: line.scope,
      tags: line.tags,
      provenance: line.provenance,
      created_at: line.created_at,
      ...keptOrigin(line.origin),
    }, requester, consent, { importId: line.id, skipSimilar: true });
    return { status: 'written', id: memory.id };
  }

  // An export line: replay each revision through the pipeline, all or nothing for this memory.
  return store.transaction(() => {
    const revisions = [...line.revisions!].sort((a, b) => a.revision - b.revision);
    let id: string | null = null;
    let revision = 0;
    for (const rev of revisions) {
      const now = ms(rev.created_at) ?? Date.now();
      if (rev.action === 'forget' || rev.action === 'restore') {
        if (id === null) throw new NuzoError('validation_error', 'revisions start with a create', { field: 'revisions' });
        revision = setForgotten(store, { memory_id: id, expected_revision: revision }, rev.action === 'forget', requester, consent, now).revision;
        continue;
      }
      const fields = { content: rev.content, kind: rev.kind, scope: rev.scope, tags: rev.tags, provenance: rev.provenance, ...keptOrigin(rev.origin) };
      const memory: { id: string; revision: number } =
        id === null
          ? executeWrite(store, { ...fields, created_at: typeof line.created_at === 'string' ? line.created_at : rev.created_at }, requester, consent, { now, importId: line.id, skipSimilar: true })
          : executeWrite(store, { ...fields, memory_id: id, expected_revision: revision }, requester, consent, { now, skipSimilar: true });
      id = memory.id;
      revision = memory.revision;
    }
    return { status: 'written', id: id! } as const;
  });
}

/**
 * Imports JSON Lines text. Every line is independent: a bad line is reported with its number and
 * never stops the rest. Work is done in batches with a yield between them, so a running service
 * keeps answering while a large file imports.
 */
export async function importJsonl(
  store: Store,
  lines: AsyncIterable<string> | Iterable<string>,
  onProgress: (done: number, summary: ImportSummary) => void = () => {},
  requester: Requester = IMPORT_REQUESTER,
  /** Lines already counted elsewhere (a file sent to the service in parts). */
  lineOffset = 0,
): Promise<ImportSummary> {
  const summary: ImportSummary = { written: 0, duplicate: 0, refused: 0, problems: [] };
  let lineNo = lineOffset;
  let batch: Array<{ no: number; text: string }> = [];

  const note = (no: number, status: 'duplicate' | 'refused', code: ErrorCode, message: string): void => {
    if (summary.problems.length < PROBLEMS_KEPT) summary.problems.push({ line: no, status, code, message });
  };
  const flush = (): void => {
    store.transaction(() => {
      for (const { no, text } of batch) {
        let raw: unknown;
        try {
          raw = JSON.parse(text);
        } catch {
          summary.refused++;
          note(no, 'refused', 'validation_error', 'not valid JSON');
          continue;
        }
        try {
          importOne(store, raw, requester);
          summary.written++;
        } catch (error) {
          const e = toNuzoError(error);
          if (e.code === 'duplicate') {
            summary.duplicate++;
            note(no, 'duplicate', e.code, e.message);
          } else {
            summary.refused++;
            note(no, 'refused', e.code, e.message);
          }
        }
      }
    });
    batch = [];
  };

  for await (const text of lines) {
    lineNo++;
    if (text.trim() === '') continue;
    batch.push({ no: lineNo, text });
    if (batch.length === BATCH) {
      flush();
      onProgress(lineNo, summary);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (batch.length) flush();
  onProgress(lineNo, summary);
  return summary;
}

import { z } from 'zod';
import { KINDS, LIMITS, ORIGINS } from '../core/vocabulary.js';
import { NuzoError } from '../core/errors.js';
import { ID_PATTERN } from '../core/ids.js';
import { redactText } from './secrets/scanner.js';
import type { CaptureInput, Requester } from './types.js';
import type { Provenance, Scope } from '../core/types.js';

export const SCOPE_PATTERN = /^(user|project:[a-z0-9][a-z0-9._-]{0,63})$/;

const provenanceValue = z.union([z.string().max(2048), z.number().finite(), z.boolean(), z.null()]);

export const provenanceSchema = z
  .record(z.string().min(1).max(64).regex(/^[A-Za-z0-9_.-]+$/, 'keys are letters, digits, _ . -'), provenanceValue)
  .refine((value) => JSON.stringify(value).length <= LIMITS.provenanceMaxBytes, {
    message: `provenance is larger than ${LIMITS.provenanceMaxBytes} bytes`,
  });

/** Tags are matched case-insensitively, so they are stored lower-case, trimmed and unique. */
const tagSchema = z
  .string()
  .transform((tag) => tag.trim().replace(/\s+/g, ' ').toLowerCase())
  .pipe(z.string().min(1, 'a tag cannot be empty').max(LIMITS.tagLengthMax, `a tag has at most ${LIMITS.tagLengthMax} characters`));

export const captureInputSchema = z.strictObject({
  content: z
    .string()
    .transform((text) => text.trim())
    .pipe(z.string().min(1, 'content is empty').max(LIMITS.contentMax, `content has at most ${LIMITS.contentMax} characters`)),
  kind: z.enum(KINDS).optional(),
  scope: z.string().regex(SCOPE_PATTERN, 'scope is "user" or "project:<id>"').optional(),
  tags: z
    .array(tagSchema)
    .max(LIMITS.tagsMax, `at most ${LIMITS.tagsMax} tags`)
    .transform((tags) => [...new Set(tags)])
    .optional(),
  provenance: provenanceSchema.optional(),
  memory_id: z.string().regex(ID_PATTERN, 'memory_id is a 26-character Nuzo id').optional(),
  expected_revision: z.number().int().min(1).optional(),
  source_origin: z.enum(ORIGINS).optional(),
  created_at: z.iso.datetime({ offset: true }).optional(),
});

export type ValidInput = z.output<typeof captureInputSchema>;

export interface IssueSummary {
  path: string;
  message: string;
}

/**
 * A path segment as it may be shown. Record keys are caller text: one that looks like a secret,
 * or is long, is shown by shape only, so an error never quotes a credential back.
 */
function pathSegment(segment: PropertyKey): string {
  const text = String(segment);
  if (typeof segment === 'number') return text;
  return text.length <= 64 && /^[A-Za-z0-9_.-]*$/.test(text) && redactText(text) === text ? text : '[key]';
}

/** Field paths and messages only: zod's messages here never quote the rejected value. */
export function summariseIssues(error: z.ZodError): IssueSummary[] {
  return error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(pathSegment).join('.') : '(input)',
    message: issue.message,
  }));
}

export function validationError(issues: IssueSummary[]): NuzoError {
  const listed = issues.slice(0, 5).map((i) => `${i.path}: ${i.message}`).join('; ');
  return new NuzoError('validation_error', `The input is not valid: ${listed}.`, { issues });
}

/** Stage 1. Throws `validation_error` with field paths. */
export function validateCapture(input: unknown): ValidInput {
  const parsed = captureInputSchema.safeParse(input);
  if (!parsed.success) throw validationError(summariseIssues(parsed.error));
  if (parsed.data.memory_id !== undefined && parsed.data.expected_revision === undefined) {
    throw validationError([{ path: 'expected_revision', message: 'an update names the revision it was based on (expected_revision)' }]);
  }
  return parsed.data;
}

export function defaultScope(requester: Requester): Scope {
  const project = requester.projects[0];
  return !requester.person && project ? `project:${project}` : 'user';
}

/** Channel facts win over caller claims for the keys the channel knows. */
export function mergeProvenance(claimed: Provenance | undefined, requester: Requester): Provenance {
  const facts: Provenance = { channel: requester.channel };
  if (requester.host) facts['host'] = requester.host;
  if (requester.toolName !== undefined) facts['tool'] = requester.toolName;
  return { ...(claimed ?? {}), ...facts };
}

export type { CaptureInput };

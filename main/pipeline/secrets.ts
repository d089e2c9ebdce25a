import { NuzoError } from '../core/errors.js';
import type { Provenance } from '../core/types.js';
import { redactText, scanFields } from './secrets/scanner.js';
import type { FieldFinding } from './types.js';

/** Stage 3: findings carry positions and redacted previews only. */
export function findSecrets(fields: { content: string; tags: string[]; provenance: Provenance }, rawTags: string[] = []): FieldFinding[] {
  const findings = scanFields(fields).map((f) => ({ field: f.field, rule: f.rule, start: f.start, end: f.end, preview: f.preview }));
  const seen = new Set(findings.map((f) => f.field));
  for (const f of scanFields({ content: '', tags: rawTags })) {
    if (!seen.has(f.field)) findings.push({ field: f.field, rule: f.rule, start: f.start, end: f.end, preview: f.preview });
  }
  return findings;
}

export function secretError(findings: FieldFinding[]): NuzoError {
  const first = findings[0]!;
  const more = findings.length > 1 ? ` and ${findings.length - 1} more` : '';
  return new NuzoError(
    'secret_detected',
    `This looks like a secret (${first.rule} in ${first.field} at characters ${first.start}–${first.end}${more}). Remove it or replace it with a placeholder; nothing was stored.`,
    { findings },
  );
}

/**
 * The fields of a draft that has findings, with every secret replaced. Such a draft can never be
 * written or become an offer, so what it carries is only ever shown: it shows where the secrets
 * were, never what they were. Tags are matched by the form they were given in, since
 * lower-casing can hide a case-sensitive token from the scanner.
 */
export function redactFields<T extends { content: string; tags: string[]; provenance: Provenance }>(fields: T, findings: FieldFinding[], rawTags: string[]): T {
  const flaggedTags = new Set(
    rawTags.filter((_, i) => findings.some((f) => f.field === `tags[${i}]`)).map((t) => t.trim().replace(/\s+/g, ' ').toLowerCase()),
  );
  const provenance: Provenance = {};
  let hidden = 0;
  for (const [key, value] of Object.entries(fields.provenance)) {
    const safeKey = redactText(key) === key ? key : `redacted_${++hidden}`;
    provenance[safeKey] = typeof value === 'string' ? redactText(value) : value;
  }
  return {
    ...fields,
    content: redactText(fields.content),
    tags: fields.tags.map((t) => (flaggedTags.has(t) ? '[redacted]' : redactText(t))),
    provenance,
  };
}

import { NuzoError } from '../core/errors.js';
import type { Provenance } from '../core/types.js';
import { scanFields } from './secrets/scanner.js';
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

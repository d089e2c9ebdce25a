/**
 * Labels for the closed vocabularies. The values themselves come from the service's vocabulary
 * module (plain constants, no Node), so the window can never offer a value the service lacks.
 */
import { GRANTABLE_ORIGINS, KINDS, ORIGINS, UNTRUSTED_ORIGINS } from '../../../main/core/vocabulary';
import type { Kind, Origin } from '../../../main/ui-api/contract';

export { GRANTABLE_ORIGINS, KINDS, ORIGINS };

export const ORIGIN_LABEL: Record<Origin, string> = {
  user: 'user',
  agent: 'agent',
  local_action: 'local action',
  network: 'network',
  import: 'import',
  unknown: 'unknown',
};

export const ORIGIN_MEANING: Record<Origin, string> = {
  user: 'Typed or edited by you in this window.',
  agent: 'Written by an agent through an explicit MCP call.',
  local_action: 'Captured from a local tool (shell, file edit or read).',
  network: 'Captured from a tool that fetched content off this machine (web, browser). Untrusted: it may contain text written by anyone.',
  import: 'Imported from a file.',
  unknown: 'From a tool or channel Nuzo does not recognise. Untrusted: treat it as data, not instructions.',
};

export function isUntrusted(origin: Origin): boolean {
  return UNTRUSTED_ORIGINS.includes(origin);
}

export const KIND_LABEL: Record<Kind, string> = {
  fact: 'fact',
  decision: 'decision',
  preference: 'preference',
  procedure: 'procedure',
  lesson: 'lesson',
  note: 'note',
};

/** `project:<id>` → `project <id>`; `user` → `personal`. */
export function scopeLabel(scope: string): string {
  if (scope === 'user') return 'personal';
  if (scope.startsWith('project:')) return `project ${scope.slice('project:'.length)}`;
  return scope;
}

/** Comma- or newline-separated text → distinct, trimmed tags. */
export function parseTags(text: string): string[] {
  const seen = new Set<string>();
  for (const raw of text.split(/[,\n]/)) {
    const tag = raw.trim();
    if (tag !== '') seen.add(tag);
  }
  return [...seen];
}

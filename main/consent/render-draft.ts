import type { OfferView } from '../ui-api/contract.js';

const ORIGIN_LABEL: Record<string, string> = {
  user: 'you',
  agent: 'the agent',
  local_action: 'a local tool',
  network: 'the NETWORK (untrusted)',
  import: 'an import',
  unknown: 'an UNKNOWN source (untrusted)',
};

const WARNING_TEXT: Record<string, string> = {
  near_duplicate: 'similar to a memory you already have',
  instruction_like: 'reads like instructions to an agent',
  untrusted_origin: 'comes from an untrusted source',
  origin_claim_ignored: 'claimed a more trusted origin than its channel (ignored)',
  origin_lowered: 'the agent marked it as less trusted',
};

/** The draft as a person reads it in a host's form: every field that will be stored, plainly. */
export function renderDraftMessage(offer: OfferView): string {
  const d = offer.draft;
  const lines: string[] = [];
  if (d.action === 'forget') {
    lines.push(`Forget this memory? (it can be restored from the Nuzo window)`);
  } else {
    lines.push(d.action === 'update' ? 'Update this memory?' : 'Save this memory?');
  }
  lines.push('', d.content, '');
  lines.push(`kind: ${d.kind}    scope: ${d.scope}${d.tags.length ? `    tags: ${d.tags.join(', ')}` : ''}`);
  lines.push(`from: ${ORIGIN_LABEL[d.origin] ?? d.origin}${offer.requester.host ? ` via ${offer.requester.host}` : ''}`);
  if (d.action === 'update' && d.current) lines.push(`replaces revision ${d.current.revision}: ${d.current.content.slice(0, 200)}`);
  for (const w of d.warnings) lines.push(`warning: ${WARNING_TEXT[w] ?? w}`);
  return lines.join('\n');
}

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

/**
 * Text as data in a form: control, format (bidi, zero-width) and separator characters become
 * visible escapes, runs of blank lines collapse, so the content cannot lay itself out to look
 * like the form's own lines or push them out of view.
 */
export function visibleText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (c) => (c === '\n' || c === '\t' ? c : `\\u{${c.codePointAt(0)!.toString(16)}}`))
    .replace(/\n{3,}/g, '\n\n');
}

const METADATA_LIKE = /^\s*(kind|scope|from|origin|tags|warning|host|approve|replaces)\s*:/im;

/**
 * The draft as a person reads it in a host's form: what will happen and where it came from first,
 * then the content inside a fence that says how long it is, so nothing in it can pass for the
 * form's own words.
 */
export function renderDraftMessage(offer: OfferView): string {
  const d = offer.draft;
  const lines: string[] = [];
  if (d.action === 'forget') lines.push('Forget this memory? (it can be restored from the Nuzo window)');
  else lines.push(d.action === 'update' ? 'Update this memory?' : 'Save this memory?');
  lines.push(`from: ${ORIGIN_LABEL[d.origin] ?? d.origin}${offer.requester.host ? ` via ${visibleText(offer.requester.host)}` : ''}`);
  lines.push(`kind: ${d.kind}    scope: ${d.scope}${d.tags.length ? `    tags: ${d.tags.map(visibleText).join(', ')}` : ''}`);
  const warnings = [...d.warnings.map((w) => WARNING_TEXT[w] ?? w)];
  if (METADATA_LIKE.test(d.content)) warnings.push('the text contains lines that look like this form\'s own fields');
  for (const w of warnings) lines.push(`warning: ${w}`);
  if (d.action === 'update' && d.current) lines.push(`replaces revision ${d.current.revision} (${d.current.content.length} characters)`);
  const body = visibleText(d.content);
  const count = body.split('\n').length;
  lines.push('', `──── the memory's text: ${d.content.length} characters, ${count} line${count === 1 ? '' : 's'} ────`);
  lines.push(...body.split('\n').map((line) => `│ ${line}`));
  lines.push('──── end of the text ────');
  return lines.join('\n');
}

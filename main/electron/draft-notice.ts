/**
 * The desktop notification for a new draft. It names who asks and the origin, never the memory
 * text: notifications show on lock screens and in shared-screen recordings.
 */
import type { OfferView } from '../ui-api/contract.js';

const ORIGIN_WORDS: Readonly<Record<string, string>> = {
  user: 'typed by you',
  agent: 'from the agent',
  local_action: 'from a local action',
  network: 'from the network — check it',
  import: 'imported',
  unknown: 'of unknown origin — check it',
};

const HOST_NAMES: Readonly<Record<string, string>> = {
  'claude-code': 'Claude Code',
  'claude-ai': 'Claude Desktop',
  'claude-desktop': 'Claude Desktop',
  cursor: 'Cursor',
  'cursor-vscode': 'Cursor',
  'Visual Studio Code': 'VS Code',
  vscode: 'VS Code',
};

export function draftNotice(offer: Pick<OfferView, 'tool' | 'requester' | 'draft'>): { title: string; body: string } {
  const host = offer.requester.host;
  const who = host ? (HOST_NAMES[host] ?? host.slice(0, 40)) : 'An agent';
  const action = offer.tool === 'memory_forget' || offer.draft.action === 'forget' ? 'wants to forget a memory' : offer.draft.action === 'update' ? `wants to change a ${offer.draft.kind}` : `wants to remember a ${offer.draft.kind}`;
  return { title: 'Nuzo — a draft is waiting', body: `${who} ${action} (${ORIGIN_WORDS[offer.draft.origin] ?? offer.draft.origin}). Click to review it.` };
}

/** Hooks can propose a draft after every tool call; one notification per this gap is plenty (the tray keeps counting). */
export const NOTICE_GAP_MS = 30_000;

export function noticeDue(lastShownAt: number, now: number, gapMs = NOTICE_GAP_MS): boolean {
  return now - lastShownAt >= gapMs;
}

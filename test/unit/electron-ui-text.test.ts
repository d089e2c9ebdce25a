/** Tray and window wording for the pending count, the draft notification, and the drawn icon. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { trayText } from '../../main/electron/tray-label.js';
import { draftNotice, noticeDue, NOTICE_GAP_MS } from '../../main/electron/draft-notice.js';
import { ACCENT, trayIconBitmap } from '../../main/electron/tray-icon.js';
import type { OfferView } from '../../main/ui-api/contract.js';

test('tray text follows the pending count', () => {
  assert.deepEqual(trayText(0), { tooltip: 'Nuzo — nothing waiting', title: '', windowTitle: 'Nuzo', inboxItem: 'Inbox' });
  assert.deepEqual(trayText(1), { tooltip: 'Nuzo — 1 waiting', title: '1', windowTitle: 'Nuzo — 1 waiting', inboxItem: 'Inbox (1)' });
  assert.deepEqual(trayText(3), { tooltip: 'Nuzo — 3 waiting', title: '3', windowTitle: 'Nuzo — 3 waiting', inboxItem: 'Inbox (3)' });
  assert.equal(trayText(250).title, '99+');
  assert.equal(trayText(250).tooltip, 'Nuzo — 250 waiting');
  assert.equal(trayText(3, true).tooltip, 'Nuzo — 3 waiting (capture paused)');
  for (const odd of [-1, Number.NaN, Number.POSITIVE_INFINITY]) assert.equal(trayText(odd).windowTitle, 'Nuzo');
});

const offer = (over: { host?: string | null; origin?: OfferView['draft']['origin']; action?: OfferView['draft']['action']; tool?: OfferView['tool'] }): Pick<OfferView, 'tool' | 'requester' | 'draft'> =>
  ({
    tool: over.tool ?? 'memory_confirm_capture',
    requester: { actor: 'bridge:1', host: over.host === undefined ? 'claude-code' : over.host, host_version: '1.0', projects: [] },
    draft: { action: over.action ?? 'create', content: 'SECRET PLAN: ship on friday', kind: 'decision', scope: 'user', tags: [], origin: over.origin ?? 'agent', provenance: {}, warnings: [], similar: [], current: null },
  }) as Pick<OfferView, 'tool' | 'requester' | 'draft'>;

test('the draft notification names who asks and the origin, never the text', () => {
  const n = draftNotice(offer({}));
  assert.deepEqual(n, { title: 'Nuzo — a draft is waiting', body: 'Claude Code wants to remember a decision (from the agent). Click to review it.' });
  assert.ok(!JSON.stringify(draftNotice(offer({ origin: 'network' }))).includes('SECRET'));
  assert.match(draftNotice(offer({ origin: 'network' })).body, /from the network — check it/);
  assert.match(draftNotice(offer({ host: null, origin: 'unknown' })).body, /^An agent wants .*unknown origin — check it/);
  assert.match(draftNotice(offer({ tool: 'memory_forget', action: 'forget' })).body, /wants to forget a memory/);
  assert.match(draftNotice(offer({ action: 'update', host: 'some-new-host' })).body, /^some-new-host wants to change a decision/);
});

test('the tray icon is a square BGRA bitmap with transparent corners and an opaque ring', () => {
  const size = 32;
  const px = trayIconBitmap(size, ACCENT);
  assert.equal(px.length, size * size * 4);
  assert.equal(px[3], 0, 'corner is transparent');
  const edge = (Math.floor(size / 2) * size + 1) * 4; // left middle, on the ring
  assert.equal(px[edge + 3], 255);
  assert.deepEqual([px[edge + 2], px[edge + 1], px[edge]], [ACCENT.r, ACCENT.g, ACCENT.b]);
});

test('notifications are spaced out; the first one is always due', () => {
  assert.equal(noticeDue(Number.NEGATIVE_INFINITY, 0), true);
  assert.equal(noticeDue(1_000, 1_000 + NOTICE_GAP_MS - 1), false);
  assert.equal(noticeDue(1_000, 1_000 + NOTICE_GAP_MS), true);
});

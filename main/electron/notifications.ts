/** A desktop notification per new draft; clicking it opens the inbox. */
import { Notification } from 'electron';
import type { OfferView } from '../ui-api/contract.js';
import { draftNotice } from './draft-notice.js';

// Held until closed: a garbage-collected Notification loses its click handler.
const live = new Set<Notification>();

export function notifyDraft(offer: OfferView, onClick: () => void): void {
  if (!Notification.isSupported()) return;
  const { title, body } = draftNotice(offer);
  const notification = new Notification({ title, body, silent: false });
  live.add(notification);
  notification.on('click', () => {
    live.delete(notification);
    onClick();
  });
  notification.on('close', () => live.delete(notification));
  notification.show();
}

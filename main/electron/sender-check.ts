/**
 * Who may call the API over IPC: only the top frame of our own window, showing our own page.
 * A frame's URL and identity come from the main process's view (event.senderFrame), never from
 * anything the renderer says about itself.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'nuzo';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** Our page: app://nuzo/…, no credentials, no port. */
export function isAppUrl(url: string | null | undefined): boolean {
  if (typeof url !== 'string' || url === '') return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
}

export interface SenderFacts {
  /** event.senderFrame?.url (null when the frame is gone). */
  frameUrl: string | null | undefined;
  /** event.senderFrame is its webContents' main frame (not an iframe). */
  isTopFrame: boolean;
  /** event.sender.id */
  senderId: number;
  /** Our window's webContents.id, or null when there is no window. */
  windowId: number | null;
}

export function senderAllowed(facts: SenderFacts): boolean {
  return facts.windowId !== null && facts.senderId === facts.windowId && facts.isTopFrame && isAppUrl(facts.frameUrl);
}

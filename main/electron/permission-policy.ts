/**
 * Chromium permissions for the window: none, with one reasoned exception. The Connect screen's
 * "Copy" buttons use navigator.clipboard.writeText, which Electron gates as
 * `clipboard-sanitized-write`: write-only, sanitised, our own top-level page only. Reading the
 * clipboard, camera, notifications from the page, geolocation, … are all refused.
 */
import { isAppUrl } from './sender-check.js';

export function permissionAllowed(permission: string, requestingUrl: string | null | undefined, isMainFrame: boolean): boolean {
  return permission === 'clipboard-sanitized-write' && isMainFrame && isAppUrl(requestingUrl);
}

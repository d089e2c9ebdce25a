/**
 * Rules for every web contents the app ever creates: no navigation away from our page, no new
 * windows, no webviews, no permissions (one exception, permission-policy.ts). Allowed web links
 * open in the person's browser instead.
 */
import { app, session, shell, type WebContents } from 'electron';
import { externalLinkAllowed } from './link-policy.js';
import { permissionAllowed } from './permission-policy.js';

function openOutside(url: string, log: (line: string) => void): void {
  if (externalLinkAllowed(url)) void shell.openExternal(url);
  else log(`nuzo: blocked a link the window tried to open (${url.slice(0, 80)})`);
}

function harden(contents: WebContents, log: (line: string) => void): void {
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    openOutside(url, log);
  });
  // Sub-frames too (will-navigate covers the main frame only). In-page hash routes fire neither.
  contents.on('will-frame-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url, log);
    return { action: 'deny' };
  });
}

/** Call once, after ready. */
export function hardenApp(log: (line: string) => void): void {
  app.on('web-contents-created', (_event, contents) => harden(contents, log));
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, permission, callback, details) => callback(permissionAllowed(permission, details.requestingUrl, details.isMainFrame)));
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) => permissionAllowed(permission, details.requestingUrl ?? requestingOrigin, details.isMainFrame));
  ses.setDevicePermissionHandler(() => false);
}

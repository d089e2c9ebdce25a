/** The one window: sandboxed, isolated, no Node, our page only; hides to the tray on close. */
import { BrowserWindow, nativeImage } from 'electron';
import { APP_ORIGIN } from './sender-check.js';
import { ACCENT, trayIconBitmap } from './tray-icon.js';

export const INBOX_URL = `${APP_ORIGIN}/index.html#/inbox`;

export interface WindowOptions {
  preload: string;
  title: string;
  /** Closing hides the window unless the app is quitting. */
  quitting: () => boolean;
}

export function createMainWindow(options: WindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1120,
    height: 760,
    minWidth: 640,
    minHeight: 420,
    show: false,
    title: options.title,
    icon: nativeImage.createFromBitmap(trayIconBitmap(64, ACCENT), { width: 64, height: 64 }),
    autoHideMenuBar: true,
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: true,
    },
  });
  // The title carries the pending count (tray-label.ts); the page may not replace it.
  win.on('page-title-updated', (event) => event.preventDefault());
  win.on('close', (event) => {
    if (options.quitting()) return;
    event.preventDefault();
    win.hide();
  });
  void win.loadURL(INBOX_URL);
  return win;
}

export function showWindow(win: BrowserWindow): void {
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}

/** Switches to the inbox without reloading the page (its routes are hash routes). */
export function showInbox(win: BrowserWindow): void {
  showWindow(win);
  void win.webContents.executeJavaScript("location.hash = '#/inbox'", false).catch(() => undefined);
}

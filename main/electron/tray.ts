/** The tray icon and its menu: pending count, inbox, pause capture, start at login, quit. */
import { Menu, nativeImage, Tray } from 'electron';
import { trayText } from './tray-label.js';
import { ACCENT, TEMPLATE_BLACK, trayIconBitmap } from './tray-icon.js';

export interface TrayActions {
  open(): void;
  openInbox(): void;
  setCapturePaused(paused: boolean): void;
  setStartAtLogin(enabled: boolean): void;
  quit(): void;
}

export interface TrayState {
  pending: number;
  capturePaused: boolean;
  /** null where start at login is not offered. */
  startAtLogin: boolean | null;
}

function icon(): Electron.NativeImage {
  const mac = process.platform === 'darwin';
  const size = mac ? 16 : 32;
  const image = nativeImage.createFromBitmap(trayIconBitmap(size, mac ? TEMPLATE_BLACK : ACCENT), { width: size, height: size });
  // A template image is tinted by macOS for light and dark menu bars.
  if (mac) image.setTemplateImage(true);
  return image;
}

export class NuzoTray {
  private readonly tray: Tray;

  constructor(private readonly actions: TrayActions) {
    this.tray = new Tray(icon());
    // Linux and Windows: a click opens the window and the menu is on right-click; on macOS a
    // click opens the menu.
    if (process.platform !== 'darwin') this.tray.on('click', () => actions.open());
  }

  update(state: TrayState): void {
    const text = trayText(state.pending, state.capturePaused);
    this.tray.setToolTip(text.tooltip);
    if (process.platform === 'darwin') this.tray.setTitle(text.title);
    const login: Electron.MenuItemConstructorOptions[] =
      state.startAtLogin === null ? [] : [{ label: 'Start at login', type: 'checkbox', checked: state.startAtLogin, click: (item) => this.actions.setStartAtLogin(item.checked) }];
    this.tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Open Nuzo', click: () => this.actions.open() },
        { label: text.inboxItem, click: () => this.actions.openInbox() },
        { type: 'separator' },
        { label: 'Pause capture', type: 'checkbox', checked: state.capturePaused, click: (item) => this.actions.setCapturePaused(item.checked) },
        ...login,
        { type: 'separator' },
        { label: 'Quit Nuzo', click: () => this.actions.quit() },
      ]),
    );
  }

  destroy(): void {
    this.tray.destroy();
  }
}

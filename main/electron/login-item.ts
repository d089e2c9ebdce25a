/** Start at login: the OS login items on macOS and Windows, an XDG autostart file on Linux. */
import { app } from 'electron';
import { homedir } from 'node:os';
import { autostartPath, linuxAutostartEnabled, setLinuxAutostart, type AutostartTarget } from './autostart.js';
import { HIDDEN_FLAG } from './startup-policy.js';

const target = (): AutostartTarget => ({ execPath: process.execPath, appImage: process.env['APPIMAGE'], isPackaged: app.isPackaged, appPath: app.getAppPath() });
const linuxFile = (): string => autostartPath(homedir(), process.env);

/** null where it is not offered (other Unixes). */
export function startAtLoginEnabled(): boolean | null {
  if (process.platform === 'linux') return linuxAutostartEnabled(linuxFile());
  if (process.platform === 'darwin' || process.platform === 'win32') return app.getLoginItemSettings().openAtLogin;
  return null;
}

export function setStartAtLogin(enabled: boolean): void {
  if (process.platform === 'linux') setLinuxAutostart(linuxFile(), enabled, target());
  // Windows passes args to the login item; macOS reports wasOpenedAtLogin instead.
  else app.setLoginItemSettings({ openAtLogin: enabled, args: [HIDDEN_FLAG] });
}

export function openedAtLogin(): boolean {
  return process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin;
}

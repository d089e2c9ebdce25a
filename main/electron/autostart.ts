/**
 * Start at login on Linux: an XDG autostart entry in ~/.config/autostart/. (macOS and Windows use
 * app.setLoginItemSettings in login-item.ts.) Pure text and file work, no electron, so the exact
 * file content is unit-tested.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HIDDEN_FLAG } from './startup-policy.js';

export const AUTOSTART_FILE_NAME = 'nuzo.desktop';

export interface AutostartTarget {
  execPath: string;
  /** $APPIMAGE: the AppImage file itself; execPath would point into its per-launch mount. */
  appImage?: string | undefined;
  isPackaged: boolean;
  /** The app folder an unpackaged Electron needs as its first argument. */
  appPath: string;
}

export function autostartArgv(target: AutostartTarget): string[] {
  if (target.appImage !== undefined && target.appImage.trim() !== '') return [target.appImage, HIDDEN_FLAG];
  return target.isPackaged ? [target.execPath, HIDDEN_FLAG] : [target.execPath, target.appPath, HIDDEN_FLAG];
}

const RESERVED = /[ \t"'\\><~|&;$*?#()`]/;

/**
 * One Exec= argument, per the Desktop Entry spec: reserved characters force double quotes, in
 * which " ` $ \ are backslash-escaped; then the string-level escaping doubles every backslash;
 * a literal % is written %%.
 */
export function desktopExecArg(arg: string): string {
  if (/[\n\r]/.test(arg)) throw new Error('an autostart command cannot contain a line break');
  const percent = arg.replaceAll('%', '%%');
  if (!RESERVED.test(arg)) return percent;
  const quoted = percent.replace(/["`$\\]/g, '\\$&').replaceAll('\\', '\\\\');
  return `"${quoted}"`;
}

export function autostartEntry(target: AutostartTarget): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.0',
    'Name=Nuzo',
    'Comment=Local-first memory for AI agents',
    `Exec=${autostartArgv(target).map(desktopExecArg).join(' ')}`,
    'Icon=nuzo',
    'Terminal=false',
    'Categories=Utility;',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

export function autostartPath(home: string, env: NodeJS.ProcessEnv): string {
  const config = env['XDG_CONFIG_HOME'];
  return join(config !== undefined && config.trim() !== '' ? config : join(home, '.config'), 'autostart', AUTOSTART_FILE_NAME);
}

export function linuxAutostartEnabled(file: string): boolean {
  return existsSync(file);
}

export function setLinuxAutostart(file: string, enabled: boolean, target: AutostartTarget): void {
  if (!enabled) {
    rmSync(file, { force: true });
    return;
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.tmp-${process.pid}`;
  writeFileSync(temp, autostartEntry(target), { mode: 0o644 });
  renameSync(temp, file);
}

import { homedir } from 'node:os';
import { join } from 'node:path';

/** The data folder: `NUZO_HOME` when set, else the platform's per-user application data folder. */
export function dataHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const override = env['NUZO_HOME'];
  if (override && override.trim() !== '') return override;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Nuzo');
  if (platform === 'win32') return join(env['APPDATA'] ?? join(homedir(), 'AppData', 'Roaming'), 'Nuzo');
  return join(env['XDG_CONFIG_HOME'] ?? join(homedir(), '.config'), 'Nuzo');
}

export function databasePath(home: string): string {
  return join(home, 'nuzo.sqlite');
}

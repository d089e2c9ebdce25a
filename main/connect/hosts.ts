/** Where each MCP host keeps its user-level configuration, per platform (DESIGN §10). */
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';
import type { ConnectOptions, HostId } from './types.js';

export const HOST_IDS = ['claude-code', 'claude-desktop', 'cursor', 'vscode'] as const satisfies readonly HostId[];

export const HOST_LABELS: Readonly<Record<HostId, string>> = {
  'claude-code': 'Claude Code',
  'claude-desktop': 'Claude Desktop',
  cursor: 'Cursor',
  vscode: 'VS Code',
};

export function isHostId(value: string): value is HostId {
  return (HOST_IDS as readonly string[]).includes(value);
}

export interface HostPaths {
  /** The file holding the MCP server entry. */
  config: string;
  /** Claude Code only: the settings file holding the hooks. */
  hooks: string | null;
  /** A folder whose presence means the host has run on this machine. */
  marker: string;
}

export interface ResolvedEnv {
  home: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
}

export function resolveEnv(options: ConnectOptions = {}): ResolvedEnv {
  return { home: options.home ?? homedir(), platform: options.platform ?? process.platform, env: options.env ?? process.env };
}

const nonEmpty = (value: string | undefined): string | null => (value !== undefined && value.trim() !== '' ? value : null);

/** The per-user application data folder the host's own framework uses (Electron's appData). */
function appData({ home, platform, env }: ResolvedEnv): string {
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support');
  if (platform === 'win32') return nonEmpty(env['APPDATA']) ?? win32.join(home, 'AppData', 'Roaming');
  return nonEmpty(env['XDG_CONFIG_HOME']) ?? posix.join(home, '.config');
}

export function hostPaths(host: HostId, resolved: ResolvedEnv): HostPaths {
  // Paths for another platform are built with that platform's separators, so tests on Linux
  // can check the Windows locations too.
  const path = resolved.platform === 'win32' ? win32 : posix;
  const { home, env } = resolved;
  switch (host) {
    case 'claude-code': {
      // CLAUDE_CONFIG_DIR moves both the settings folder and .claude.json.
      const configDir = nonEmpty(env['CLAUDE_CONFIG_DIR']);
      const settingsDir = configDir ?? path.join(home, '.claude');
      return {
        config: configDir ? path.join(configDir, '.claude.json') : path.join(home, '.claude.json'),
        hooks: path.join(settingsDir, 'settings.json'),
        marker: settingsDir,
      };
    }
    case 'claude-desktop': {
      const dir = path.join(appData(resolved), 'Claude');
      return { config: path.join(dir, 'claude_desktop_config.json'), hooks: null, marker: dir };
    }
    case 'cursor': {
      const dir = path.join(home, '.cursor');
      return { config: path.join(dir, 'mcp.json'), hooks: null, marker: dir };
    }
    case 'vscode': {
      const dir = path.join(appData(resolved), 'Code', 'User');
      return { config: path.join(dir, 'mcp.json'), hooks: null, marker: dir };
    }
  }
}

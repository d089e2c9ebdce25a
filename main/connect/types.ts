import type { HostId } from '../ui-api/contract.js';

export type { HostId };

/** How a host starts the bridge: an executable, its arguments and extra environment. */
export interface BridgeCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * Everything the connect code reads from the machine, injectable so tests never touch the real
 * home folder and can ask for another platform's paths.
 */
export interface ConnectOptions {
  home?: string;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** Defaults to this Node running the built bridge (dist/bridge/nuzo-bridge.js). */
  bridge?: BridgeCommand;
  now?: () => Date;
}

export interface FileWriteResult {
  path: string;
  /** The copy made before changing an existing file; null when nothing changed or it was new. */
  backup: string | null;
  changed: boolean;
}

export interface HostWriteResult {
  host: HostId;
  /** The host's main config first; Claude Code also has its hooks file. */
  files: FileWriteResult[];
}

/**
 * The command line hosts run to reach Nuzo. Two shapes: plain Node running the built bridge
 * (development, `npm install -g`), and the packaged app's own executable running the bundled
 * bridge as Node (ELECTRON_RUN_AS_NODE=1), so users need no Node of their own. The Electron shell
 * computes the second and passes it in; nothing here imports electron.
 */
import { fileURLToPath } from 'node:url';
import type { BridgeCommand } from './types.js';

/** Where extraResources puts the bundle, relative to the app's resources folder. */
export const BUNDLED_BRIDGE_RESOURCE = ['bridge', 'nuzo-bridge.cjs'] as const;

/** dist/bridge/nuzo-bridge.js, found from this compiled file (dist/main/connect/). */
export function builtBridgeScript(): string {
  return fileURLToPath(new URL('../../bridge/nuzo-bridge.js', import.meta.url));
}

/** Passes NUZO_HOME on to the bridge when it was set explicitly: it must reach the same service. */
function homeEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const home = env['NUZO_HOME'];
  return home !== undefined && home.trim() !== '' ? { NUZO_HOME: home } : {};
}

export function nodeBridgeCommand(options: { execPath?: string; script?: string; env?: NodeJS.ProcessEnv } = {}): BridgeCommand {
  return {
    command: options.execPath ?? process.execPath,
    args: [options.script ?? builtBridgeScript()],
    env: homeEnv(options.env ?? process.env),
  };
}

export interface AppBridgeOptions {
  /** The app's executable (on Linux AppImage builds: $APPIMAGE, the mount path changes per launch). */
  executable: string;
  /** The bundled bridge, at a path that outlives this launch. */
  script: string;
  /** A command line the bridge's shell can run to start the app when it is not running. */
  appCommand?: string;
  env?: NodeJS.ProcessEnv;
}

export function appBridgeCommand(options: AppBridgeOptions): BridgeCommand {
  return {
    command: options.executable,
    args: [options.script],
    env: {
      // Makes the app binary behave as plain Node; needs the runAsNode fuse (electron-builder.yml).
      ELECTRON_RUN_AS_NODE: '1',
      ...(options.appCommand ? { NUZO_APP_COMMAND: options.appCommand } : {}),
      ...homeEnv(options.env ?? process.env),
    },
  };
}

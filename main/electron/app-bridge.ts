/**
 * The bridge command the desktop app writes into hosts' configs: the app's own executable run
 * as Node (ELECTRON_RUN_AS_NODE=1) on the bundled bridge, plus a command line that starts the
 * app when the bridge finds it not running. Pure decisions plus one file copy; no electron.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { appBridgeCommand, BUNDLED_BRIDGE_RESOURCE } from '../connect/bridge-command.js';
import type { BridgeCommand } from '../connect/types.js';
import { HIDDEN_FLAG } from './startup-policy.js';

export interface AppFacts {
  isPackaged: boolean;
  execPath: string;
  resourcesPath: string;
  /** The unpackaged app folder (development). */
  appPath: string;
  /** $APPIMAGE when running from an AppImage. */
  appImage: string | undefined;
  /** A folder that outlives this launch (under the data folder) for the AppImage's bridge copy. */
  stableDir: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
}

export interface AppBridgePlan {
  bridge: BridgeCommand;
  /** Copy this file to bridge.args[0] before use (AppImage: its mount path changes every launch). */
  copyFrom: string | null;
}

const posixQuote = (w: string): string => (/^[A-Za-z0-9_./:@%+=,-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`);

/**
 * How the bridge (run through a shell) starts the app. The bridge inherits ELECTRON_RUN_AS_NODE=1
 * from its host entry; the app must not, or it would start as plain Node.
 */
export function appStartCommand(argv: readonly string[], platform: NodeJS.Platform): string {
  if (platform === 'win32') return `set "ELECTRON_RUN_AS_NODE=" && ${argv.map((a) => `"${a}"`).join(' ')}`;
  return `env -u ELECTRON_RUN_AS_NODE ${argv.map(posixQuote).join(' ')}`;
}

export function planAppBridge(f: AppFacts): AppBridgePlan {
  const appImage = f.appImage !== undefined && f.appImage.trim() !== '' ? f.appImage : null;
  const executable = appImage ?? f.execPath;
  const startArgv = f.isPackaged || appImage ? [executable, HIDDEN_FLAG] : [executable, f.appPath, HIDDEN_FLAG];
  let script: string;
  let copyFrom: string | null = null;
  if (f.isPackaged) {
    const bundled = join(f.resourcesPath, ...BUNDLED_BRIDGE_RESOURCE);
    if (appImage) {
      copyFrom = bundled;
      script = join(f.stableDir, 'nuzo-bridge.cjs');
    } else {
      script = bundled;
    }
  } else {
    const bundle = join(f.appPath, 'dist', 'bridge-bundle', 'nuzo-bridge.cjs');
    script = existsSync(bundle) ? bundle : join(f.appPath, 'dist', 'bridge', 'nuzo-bridge.js');
  }
  return { bridge: appBridgeCommand({ executable, script, appCommand: appStartCommand(startArgv, f.platform), env: f.env }), copyFrom };
}

/** Puts the bridge where the plan says, rewriting it only when the content differs. */
export function installBridgeCopy(plan: AppBridgePlan): void {
  const target = plan.bridge.args[0];
  if (plan.copyFrom === null || target === undefined) return;
  const wanted = readFileSync(plan.copyFrom);
  if (existsSync(target) && readFileSync(target).equals(wanted)) return;
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  const temp = `${target}.tmp-${process.pid}`;
  copyFileSync(plan.copyFrom, temp);
  renameSync(temp, target);
}

/**
 * What `npm start` runs (scripts/start.mjs): the desktop app when an Electron binary, a display
 * and an Electron build of better-sqlite3 are all here, else the headless service with the
 * window on loopback, saying in one line why. Finds Electron without importing `electron`
 * (that would try to download it).
 */
import { join } from 'node:path';

export type LaunchPlan = { kind: 'electron'; binary: string } | { kind: 'headless'; reason: string };

export interface LaunchFacts {
  root: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  isExecutable(path: string): boolean;
  readText(path: string): string | null;
  /** An Electron-ABI better-sqlite3 is staged for the app (scripts/package-native.mjs --dev). */
  nativeStaged: boolean;
}

const HEADLESS = 'running the headless service with the window at the URL below';

/** The binary the electron package would have installed, from its path.txt or the platform default. */
export function installedElectron(facts: Pick<LaunchFacts, 'root' | 'platform' | 'readText'>): string {
  const dist = join(facts.root, 'node_modules', 'electron', 'dist');
  const recorded = facts.readText(join(facts.root, 'node_modules', 'electron', 'path.txt'))?.trim();
  if (recorded) return join(dist, recorded);
  if (facts.platform === 'darwin') return join(dist, 'Electron.app', 'Contents', 'MacOS', 'Electron');
  return join(dist, facts.platform === 'win32' ? 'electron.exe' : 'electron');
}

export function hasDisplay(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean {
  if (platform !== 'linux' && platform !== 'freebsd' && platform !== 'openbsd') return true;
  return Boolean(env['DISPLAY'] || env['WAYLAND_DISPLAY']);
}

export function planLaunch(facts: LaunchFacts): LaunchPlan {
  const fromEnv = facts.env['ELECTRON_PATH'];
  let binary: string;
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    if (!facts.isExecutable(fromEnv)) return { kind: 'headless', reason: `nuzo: ELECTRON_PATH (${fromEnv}) is not an executable file — ${HEADLESS}` };
    binary = fromEnv;
  } else {
    binary = installedElectron(facts);
    if (!facts.isExecutable(binary)) return { kind: 'headless', reason: `nuzo: no Electron binary here (set ELECTRON_PATH) — ${HEADLESS}` };
  }
  if (!hasDisplay(facts.platform, facts.env)) return { kind: 'headless', reason: `nuzo: no display (DISPLAY and WAYLAND_DISPLAY are unset) — ${HEADLESS}` };
  if (!facts.nativeStaged) {
    return { kind: 'headless', reason: `nuzo: better-sqlite3 is not built for Electron here (run \`node scripts/package-native.mjs --dev\` once; it needs the internet) — ${HEADLESS}` };
  }
  return { kind: 'electron', binary };
}

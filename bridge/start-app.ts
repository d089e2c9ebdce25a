/**
 * Starting the Nuzo service when a bridge finds nothing listening. The started process outlives
 * the bridge (detached, unref'd): it is the user's service now, shared by every host.
 */
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NuzoError } from '../main/core/errors.js';
import type { Log } from './bridge-log.js';

export interface LaunchCommand {
  /** An executable, or with `shell` a whole command line. */
  file: string;
  args: string[];
  shell: boolean;
  /** How the command is named in messages and in the service log. */
  label: string;
}

/** Past this size the log is moved aside once, so it never grows without end. */
const LOG_ROTATE_BYTES = 5 * 1024 * 1024;

/**
 * What to run, in order of preference:
 * 1. `NUZO_APP_COMMAND`, a command line run by the shell (packaging and tests set it);
 * 2. the headless service next to this bridge: `<node> <repo>/dist/main/cli/nuzo.js serve`.
 * The desktop app (where installed and a display exists) belongs between the two: add it here.
 */
export function appLaunchCommand(env: NodeJS.ProcessEnv = process.env): LaunchCommand {
  const custom = env['NUZO_APP_COMMAND'];
  if (custom !== undefined && custom.trim() !== '') {
    return { file: custom, args: [], shell: true, label: custom };
  }
  const cli = fileURLToPath(new URL('../main/cli/nuzo.js', import.meta.url));
  if (!existsSync(cli)) {
    throw new NuzoError('app_unavailable', `the Nuzo service was not found at ${cli}`, { path: cli });
  }
  return { file: process.execPath, args: [cli, 'serve'], shell: false, label: 'nuzo serve' };
}

export function serviceLogPath(home: string): string {
  return join(home, 'logs', 'service.log');
}

/** The service log, private to this user, opened for appending. */
function openServiceLog(home: string): number {
  const dir = join(home, 'logs');
  // The data folder itself may not exist yet: the service would create it 0700 as well.
  mkdirSync(home, { recursive: true, mode: 0o700 });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(dir, 0o700);
  const file = serviceLogPath(home);
  try {
    if (statSync(file).size > LOG_ROTATE_BYTES) renameSync(file, `${file}.1`);
  } catch {
    // no log yet
  }
  const fd = openSync(file, 'a', 0o600);
  if (process.platform !== 'win32') chmodSync(file, 0o600);
  return fd;
}

export interface Launched {
  label: string;
  logPath: string;
  /** Set once the started process has exited (a launcher may exit 0 at once, by design). */
  exit: { code: number | null; signal: string | null; at: number } | null;
  /** Set when the command could not be run at all. */
  spawnError: string | null;
}

/**
 * Runs the launch command detached, stdin and stdout ignored, stderr appended to the service
 * log. Throws a NuzoError (code `app_unavailable`, a short reason as message) when there is
 * nothing to run or the log cannot be opened.
 */
export function launchApp(home: string, log: Log, env: NodeJS.ProcessEnv = process.env): Launched {
  const command = appLaunchCommand(env);
  const logPath = serviceLogPath(home);
  let fd: number;
  try {
    fd = openServiceLog(home);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new NuzoError('app_unavailable', `cannot open its log ${logPath} (${code})`, { path: logPath });
  }
  const launched: Launched = { label: command.label, logPath, exit: null, spawnError: null };
  try {
    writeSync(fd, `--- ${new Date().toISOString()} nuzo-bridge (pid ${process.pid}) starts: ${command.label}\n`);
    const child = spawn(command.file, command.args, {
      cwd: home,
      env,
      detached: true,
      shell: command.shell,
      stdio: ['ignore', 'ignore', fd],
      windowsHide: true,
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      launched.spawnError = `cannot run ${command.label} (${error.code ?? error.message})`;
    });
    child.once('exit', (code, signal) => {
      launched.exit = { code, signal, at: Date.now() };
    });
    child.unref();
    log(`Nuzo is not running; starting it (${command.label}, pid ${child.pid ?? '?'}), log in ${logPath}`);
  } finally {
    // The child holds its own copy of the descriptor.
    closeSync(fd);
  }
  return launched;
}

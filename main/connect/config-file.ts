/**
 * Reading and replacing a host's config file without ever leaving it half-written or losing the
 * previous version: back up first, write a temp file beside it, rename over. The file keeps its
 * permission bits (these files can hold API keys); new files are 0600 in 0700 folders.
 */
import { chmodSync, closeSync, constants, copyFileSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';

export interface ConfigText {
  /** The path as named (what a person recognises). */
  path: string;
  /** The file actually written: a symlinked config (dotfiles repos) is edited where it lives. */
  target: string;
  exists: boolean;
  /** Without a byte-order mark; `bom` says whether to put it back. */
  text: string;
  bom: boolean;
  mode: number;
}

export const NEW_FILE_MODE = 0o600;
const DIR_MODE = 0o700;

function targetOf(path: string): string {
  try {
    return lstatSync(path).isSymbolicLink() ? realpathSync(path) : path;
  } catch {
    return path;
  }
}

export function readConfig(path: string): ConfigText {
  const target = targetOf(path);
  let raw: string;
  let mode = NEW_FILE_MODE;
  try {
    raw = readFileSync(target, 'utf8');
    mode = statSync(target).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, target, exists: false, text: '', bom: false, mode };
    throw error;
  }
  const bom = raw.startsWith('\uFEFF');
  return { path, target, exists: true, text: bom ? raw.slice(1) : raw, bom, mode };
}

/** `<file>.nuzo-backup-<timestamp>`, never overwriting an earlier backup. */
export function backupConfig(config: ConfigText, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  for (let n = 0; ; n++) {
    const backup = `${config.target}.nuzo-backup-${stamp}${n === 0 ? '' : `-${n}`}`;
    try {
      copyFileSync(config.target, backup, constants.COPYFILE_EXCL);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && n < 100) continue;
      throw error;
    }
    chmodSync(backup, config.mode);
    return backup;
  }
}

/** Temp file in the same folder (same filesystem, so the rename is atomic), fsync, rename. */
export function writeConfigAtomically(config: ConfigText, text: string): void {
  mkdirSync(dirname(config.target), { recursive: true, mode: DIR_MODE });
  const temp = `${config.target}.nuzo-tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const fd = openSync(temp, 'wx', config.mode);
  try {
    writeSync(fd, (config.bom ? '\uFEFF' : '') + text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    // The umask may have narrowed the mode at creation; set exactly what the file had.
    chmodSync(temp, config.mode);
    renameSync(temp, config.target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

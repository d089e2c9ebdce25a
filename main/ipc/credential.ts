/**
 * The IPC credential: 32 random bytes, fresh at each server start, in a file only this user can
 * read. Reading it is how a client shows it runs as the app's user. Node builtins only: the bridge
 * imports this file.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fchmodSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NuzoError } from '../core/errors.js';

export const CREDENTIAL_FILE = 'ipc.key';
const KEY_BYTES = 32;
const KEY_HEX = /^[0-9a-f]{64}$/;

export function credentialPath(home: string): string {
  return join(home, CREDENTIAL_FILE);
}

/**
 * Writes a new credential and returns it. The temporary file is created 0600 before the key is
 * written into it and renamed over the old one, so no reader ever sees a partial or open file.
 */
export function createCredential(home: string): Buffer {
  const key = randomBytes(KEY_BYTES);
  const target = credentialPath(home);
  const temp = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    try {
      // The umask can only remove bits; this covers file systems that ignore the mode on create.
      fchmodSync(fd, 0o600);
      writeFileSync(fd, key.toString('hex'));
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  chmodSync(target, 0o600);
  return key;
}

/** The running app's credential, for a client. */
export function readCredential(home: string): Buffer {
  const path = credentialPath(home);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new NuzoError('app_unavailable', `No IPC credential at ${path}: the Nuzo app has not started with this data folder.`, { path });
    }
    throw new NuzoError(
      'auth_failed',
      `Cannot read the IPC credential ${path} (${code ?? 'error'}): is the app running as another user?`,
      { path },
    );
  }
  const hex = text.trim();
  if (!KEY_HEX.test(hex)) {
    throw new NuzoError('auth_failed', `The IPC credential ${path} is damaged; restart the Nuzo app to write a new one.`, { path });
  }
  return Buffer.from(hex, 'hex');
}

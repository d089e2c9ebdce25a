import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NuzoError } from '../core/errors.js';

/**
 * The single-writer lock of a data folder. It is an exclusive SQLite lock on a small side file:
 * the operating system drops it when the holder dies, so a crash never leaves a stale lock and
 * no pid guessing is needed. The pid file only makes the refusal message useful.
 */
export interface DataLock {
  release(): void;
}

export function acquireDataLock(home: string, holder: string): DataLock {
  const lockPath = join(home, 'nuzo.lock');
  const ownerPath = join(home, 'nuzo.lock.owner');
  const db = new Database(lockPath, { timeout: 0 });
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS held (x)');
    db.exec('COMMIT');
  } catch (error) {
    db.close();
    if (error instanceof Error && 'code' in error && String(error.code).startsWith('SQLITE_BUSY')) {
      throw new NuzoError('already_running', `Another Nuzo process (${describeOwner(ownerPath)}) is using the data folder ${home}. Stop it, or let it do this work.`, { home });
    }
    throw error;
  }
  writeFileSync(ownerPath, JSON.stringify({ pid: process.pid, holder, since: new Date().toISOString() }), { mode: 0o600 });
  return {
    release() {
      if (db.open) db.close();
    },
  };
}

function describeOwner(ownerPath: string): string {
  try {
    const owner = JSON.parse(readFileSync(ownerPath, 'utf8')) as { pid?: number; holder?: string };
    return `${owner.holder ?? 'nuzo'}, pid ${owner.pid ?? '?'}`;
  } catch {
    return 'unknown process';
  }
}

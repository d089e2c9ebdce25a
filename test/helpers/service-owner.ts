import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid the data folder's lock file names, if any. */
export function ownerPid(home: string): number | null {
  try {
    return (JSON.parse(readFileSync(join(home, 'nuzo.lock.owner'), 'utf8')) as { pid: number }).pid;
  } catch {
    return null;
  }
}

/** Stops whatever service holds the data folder (one a bridge started is no child of the test's). */
export async function stopOwner(home: string): Promise<void> {
  const pid = ownerPid(home);
  if (pid === null || !alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

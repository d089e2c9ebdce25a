import { closeSync, openSync, writeSync } from 'node:fs';
import { dataHome } from '../../core/paths.js';
import { openDatabase } from '../../store/database.js';
import { MemoryQueries } from '../../store/memories.js';
import { exportLines } from '../../transfer/export-jsonl.js';
import { say } from '../output.js';

/** `nuzo export [FILE]`: JSON Lines to FILE (created 0600) or stdout. Read-only. */
export function exportCommand(args: string[]): number {
  const file = args.find((a) => !a.startsWith('-'));
  const db = openDatabase(dataHome(), { readonly: true });
  const fd = file && file !== '-' ? openSync(file, 'w', 0o600) : 1;
  let count = 0;
  try {
    const memories = new MemoryQueries(db);
    for (const line of exportLines(db, memories)) {
      writeSync(fd, JSON.stringify(line) + '\n');
      count++;
    }
  } finally {
    if (fd !== 1) closeSync(fd);
    db.close();
  }
  say(`nuzo: exported ${count} memor${count === 1 ? 'y' : 'ies'}${fd !== 1 ? ` to ${file}` : ''}`);
  return 0;
}

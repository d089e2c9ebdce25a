import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh private data folder; removed by `cleanup` (call it from `after`). */
export function tempHome(label = 'nuzo-test'): { home: string; cleanup: () => void } {
  const home = mkdtempSync(join(tmpdir(), `${label}-`));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

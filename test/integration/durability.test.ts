import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { Store } from '../../main/store/store.js';
import { tempHome } from '../helpers/temp-home.js';
import { repoRoot } from '../helpers/paths.js';

const writer = join(repoRoot, 'dist', 'test', 'helpers', 'durability-writer.js');

/** Runs one writer, kills it with SIGKILL after `killAfterMs` of writing, returns acknowledged ids. */
function runAndKill(home: string, round: number, killAfterMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, home, String(round)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const acked: string[] = [];
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (line === 'ready') setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      else acked.push(line);
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer ended by ${signal ?? 'exit'} before the kill`));
      lines.close();
      resolve(acked);
    });
  });
}

test('every acknowledged write survives SIGKILL at random moments, and the file stays intact', async () => {
  const { home, cleanup } = tempHome('nuzo-durability');
  try {
    const acked: string[] = [];
    // a fixed seed of "random" moments, so a failure is reproducible
    let seed = 7;
    const nextDelay = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return 15 + (seed % 120);
    };
    for (let round = 0; round < 6; round++) acked.push(...(await runAndKill(home, round, nextDelay())));
    assert.ok(acked.length > 20, `too few writes acknowledged (${acked.length}) for the test to mean anything`);
    const store = Store.open(home, 'verifier');
    try {
      assert.deepEqual(store.db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
      store.db.exec("INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)");
      const missing = acked.filter((id) => !store.memories.get(id));
      assert.deepEqual(missing, [], `${missing.length} acknowledged writes lost`);
      for (const id of acked.slice(-5)) assert.equal(store.memories.revisions(id).length, 1);
    } finally {
      store.close();
    }
  } finally {
    cleanup();
  }
});

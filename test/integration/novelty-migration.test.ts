import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../main/store/store.js';
import { schemaVersion } from '../../main/store/database.js';
import { LATEST_SCHEMA_VERSION } from '../../main/store/migrations.js';
import { findSimilar } from '../../main/pipeline/novelty.js';
import { SEED_SETTING, hasherFor, sketch, wordSet } from '../../main/pipeline/minhash.js';
import { prepareDraft, setForgotten } from '../../main/pipeline/pipeline.js';
import { personActing } from '../../main/consent/proof.js';
import { tempHome } from '../helpers/temp-home.js';
import { repoRoot } from '../helpers/paths.js';
import { person } from '../helpers/requesters.js';

const fixture = join(repoRoot, 'test', 'fixtures', 'schema-v1', 'nuzo.sqlite');

test('migration 3 gives every memory of a schema-1 database its bands, and near-duplicates of them are found', () => {
  const { home, cleanup } = tempHome('nuzo-migrate-bands');
  try {
    copyFileSync(fixture, join(home, 'nuzo.sqlite'));
    const store = Store.open(home, 'migration test');
    try {
      assert.ok(schemaVersion(store.db) >= 3);
      assert.equal(schemaVersion(store.db), LATEST_SCHEMA_VERSION);
      const seed = store.db.prepare('SELECT value FROM settings WHERE key = ?').get(SEED_SETTING) as { value: string } | undefined;
      assert.match(JSON.parse(seed!.value) as string, /^[0-9a-f]{32}$/, 'the migration created the seed');

      // live and forgotten alike: each memory has exactly its band keys
      const memories = store.db.prepare('SELECT seq, id, scope, content, deleted_at FROM memories').all() as Array<{ seq: number; id: string; scope: string; content: string; deleted_at: number | null }>;
      assert.equal(memories.length, 3);
      assert.ok(memories.some((m) => m.deleted_at !== null), 'the fixture has a forgotten memory');
      for (const m of memories) {
        const expected = sketch(hasherFor(store.db), m.scope, wordSet(m.content)).keys.sort((a, b) => a - b);
        const stored = (store.db.prepare('SELECT key FROM memory_bands WHERE memory_seq = ? ORDER BY key').pluck().all(m.seq) as number[]);
        assert.deepEqual(stored, expected, `bands of "${m.content}"`);
      }

      const edited = memories.find((m) => m.content === 'The v1 fixture keeps an edited preference')!;
      assert.deepEqual(
        findSimilar(store.db, 'user', 'The v1 fixture keeps an edited preference today', null).map((s) => s.id),
        [edited.id],
      );
      const draft = prepareDraft(store, { content: 'the v1 fixture keeps an edited preference, again', scope: 'user' }, person);
      assert.ok(draft.warnings.includes('near_duplicate'));

      // the forgotten one is indexed but not reported until it is restored
      const forgotten = memories.find((m) => m.deleted_at !== null)!;
      const near = 'Agent fact in a project scope, restated';
      assert.deepEqual(findSimilar(store.db, forgotten.scope, near, null), []);
      const current = store.memories.get(forgotten.id)!;
      setForgotten(store, { memory_id: forgotten.id, expected_revision: current.revision }, false, person, personActing());
      assert.deepEqual(findSimilar(store.db, forgotten.scope, near, null).map((s) => s.id), [forgotten.id]);
      assert.deepEqual(store.db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
    } finally {
      store.close();
    }
  } finally {
    cleanup();
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../main/store/store.js';
import { schemaVersion } from '../../main/store/database.js';
import { LATEST_SCHEMA_VERSION } from '../../main/store/migrations.js';
import { recall } from '../../main/store/recall.js';
import { executeWrite } from '../../main/pipeline/pipeline.js';
import { personActing } from '../../main/consent/proof.js';
import { tempHome } from '../helpers/temp-home.js';
import { repoRoot } from '../helpers/paths.js';

const fixture = join(repoRoot, 'test', 'fixtures', 'schema-v1', 'nuzo.sqlite');

test('a database written by the schema-1 code opens under current code, migrates once and keeps every row', () => {
  const { home, cleanup } = tempHome('nuzo-migrate');
  try {
    copyFileSync(fixture, join(home, 'nuzo.sqlite'));
    const store = Store.open(home, 'migration test');
    try {
      assert.equal(schemaVersion(store.db), LATEST_SCHEMA_VERSION);
      assert.ok(LATEST_SCHEMA_VERSION >= 2, 'there is a migration to exercise');
      const rows = store.db.prepare('SELECT id, content, revision, deleted_at, origin FROM memories ORDER BY created_at').all() as Array<{ content: string; revision: number; deleted_at: number | null; origin: string }>;
      assert.deepEqual(rows.map((r) => [r.content, r.revision, r.deleted_at !== null, r.origin]), [
        ['The v1 fixture keeps an edited preference', 2, false, 'user'],
        ['Agent fact in a project scope', 2, true, 'agent'],
        ['Web page said to use HTTP/3', 1, false, 'network'],
      ]);
      assert.equal((store.db.prepare('SELECT count(*) n FROM memory_revisions').get() as { n: number }).n, 5);
      assert.equal((store.db.prepare('SELECT count(*) n FROM audit').get() as { n: number }).n, 5);
      // the index came along and the new tables work
      assert.equal(recall(store.db, { query: 'edited preference' }).items.length, 1);
      assert.equal((store.db.prepare('SELECT count(*) n FROM offers').get() as { n: number }).n, 0);
      executeWrite(store, { content: 'Written after the upgrade', scope: 'user' }, { actor: 't', channel: 'window', projects: [], person: true }, personActing());
      assert.deepEqual(store.db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
      assert.ok(existsSync(join(home, `nuzo.sqlite.pre-v${LATEST_SCHEMA_VERSION}.bak`)), 'a copy of the old file was kept');
    } finally {
      store.close();
    }
    // a second open migrates nothing more
    const again = Store.open(home, 'migration test again');
    assert.equal(schemaVersion(again.db), LATEST_SCHEMA_VERSION);
    assert.equal((again.db.prepare('SELECT count(*) n FROM memories').get() as { n: number }).n, 4);
    again.close();
  } finally {
    cleanup();
  }
});

test('a database from a newer Nuzo is refused with a clear message and left untouched', () => {
  const { home, cleanup } = tempHome('nuzo-newer');
  try {
    const store = Store.open(home, 'maker');
    store.db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    store.close();
    assert.throws(() => Store.open(home, 'older code'), /written by a newer Nuzo/);
  } finally {
    cleanup();
  }
});

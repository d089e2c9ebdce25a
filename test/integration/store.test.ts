import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../main/store/store.js';
import { recall } from '../../main/store/recall.js';
import { listMemories } from '../../main/store/list.js';
import { executeWrite } from '../../main/pipeline/pipeline.js';
import { personActing } from '../../main/consent/proof.js';
import { NuzoError } from '../../main/core/errors.js';
import { tempHome } from '../helpers/temp-home.js';
import { agent, person } from '../helpers/requesters.js';
import { repoRoot } from '../helpers/paths.js';

let store: Store;
let home: string;
let cleanup: () => void;

before(() => {
  const t = tempHome();
  home = t.home;
  cleanup = t.cleanup;
  store = Store.open(home, 'test');
  const write = (content: string, extra: Record<string, unknown> = {}): void => {
    executeWrite(store, { content, scope: 'user', ...extra }, person, personActing());
  };
  write('Use getUserById from src/users/repository.ts for lookups', { kind: 'procedure', tags: ['users'] });
  write('Deploys go through the blue-green pipeline on Tuesdays', { kind: 'decision', tags: ['deploy', 'ops'] });
  write('Prefer composition over inheritance in the renderer', { kind: 'preference' });
  write('Café menus are stored as JSON in fixtures/menu.json', { kind: 'fact', scope: 'project:alpha' });
  write('Postgres connection pooling is handled by pgbouncer', { kind: 'fact', tags: ['ops'] });
  for (let i = 0; i < 30; i++) write(`Paging fixture number ${i} about widgets`, { kind: 'note', tags: ['paging'] });
});

after(() => {
  store.close();
  cleanup();
});

test('the data folder and database are private to the user', () => {
  assert.equal(statSync(home).mode & 0o077, 0);
  assert.equal(statSync(join(home, 'nuzo.sqlite')).mode & 0o077, 0);
  assert.equal(store.db.pragma('journal_mode', { simple: true }), 'wal');
});

test('a second writer on the same folder is refused with a clear message, in another process too', () => {
  assert.throws(() => Store.open(home, 'second'), (e: unknown) => e instanceof NuzoError && e.code === 'already_running' && e.message.includes(home));
  const child = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `import { Store } from ${JSON.stringify(join(repoRoot, 'dist/main/store/store.js'))}; try { Store.open(${JSON.stringify(home)}, 'child'); console.log('opened'); } catch (e) { console.log(e.code, e.message); }`],
    { encoding: 'utf8' },
  );
  assert.match(child.stdout, /^already_running Another Nuzo process \(test, pid \d+\)/);
});

test('the lock is released on close and when its holder dies', () => {
  const t = tempHome();
  const child = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `import { Store } from ${JSON.stringify(join(repoRoot, 'dist/main/store/store.js'))}; Store.open(${JSON.stringify(t.home)}, 'doomed'); process.kill(process.pid, 'SIGKILL');`],
  );
  assert.equal(child.signal, 'SIGKILL');
  const s = Store.open(t.home, 'after-crash');
  s.close();
  Store.open(t.home, 'again').close();
  t.cleanup();
});

test('recall finds by word and by prefix, across code identifiers and paths', () => {
  assert.equal(recall(store.db, { query: 'pgbouncer' }).items[0]?.content.includes('pgbouncer'), true);
  assert.equal(recall(store.db, { query: 'pgbou' }).items[0]?.content.includes('pgbouncer'), true);
  assert.ok(recall(store.db, { query: 'repository.ts' }).items[0]?.content.includes('getUserById'));
  assert.ok(recall(store.db, { query: 'getUserById' }).items.length >= 1);
  assert.ok(recall(store.db, { query: 'cafe' }).items[0]?.content.startsWith('Café'));
});

test('recall filters by scope, kind, tag and origin, and combines them', () => {
  assert.deepEqual(recall(store.db, { query: 'json', scopes: ['user'] }).items, []);
  assert.equal(recall(store.db, { query: 'json', scopes: ['project:alpha'] }).items.length, 1);
  const ops = recall(store.db, { query: '', tags: ['ops'] }).items.map((m) => m.kind).sort();
  assert.deepEqual(ops, ['decision', 'fact']);
  assert.equal(recall(store.db, { query: '', tags: ['ops'], kinds: ['fact'] }).items.length, 1);
  assert.equal(recall(store.db, { query: 'pgbouncer', origins: ['agent'] }).items.length, 0);
  assert.equal(recall(store.db, { query: 'pgbouncer', origins: ['user'] }).items.length, 1);
  assert.equal(recall(store.db, { query: 'pgbouncer', scopes: [] }).items.length, 0);
});

test('any typed text is safe: FTS syntax, quotes, operators, emoji and empty strings never throw', () => {
  const nasty = ['"', '""', "'", 'AND', 'OR', 'NOT', 'NEAR', 'NEAR(a b)', 'a AND', 'OR OR', '*', '**', ':', 'content:x', '^start', '(', ')', '(a OR', '-x', '+', 'a"b', '🙂', '🙂 deploy', '', '   ', '\u0000', 'x'.repeat(5000), 'tags:ops', '{a b}', 'a:b:c', 'NOT deploy', 'deploy*', '"deploy'];
  for (const q of nasty) {
    assert.doesNotThrow(() => recall(store.db, { query: q }), `query ${JSON.stringify(q.slice(0, 20))}`);
  }
  assert.ok(recall(store.db, { query: '"deploys' }).items.length >= 1);
  assert.ok(recall(store.db, { query: 'NOT deploys' }).items.length >= 1, 'NOT is a word here, not an operator');
});

test('recall falls back to any-word matching when no memory has every word', () => {
  const hits = recall(store.db, { query: 'pgbouncer zebra' }).items;
  assert.equal(hits[0]?.content.includes('pgbouncer'), true);
});

test('cursor paging visits every match once, for recall and for list', () => {
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = recall(store.db, { query: 'widgets', limit: 7, ...(cursor ? { cursor } : {}) });
    for (const m of page.items) {
      assert.ok(!seen.has(m.id));
      seen.add(m.id);
    }
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  assert.equal(seen.size, 30);

  const listed = new Set<string>();
  cursor = undefined;
  do {
    const page = listMemories(store.db, { tags: ['paging'], limit: 8, ...(cursor ? { cursor } : {}) });
    for (const m of page.items) listed.add(m.id);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  assert.equal(listed.size, 30);
  assert.throws(() => recall(store.db, { query: 'x', cursor: 'garbage!' }), (e: unknown) => e instanceof NuzoError && e.code === 'validation_error');
});

test('the index changes in the same transaction as the row: a rolled back write leaves no index entry', () => {
  assert.throws(() =>
    store.transaction(() => {
      executeWrite(store, { content: 'zygomorphic flowers are fine', scope: 'user' }, agent(), personActing());
      throw new Error('abort');
    }),
  );
  assert.equal(recall(store.db, { query: 'zygomorphic' }).items.length, 0);
  assert.equal((store.db.prepare("SELECT count(*) n FROM memories_fts WHERE memories_fts MATCH 'zygomorphic'").get() as { n: number }).n, 0);
  assert.deepEqual(store.db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
  store.db.exec("INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)");
});

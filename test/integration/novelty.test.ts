import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Store } from '../../main/store/store.js';
import { executeWrite, needsPersonalDecision, prepareDraft, restoreRevision, setForgotten } from '../../main/pipeline/pipeline.js';
import { personActing } from '../../main/consent/proof.js';
import { findSimilar } from '../../main/pipeline/novelty.js';
import { SEED_SETTING, bandCandidates, hasherFor, rebuildBands, sketch, wordSet } from '../../main/pipeline/minhash.js';
import { exportLines } from '../../main/transfer/export-jsonl.js';
import type { Memory } from '../../main/core/types.js';
import { tempHome } from '../helpers/temp-home.js';
import { agent, person } from '../helpers/requesters.js';
import { nuzoCli } from '../helpers/paths.js';
import { prng } from '../helpers/prng.js';

/**
 * Near-duplicates (DESIGN §4 stage 6) must always be found: a draft with one needs a person's
 * decision, so a miss would let a standing grant write it. These tests pin the installation seed
 * (the same repair path a lost seed takes) so a 1-in-1,000 LSH miss cannot make them flaky; the
 * seed's own life (random, stored, never exported) is tested separately below.
 */

const consent = personActing();
const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

function openStore(label: string): { store: Store; home: string } {
  const { home, cleanup } = tempHome(label);
  const store = Store.open(home, 'test');
  cleanups.push(() => {
    store.close();
    cleanup();
  });
  return { store, home };
}

function pinSeed(store: Store, hex: string): void {
  store.db.prepare('UPDATE settings SET value = ? WHERE key = ?').run(JSON.stringify(hex), SEED_SETTING);
  store.transaction(() => rebuildBands(store.db));
}


const VOCABULARY = Array.from({ length: 4000 }, (_, i) => `w${(i * 7919).toString(36)}${'aeiou'[i % 5]}`);
const pick = (r: () => number): string => VOCABULARY[Math.floor(r() * VOCABULARY.length)]!;
const similarIds = (store: Store, scope: string, content: string, exceptId: string | null = null): string[] =>
  findSimilar(store.db, scope, content, exceptId, 50).map((s) => s.id);

const PERSON_MEMORY =
  'Staging deploys go through the blue green switch in the gateway; drain connections for ninety seconds, then flip traffic and watch the error budget dashboard';

let main: Store;
before(() => {
  main = openStore('nuzo-novelty').store;
  pinSeed(main, '0123456789abcdef0123456789abcdef');
});

test('padding with words rare in the store cannot hide the near-duplicate (the reported attack)', () => {
  const p = executeWrite(main, { content: PERSON_MEMORY, scope: 'user', kind: 'procedure' }, person, consent);
  const words = [...wordSet(PERSON_MEMORY)];
  assert.ok(words.length >= 20);
  // the writer's own earlier memories: each holds one odd word found nowhere else
  const odd = Array.from({ length: 8 }, (_, i) => `zqx${i}vvk${i}`);
  for (const w of odd) executeWrite(main, { content: `Reminder about the ${w} ticket from the weekly sync`, scope: 'user' }, agent(), consent);
  // the person's memory with one word changed: Jaccard about 0.9 before padding
  const edited = PERSON_MEMORY.replace('ninety', 'sixty');
  for (const pads of [0, 4, 8]) {
    const content = `${odd.slice(0, pads).join(' ')} ${edited}`.trim();
    const draft = prepareDraft(main, { content, scope: 'user' }, agent());
    assert.equal(draft.blocker, null);
    assert.ok(draft.similar.some((s) => s.id === p.id), `${pads} padding words hid the near-duplicate`);
    assert.ok(draft.warnings.includes('near_duplicate'));
    assert.equal(needsPersonalDecision(draft), true, 'a standing grant must not write it');
    const score = draft.similar.find((s) => s.id === p.id)!.score;
    assert.ok(score >= 0.6 && score < 1, `score ${score}`);
  }
  // control: the same draft in a scope without the person's memory is grant-eligible
  const elsewhere = prepareDraft(main, { content: `${odd.slice(0, 8).join(' ')} ${edited}`, scope: 'project:alpha' }, agent());
  assert.deepEqual(elsewhere.similar, []);
  assert.equal(needsPersonalDecision(elsewhere), false);
});

test('recall: 300 near-duplicates at Jaccard ≈ 0.65 are all found, in a store of unrelated memories', () => {
  const { store } = openStore('nuzo-novelty-recall');
  pinSeed(store, 'fedcba9876543210fedcba9876543210');
  const r = prng(2024);
  const bases: Array<{ memory: Memory; words: string[] }> = [];
  store.transaction(() => {
    for (let i = 0; i < 300; i++) {
      const words = [...new Set(Array.from({ length: 16 + Math.floor(r() * 24) }, () => pick(r)))];
      bases.push({ memory: executeWrite(store, { content: words.join(' '), scope: 'user' }, person, consent, { skipSimilar: true }), words });
    }
  });
  let checked = 0;
  for (const { memory, words } of bases) {
    // replace k words: J = (n − k) / (n + k) ≈ 0.65
    const k = Math.max(1, Math.round((words.length * 0.35) / 1.65));
    const draft = [...words.slice(k), ...Array.from({ length: k }, (_, i) => `fresh${checked}x${i}`)];
    const j = (words.length - k) / (words.length + k);
    assert.ok(j >= 0.6 && j <= 0.72, `pair ${checked}: J = ${j}`);
    assert.ok(similarIds(store, 'user', draft.join(' ')).includes(memory.id), `pair ${checked} (J = ${j.toFixed(3)}) was not found`);
    checked++;
  }
  assert.equal(checked, 300);
});

test('a dense scope (1,200 memories from one template) still reports every near-duplicate', () => {
  // Every memory here shares 12 of its 18 words with every other (Jaccard 0.5): nearly all of
  // them share a band with any draft, so nothing may be cut by "most bands shared".
  const { store } = openStore('nuzo-novelty-dense');
  pinSeed(store, '00112233445566778899aabbccddeeff');
  const r = prng(99);
  const template = Array.from({ length: 12 }, (_, i) => `tmpl${i}word`);
  const memories: Array<{ memory: Memory; words: string[] }> = [];
  store.transaction(() => {
    for (let i = 0; i < 1200; i++) {
      const own = Array.from({ length: 6 }, (_, k) => `m${i}u${k}${pick(r)}`);
      const words = [...template, ...own];
      memories.push({ memory: executeWrite(store, { content: words.join(' '), scope: 'project:alpha' }, person, consent, { skipSimilar: true }), words });
    }
  });
  const draftWords = (words: string[], tag: string): string[] => [...words.slice(0, 15), ...Array.from({ length: 6 }, (_, k) => `new${tag}n${k}`)]; // 15 / 24 = 0.625
  let candidates = 0;
  for (let i = 0; i < 1200; i += 12) {
    const words = draftWords(memories[i]!.words, String(i));
    const found = findSimilar(store.db, 'project:alpha', words.join(' '), null, 5);
    assert.deepEqual(found.map((s) => s.id), [memories[i]!.memory.id], `near-duplicate of memory ${i} not found (or others reported)`);
    assert.equal(found[0]!.score, 0.625);
    candidates += bandCandidates(store.db, sketch(hasherFor(store.db), 'project:alpha', new Set(words)).keys).seqs.length;
  }
  assert.ok(candidates / 100 > 500, `the scope is dense: ${candidates / 100} candidates per draft`);
});

test('scopes stay apart: the same text elsewhere is neither reported nor even a candidate', () => {
  const text = 'The nightly export job writes parquet files to the archive bucket and prunes anything older than ninety days';
  const inBeta = executeWrite(main, { content: text, scope: 'project:beta' }, person, consent);
  executeWrite(main, { content: text.replace('ninety', 'thirty'), scope: 'project:gamma' }, person, consent);
  const draft = text.replace('parquet', 'avro');
  assert.deepEqual(similarIds(main, 'user', draft), []);
  assert.deepEqual(similarIds(main, 'project:beta', draft), [inBeta.id]);
  const { keys } = sketch(hasherFor(main.db), 'user', wordSet(draft));
  const seqs = bandCandidates(main.db, keys).seqs;
  const scopes = seqs.map((seq) => (main.db.prepare('SELECT scope FROM memories WHERE seq = ?').get(seq) as { scope: string }).scope);
  assert.ok(scopes.every((s) => s === 'user'), `candidates from other scopes: ${scopes.join(', ')}`);
});

test('forgotten memories are not reported; restored ones are again', () => {
  const text = 'Use the read replica for reporting queries longer than five seconds so the primary keeps its latency budget';
  const m = executeWrite(main, { content: text, scope: 'user' }, person, consent);
  const draft = text.replace('five', 'ten');
  assert.deepEqual(similarIds(main, 'user', draft), [m.id]);
  const forgotten = setForgotten(main, { memory_id: m.id, expected_revision: 1 }, true, person, consent);
  assert.deepEqual(similarIds(main, 'user', draft), []);
  assert.deepEqual(prepareDraft(main, { content: draft, scope: 'user' }, agent()).similar, []);
  setForgotten(main, { memory_id: m.id, expected_revision: forgotten.revision }, false, person, consent);
  assert.deepEqual(similarIds(main, 'user', draft), [m.id]);
});

const bandRows = (store: Store, id: string): number =>
  (store.db.prepare('SELECT count(*) n FROM memory_bands b JOIN memories m ON m.seq = b.memory_seq WHERE m.id = ?').get(id) as { n: number }).n;

test('an update refreshes the bands: edited away it is no longer reported, its new text is; a scope change moves them', () => {
  const oldText = 'Feature flags for the checkout service live in the flags repository and ship with every tagged release';
  const newText = 'Our on call rotation hands over on Mondays at ten with a short written summary of open incidents';
  const m = executeWrite(main, { content: oldText, scope: 'user' }, person, consent);
  const keysOf = (text: string, scope: string): number => sketch(hasherFor(main.db), scope, wordSet(text)).keys.length;
  assert.equal(bandRows(main, m.id), keysOf(oldText, 'user'));
  assert.deepEqual(similarIds(main, 'user', oldText.replace('tagged', 'signed')), [m.id]);

  const edited = executeWrite(main, { memory_id: m.id, expected_revision: 1, content: newText }, person, consent);
  assert.deepEqual(similarIds(main, 'user', oldText.replace('tagged', 'signed')), [], 'the old text is gone');
  assert.deepEqual(similarIds(main, 'user', newText.replace('ten', 'nine')), [m.id], 'the new text is found');
  assert.deepEqual(similarIds(main, 'user', newText.replace('ten', 'nine'), m.id), [], 'an update is not its own near-duplicate');
  assert.equal(bandRows(main, m.id), keysOf(newText, 'user'), 'no stale bands are left behind');

  const moved = executeWrite(main, { memory_id: m.id, expected_revision: edited.revision, content: newText, scope: 'project:alpha' }, person, consent);
  assert.equal(moved.scope, 'project:alpha');
  assert.deepEqual(similarIds(main, 'user', newText.replace('ten', 'nine')), []);
  assert.deepEqual(similarIds(main, 'project:alpha', newText.replace('ten', 'nine')), [m.id]);
  assert.equal(bandRows(main, m.id), keysOf(newText, 'project:alpha'));

  // restoring the first revision brings the first text (and its scope) back
  restoreRevision(main, { memory_id: m.id, revision: 1, expected_revision: moved.revision }, person, consent);
  assert.deepEqual(similarIds(main, 'user', oldText.replace('tagged', 'signed')), [m.id]);
  assert.equal(bandRows(main, m.id), keysOf(oldText, 'user'));
});

test('a write rolled back leaves neither bands nor a stale cached word set behind', () => {
  const text = 'Container images are scanned in the registry before promotion and a critical finding blocks the release train';
  const m = executeWrite(main, { content: text, scope: 'user' }, person, consent);
  const draft = text.replace('train', 'pipeline');
  assert.deepEqual(similarIds(main, 'user', draft), [m.id]); // caches its words
  const elsewhere = 'Something else entirely about lunch menus and parking spots downtown near the station';
  assert.throws(() =>
    main.transaction(() => {
      executeWrite(main, { memory_id: m.id, expected_revision: 1, content: elsewhere }, person, consent);
      assert.deepEqual(similarIds(main, 'user', draft), [], 'inside the transaction the edit is visible');
      assert.deepEqual(similarIds(main, 'user', elsewhere.replace('lunch', 'dinner')), [m.id]);
      throw new Error('roll back');
    }),
  );
  assert.deepEqual(similarIds(main, 'user', elsewhere.replace('lunch', 'dinner')), []);
  assert.equal(main.memories.get(m.id)!.revision, 1);
  assert.deepEqual(similarIds(main, 'user', draft), [m.id], 'after the rollback the original is found again');
  assert.equal(bandRows(main, m.id), sketch(hasherFor(main.db), 'user', wordSet(text)).keys.length);
});

test('a savepoint rolled back inside a write, and a create rolled back then redone, leave no stale word set', () => {
  const first = 'Pull requests need two approvals when they touch the billing schema or any migration file';
  const other = 'Team lunch is on Thursdays at the noodle place across the river from the office';
  const m = executeWrite(main, { content: first, scope: 'user' }, person, consent);
  const nearFirst = first.replace('two', 'three');
  assert.deepEqual(similarIds(main, 'user', nearFirst), [m.id]);
  main.transaction(() => {
    assert.throws(() =>
      main.transaction(() => {
        executeWrite(main, { memory_id: m.id, expected_revision: 1, content: other }, person, consent);
        throw new Error('inner roll back');
      }),
    );
    // the outer transaction goes on: the memory still holds its first text
    assert.deepEqual(similarIds(main, 'user', nearFirst), [m.id]);
  });
  assert.deepEqual(similarIds(main, 'user', nearFirst), [m.id]);
  assert.deepEqual(similarIds(main, 'user', other.replace('noodle', 'ramen')), []);

  // a create rolled back, then another create that may reuse its row number
  const ghost = 'Ghost text about quarterly offsites in the mountains with hiking and a campfire talk';
  const real = 'Incident reviews are blameless and published within five working days on the wiki';
  assert.throws(() =>
    main.transaction(() => {
      executeWrite(main, { content: ghost, scope: 'user' }, person, consent);
      throw new Error('roll back');
    }),
  );
  const kept = executeWrite(main, { content: real, scope: 'user' }, person, consent);
  assert.deepEqual(similarIds(main, 'user', ghost.replace('mountains', 'hills')), []);
  assert.deepEqual(similarIds(main, 'user', real.replace('five', 'seven')), [kept.id]);
});

test('a change committed by another connection is seen by a reader that had cached the old words', () => {
  const { store, home } = openStore('nuzo-novelty-reader');
  const before = 'The staging cluster scales down to zero nodes every night after the last build finishes';
  const after = 'Security patches for the base images are applied every Tuesday and rolled out by Thursday';
  const m = executeWrite(store, { content: before, scope: 'user' }, person, consent);
  const reader = Store.open(home, 'reader', { readonly: true });
  try {
    assert.deepEqual(similarIds(reader, 'user', before.replace('zero', 'one')), [m.id]); // the reader caches its words
    executeWrite(store, { memory_id: m.id, expected_revision: 1, content: after }, person, consent);
    assert.deepEqual(similarIds(reader, 'user', after.replace('Tuesday', 'Wednesday')), [m.id]);
    assert.deepEqual(similarIds(reader, 'user', before.replace('zero', 'one')), []);
  } finally {
    reader.close();
  }
});

test('the seed: 16 random bytes per installation, created once, kept across restarts, never exported', () => {
  const a = openStore('nuzo-seed-a');
  const b = openStore('nuzo-seed-b');
  const seedOf = (store: Store): string => JSON.parse((store.db.prepare('SELECT value FROM settings WHERE key = ?').get(SEED_SETTING) as { value: string }).value) as string;
  const seedA = seedOf(a.store);
  assert.match(seedA, /^[0-9a-f]{32}$/);
  assert.notEqual(seedA, seedOf(b.store), 'each installation has its own');
  const text = 'Backups of the ledger database are encrypted with the offline key and tested by a monthly restore drill';
  const m = executeWrite(a.store, { content: text, scope: 'user' }, person, consent);
  a.store.close();
  const again = Store.open(a.home, 'test again');
  try {
    assert.equal(seedOf(again), seedA, 'the seed survives a restart');
    assert.deepEqual(similarIds(again, 'user', text.replace('monthly', 'weekly')), [m.id]);
    const exported = JSON.stringify([...exportLines(again.db, again.memories)]);
    assert.ok(exported.includes('offline key'));
    assert.ok(!exported.includes(seedA));
  } finally {
    again.close();
  }
  const cli = spawnSync(process.execPath, [nuzoCli, 'export'], { encoding: 'utf8', env: { ...process.env, NUZO_HOME: a.home } });
  assert.equal(cli.status, 0, cli.stderr);
  assert.ok(cli.stdout.includes('offline key'), 'the export holds the memory');
  assert.ok(!cli.stdout.includes(seedA) && !cli.stderr.includes(seedA), 'but not the seed');
  assert.ok(!cli.stdout.includes(SEED_SETTING));
});

test('a lost seed is replaced and every band rebuilt before the next lookup', () => {
  const { store, home } = openStore('nuzo-seed-lost');
  const text = 'Log retention for the payments service is thirty days in hot storage and a year in the cold archive';
  const m = executeWrite(store, { content: text, scope: 'user' }, person, consent);
  store.db.prepare('DELETE FROM settings WHERE key = ?').run(SEED_SETTING);
  store.close();
  const reopened = Store.open(home, 'test reopened');
  try {
    assert.deepEqual(similarIds(reopened, 'user', text.replace('thirty', 'sixty')), [m.id]);
    assert.ok(reopened.db.prepare('SELECT 1 FROM settings WHERE key = ?').get(SEED_SETTING), 'a new seed was stored');
  } finally {
    reopened.close();
  }
});

/**
 * Made test/fixtures/schema-v1/nuzo.sqlite with the schema-1 code (run once, before migration 2
 * existed, and committed). Do not run it again: with later code it would make a later schema,
 * and the migration test must keep opening a file written by the old code.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../main/store/store.js';
import { executeWrite, setForgotten } from '../../main/pipeline/pipeline.js';
import { personActing } from '../../main/consent/proof.js';
import { schemaVersion } from '../../main/store/database.js';
import { tempHome } from './temp-home.js';
import { repoRoot } from './paths.js';

const { home, cleanup } = tempHome('nuzo-fixture');
const store = Store.open(home, 'fixture maker');
if (schemaVersion(store.db) !== 1) throw new Error('this maker only makes the schema-1 fixture');
const person = { actor: 'window', channel: 'window' as const, projects: [], person: true };
const agent = { actor: 'mcp:fixture', channel: 'mcp' as const, host: 'fixture-host', projects: ['alpha-1234abcd'], person: false };
const t0 = Date.parse('2025-06-01T12:00:00Z');
const a = executeWrite(store, { content: 'The v1 fixture keeps a preference', kind: 'preference', tags: ['fixture'] }, person, personActing(), { now: t0 });
executeWrite(store, { memory_id: a.id, expected_revision: 1, content: 'The v1 fixture keeps an edited preference' }, person, personActing(), { now: t0 + 1000 });
const b = executeWrite(store, { content: 'Agent fact in a project scope', kind: 'fact', scope: 'project:alpha-1234abcd' }, agent, personActing(), { now: t0 + 2000 });
setForgotten(store, { memory_id: b.id, expected_revision: 1 }, true, person, personActing(), t0 + 3000);
executeWrite(store, { content: 'Web page said to use HTTP/3', source_origin: 'network', tags: ['net', 'http'] }, agent, personActing(), { now: t0 + 4000 });
store.db.pragma('wal_checkpoint(TRUNCATE)');
store.close();
const target = join(repoRoot, 'test', 'fixtures', 'schema-v1');
rmSync(target, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
copyFileSync(join(home, 'nuzo.sqlite'), join(target, 'nuzo.sqlite'));
cleanup();
process.stdout.write(`fixture written to ${target}\n`);

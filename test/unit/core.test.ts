import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { homedir } from 'node:os';
import { newId, ID_PATTERN } from '../../main/core/ids.js';
import { dataHome } from '../../main/core/paths.js';
import { projectId } from '../../main/core/project.js';
import { APP_VERSION } from '../../main/core/version.js';
import { buildFtsQuery } from '../../main/store/fts-query.js';
import { repoRoot } from '../helpers/paths.js';

test('ids are 26-character ULIDs that sort in mint order, even within one millisecond', () => {
  const ids = Array.from({ length: 2000 }, () => newId(1_700_000_000_000));
  for (const id of ids) assert.match(id, ID_PATTERN);
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
  assert.ok(newId(1_700_000_000_001) > ids[ids.length - 1]!);
});

test('the data folder: NUZO_HOME wins, else the platform default', () => {
  assert.equal(dataHome({ NUZO_HOME: '/tmp/x' }, 'linux'), '/tmp/x');
  assert.equal(dataHome({}, 'linux'), join(homedir(), '.config', 'Nuzo'));
  assert.equal(dataHome({ XDG_CONFIG_HOME: '/cfg' }, 'linux'), join('/cfg', 'Nuzo'));
  assert.equal(dataHome({}, 'darwin'), join(homedir(), 'Library', 'Application Support', 'Nuzo'));
  assert.equal(dataHome({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32'), join('C:\\Users\\a\\AppData\\Roaming', 'Nuzo'));
  assert.equal(dataHome({ NUZO_HOME: '  ' }, 'linux'), join(homedir(), '.config', 'Nuzo'));
});

test('project ids read well and differ for two checkouts with the same name', () => {
  const a = projectId('/srv/one/My App');
  const b = projectId('/srv/two/My App');
  assert.match(a, /^my-app-[0-9a-f]{8}$/);
  assert.notEqual(a, b);
  assert.match(projectId('/'), /^project-[0-9a-f]{8}$/);
});

test('typed text becomes quoted tokens; FTS syntax never passes through', () => {
  assert.deepEqual(buildFtsQuery('deploy AND "prod" NEAR(x)'), {
    all: '"deploy" "and" "prod" "near" "x"*',
    any: '"deploy" OR "and" OR "prod" OR "near" OR "x"*',
  });
  assert.equal(buildFtsQuery('*** :: ()'), null);
  assert.equal(buildFtsQuery(''), null);
});

test('the app version matches package.json', () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  assert.equal(APP_VERSION, pkg.version);
});

test('tokens fold Latin diacritics like the index does, and keep the marks of other scripts', async () => {
  const { queryTokens } = await import('../../main/store/fts-query.js');
  assert.deepEqual(queryTokens('Café Ørsted naïve'), ['cafe', 'ørsted', 'naive']);
  assert.deepEqual(queryTokens('हिन्दी'), ['हिन्दी']);
});

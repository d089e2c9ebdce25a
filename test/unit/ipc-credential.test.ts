import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { isNuzoError } from '../../main/core/errors.js';
import { createCredential, credentialPath, readCredential } from '../../main/ipc/credential.js';
import { tempHome as makeTempHome } from '../helpers/temp-home.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((cleanup) => cleanup()));
function tempHome(): string {
  const { home, cleanup } = makeTempHome('nuzo-ipc-key');
  cleanups.push(cleanup);
  return home;
}

test('each start writes 32 fresh random bytes as hex, 0600, with no temporary file left', () => {
  const home = tempHome();
  const first = createCredential(home);
  assert.equal(first.length, 32);
  assert.equal(readFileSync(credentialPath(home), 'utf8'), first.toString('hex'));
  if (process.platform !== 'win32') assert.equal(statSync(credentialPath(home)).mode & 0o777, 0o600);
  const second = createCredential(home);
  assert.notDeepEqual(second, first);
  assert.deepEqual(readCredential(home), second);
  assert.deepEqual(readdirSync(home), ['ipc.key']);
});

test('a file too open before the start ends 0600', { skip: process.platform === 'win32' ? 'Unix modes' : false }, () => {
  const home = tempHome();
  writeFileSync(credentialPath(home), 'old', { mode: 0o644 });
  createCredential(home);
  assert.equal(statSync(credentialPath(home)).mode & 0o777, 0o600);
});

test('a missing credential means the app never started; a damaged one is an auth problem', () => {
  const home = tempHome();
  assert.throws(() => readCredential(home), (error: unknown) => isNuzoError(error) && error.code === 'app_unavailable');
  writeFileSync(credentialPath(home), 'not hex');
  assert.throws(() => readCredential(home), (error: unknown) => isNuzoError(error) && error.code === 'auth_failed' && /damaged/.test(error.message));
});

import assert from 'node:assert/strict';
import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { isNuzoError } from '../../main/core/errors.js';
import { ensurePrivateDir, MAX_SOCKET_PATH_BYTES, socketCandidates, socketLocation } from '../../main/ipc/socket-path.js';

const isWindows = process.platform === 'win32';
const scratch = mkdtempSync(join(tmpdir(), 'nuzo-ipc-path-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('socketLocation', () => {
  test('uses <home>/run, whatever XDG_RUNTIME_DIR says, so app and bridge always agree', () => {
    for (const env of [{}, { XDG_RUNTIME_DIR: '' }, { XDG_RUNTIME_DIR: 'relative/dir' }, { XDG_RUNTIME_DIR: '/run/user/1000' }]) {
      assert.deepEqual(socketLocation('/home/ana/Nuzo', env, 'linux'), { dir: '/home/ana/Nuzo/run', path: '/home/ana/Nuzo/run/nuzo.sock' });
    }
  });

  test('falls back to a per-home folder under XDG_RUNTIME_DIR when the data folder path is too long', () => {
    const long = `/home/ana/${'n'.repeat(90)}`;
    const env = { XDG_RUNTIME_DIR: '/run/user/1000' };
    const a = socketLocation(long, env, 'linux');
    assert.match(a.dir, /^\/run\/user\/1000\/nuzo-[0-9a-f]{12}$/);
    assert.equal(a.path, `${a.dir}/nuzo.sock`);
    assert.deepEqual(socketLocation(long, env, 'linux'), a, 'stable');
    assert.notEqual(socketLocation(`${long}x`, env, 'linux').dir, a.dir, 'one folder per data folder');
    const candidates = socketCandidates('/home/ana/Nuzo', env, 'linux');
    assert.equal(candidates.length, 2, 'a client also tries the runtime folder');
  });

  test('says clearly when no candidate fits', () => {
    const deep = `/home/${'d'.repeat(MAX_SOCKET_PATH_BYTES)}`;
    assert.throws(
      () => socketLocation(deep, {}, 'linux'),
      (error: unknown) => isNuzoError(error) && error.code === 'internal_error' && /too long for a local socket/.test(error.message),
    );
  });

  test('symlinked and literal spellings of one home meet at one socket', { skip: isWindows ? 'needs Unix symlinks' : false }, () => {
    const real = join(scratch, 'real-home');
    mkdirSync(real);
    const link = join(scratch, 'link-home');
    symlinkSync(real, link);
    const env = { XDG_RUNTIME_DIR: '/run/user/1000' };
    assert.equal(socketLocation(link, env, 'linux').path, socketLocation(real, env, 'linux').path);
    assert.equal(socketLocation(`${real}/.`, env, 'linux').path, socketLocation(resolve(real), env, 'linux').path);
  });

  test('is a per-user named pipe on Windows', () => {
    const { path, dir } = socketLocation('C:\\Users\\ana\\AppData\\Roaming\\Nuzo', { USERNAME: 'ana' }, 'win32');
    assert.match(path, /^\\\\\.\\pipe\\nuzo-[A-Za-z0-9._-]+-[0-9a-f]{12}$/);
    assert.equal(dir, 'C:\\Users\\ana\\AppData\\Roaming\\Nuzo');
  });
});

describe('ensurePrivateDir', { skip: isWindows ? 'Unix ownership and modes' : false }, () => {
  const refused = (dir: string, pattern: RegExp) => (error: unknown) =>
    isNuzoError(error) && error.code === 'internal_error' && error.message.includes(dir) && pattern.test(error.message);

  test('creates a missing folder 0700, and accepts it again', () => {
    const dir = join(scratch, 'fresh', 'run');
    ensurePrivateDir(dir);
    assert.equal(lstatSync(dir).mode & 0o777, 0o700);
    ensurePrivateDir(dir);
  });

  test('refuses a folder others can enter', () => {
    const dir = join(scratch, 'open');
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o750);
    assert.throws(() => ensurePrivateDir(dir), refused(dir, /open to other users \(mode 0750/));
  });

  test('refuses a symlink, even to a private folder, and a file', () => {
    const target = join(scratch, 'target');
    mkdirSync(target, { mode: 0o700 });
    const link = join(scratch, 'link');
    symlinkSync(target, link);
    assert.throws(() => ensurePrivateDir(link), refused(link, /symbolic link/));
    const file = join(scratch, 'file');
    writeFileSync(file, '');
    assert.throws(() => ensurePrivateDir(file), (error: unknown) => error instanceof Error);
  });

  test('refuses a folder owned by another user', (t) => {
    if (process.getuid?.() !== 0) {
      t.skip('needs root to give a folder to another user');
      return;
    }
    const dir = join(scratch, 'theirs');
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 65534, 65534);
    assert.throws(() => ensurePrivateDir(dir), refused(dir, /belongs to user id 65534/));
  });
});

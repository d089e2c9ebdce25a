/** app://nuzo/ path resolution: only files of the renderer build, nothing else, however encoded. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { listRendererFiles, resolveAppRequest } from '../../main/electron/protocol-path.js';

const root = mkdtempSync(join(tmpdir(), 'nuzo-renderer-'));
const outside = mkdtempSync(join(tmpdir(), 'nuzo-outside-'));
mkdirSync(join(root, 'assets'));
writeFileSync(join(root, 'index.html'), '<!doctype html>');
writeFileSync(join(root, 'assets', 'index-abc123.js'), '');
writeFileSync(join(root, 'assets', 'index-abc123.css'), '');
writeFileSync(join(root, 'assets', 'notes.md'), 'not a served type');
writeFileSync(join(outside, 'secret.js'), '');
if (process.platform !== 'win32') symlinkSync(join(outside, 'secret.js'), join(root, 'assets', 'link.js'));
after(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const known = listRendererFiles(root);

test('the listing holds the build’s files with served types, and no symlinks', () => {
  assert.deepEqual([...known].sort(), ['assets/index-abc123.css', 'assets/index-abc123.js', 'index.html']);
});

test('our own files resolve, with their content type; / is index.html; query and hash are ignored', () => {
  const index = resolveAppRequest('app://nuzo/', root, known);
  assert.ok(index.ok);
  assert.equal(index.relative, 'index.html');
  assert.equal(index.file, join(root, 'index.html'));
  assert.equal(index.contentType, 'text/html; charset=utf-8');
  const script = resolveAppRequest('app://nuzo/assets/index-abc123.js?v=1#x', root, known);
  assert.ok(script.ok);
  assert.equal(script.contentType, 'text/javascript; charset=utf-8');
  assert.ok(resolveAppRequest('app://nuzo/index.html#/inbox', root, known).ok);
});

test('traversal is refused in every spelling', () => {
  for (const url of [
    'app://nuzo/../../../etc/passwd',
    'app://nuzo/assets/../../outside/secret.js',
    'app://nuzo/%2e%2e/%2e%2e/etc/passwd',
    'app://nuzo/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
    'app://nuzo/assets/..%2f..%2fetc%2fpasswd',
    'app://nuzo/assets/%2e%2e%5c%2e%2e%5cwin.ini',
    'app://nuzo/assets\\..\\index.html',
    'app://nuzo/./index.html/.',
    'app://nuzo/%252e%252e/index.html',
  ]) {
    const r = resolveAppRequest(url, root, known);
    assert.equal(r.ok, false, url);
  }
});

test('absolute paths, drive letters, NUL bytes and bad escapes are refused', () => {
  for (const url of [
    'app://nuzo//etc/passwd',
    'app://nuzo/%2Fetc%2Fpasswd',
    'app://nuzo/C:/Windows/win.ini',
    'app://nuzo/c%3A%5CWindows%5Cwin.ini',
    `app://nuzo/${encodeURIComponent(join(root, 'index.html'))}`,
    'app://nuzo/index.html%00.js',
    'app://nuzo/%E0%A4%A',
  ]) {
    const r = resolveAppRequest(url, root, known);
    assert.equal(r.ok, false, url);
    if (!r.ok) assert.equal(r.status, 400, url);
  }
});

test('unknown files, other types, symlinks and files added after start are 404', () => {
  for (const path of ['missing.js', 'assets/notes.md', 'assets/link.js', 'assets', 'inbox']) {
    const r = resolveAppRequest(`app://nuzo/${path}`, root, known);
    assert.deepEqual(r.ok ? 'served' : r.status, 404, path);
  }
  writeFileSync(join(root, 'late.js'), '');
  assert.equal(resolveAppRequest('app://nuzo/late.js', root, known).ok, false);
});

test('other schemes, hosts, ports and credentials are refused', () => {
  for (const url of ['file:///etc/passwd', 'https://nuzo/index.html', 'app://evil/index.html', 'app://nuzo:8080/index.html', 'app://user:pw@nuzo/index.html', 'not a url']) {
    assert.equal(resolveAppRequest(url, root, known).ok, false, url);
  }
});

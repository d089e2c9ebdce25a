/** The IPC surface: the method list, the zod gate on every call, and the service message guards. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API_METHODS } from '../../main/electron/api-methods.js';
import { checkCall } from '../../main/electron/call-gate.js';
import { isFromService, isToService } from '../../main/electron/service-messages.js';
import { methodSchemas } from '../../main/ui-api/http-schemas.js';

test('the preload exposes exactly the methods the HTTP adapter has schemas for', () => {
  assert.deepEqual([...API_METHODS].sort(), Object.keys(methodSchemas).sort());
});

test('calls pass the same zod schemas as HTTP: known method, checked params', () => {
  assert.deepEqual(checkCall('inbox', {}), { ok: true, method: 'inbox', params: undefined });
  assert.deepEqual(checkCall('setCapturePaused', { paused: true }), { ok: true, method: 'setCapturePaused', params: { paused: true } });
  const unknown = checkCall('__proto__', {});
  assert.equal(unknown.ok === false && unknown.error.code, 'not_found');
  assert.equal(checkCall('toString', {}).ok, false);
  assert.equal(checkCall(42, {}).ok, false);
  const extra = checkCall('setCapturePaused', { paused: true, admin: true });
  assert.equal(extra.ok === false && extra.error.code, 'validation_error', 'strict objects: no extra keys');
  const wrong = checkCall('writeHostConfig', { host: 'windsurf' });
  assert.ok(wrong.ok === false && wrong.error.code === 'validation_error');
  assert.deepEqual((wrong.ok === false && (wrong.error.details as { issues: Array<{ path: string }> }).issues[0]!.path), 'host');
  assert.equal(checkCall('createGrant', { host: 'x', scope: 'user', origins: ['network'], kinds: ['fact'], requires_attestation: false, expires_at: null }).ok, false, 'network is never grantable');
});

test('service messages are recognised strictly', () => {
  assert.ok(isToService({ t: 'init', bridge: null }));
  assert.ok(isToService({ t: 'init', bridge: { command: '/n', args: [], env: {} } }));
  assert.ok(isToService({ t: 'call', id: 1, method: 'inbox', params: undefined }));
  assert.ok(isToService({ t: 'stop' }));
  for (const bad of [null, 'stop', { t: 'call', id: 1.5, method: 'inbox' }, { t: 'call', id: 1 }, { t: 'init' }, { t: 'eval', code: '1' }]) assert.ok(!isToService(bad), JSON.stringify(bad));
  assert.ok(isFromService({ t: 'ready', home: '/h', socketPath: '/s' }));
  assert.ok(isFromService({ t: 'result', id: 3, result: { ok: true, result: null } }));
  assert.ok(isFromService({ t: 'event', event: { type: 'offer.created', id: 'o1' } }));
  assert.ok(isFromService({ t: 'fatal', error: { code: 'already_running', message: 'm' } }));
  for (const bad of [{ t: 'result', id: 3 }, { t: 'event' }, { t: 'fatal', error: {} }, { t: 'ready' }]) assert.ok(!isFromService(bad), JSON.stringify(bad));
});

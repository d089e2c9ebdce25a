/** The window's trust rules: who may call the API, which links leave the app, which permissions exist. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAppUrl, senderAllowed, type SenderFacts } from '../../main/electron/sender-check.js';
import { externalLinkAllowed } from '../../main/electron/link-policy.js';
import { permissionAllowed } from '../../main/electron/permission-policy.js';

const ours: SenderFacts = { frameUrl: 'app://nuzo/index.html#/inbox', isTopFrame: true, senderId: 7, windowId: 7 };

test('the API answers only our window’s top frame on app://nuzo', () => {
  assert.equal(senderAllowed(ours), true);
  const refused: Array<[string, Partial<SenderFacts>]> = [
    ['an iframe', { isTopFrame: false }],
    ['another web contents', { senderId: 8 }],
    ['no window yet', { windowId: null }],
    ['a frame that is gone', { frameUrl: null }],
    ['an empty URL', { frameUrl: '' }],
    ['a web page', { frameUrl: 'https://example.com/' }],
    ['the loopback UI', { frameUrl: 'http://127.0.0.1:4321/' }],
    ['a file', { frameUrl: 'file:///tmp/x.html' }],
    ['another app host', { frameUrl: 'app://nuzo.evil/index.html' }],
    ['credentials in the URL', { frameUrl: 'app://user@nuzo/index.html' }],
    ['a data URL', { frameUrl: 'data:text/html,<script>1</script>' }],
    ['about:blank', { frameUrl: 'about:blank' }],
  ];
  for (const [what, change] of refused) assert.equal(senderAllowed({ ...ours, ...change }), false, what);
  assert.equal(isAppUrl('app://nuzo'), true);
  // Chromium reports standard-scheme hosts lowercased; anything else is not our canonical page.
  assert.equal(isAppUrl('app://NUZO/index.html'), false);
});

test('external links: public web pages only', () => {
  for (const url of ['https://modelcontextprotocol.io/docs', 'http://example.com/a?b=c#d', 'https://github.com/owner/repo/issues/1', 'https://[2001:db8::1]/']) {
    assert.equal(externalLinkAllowed(url), true, url);
  }
  for (const url of [
    'file:///etc/passwd',
    'javascript:alert(1)',
    'app://nuzo/index.html',
    'ms-msdt:/id PCWDiagnostic',
    'smb://fileserver/share',
    'mailto:a@example.com',
    'vscode://file/etc/passwd',
    'https://user:pass@example.com/',
    'http://localhost:3000/',
    'http://api.localhost/',
    'http://127.0.0.1:4242/?token=x',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://10.0.0.1/',
    'http://192.168.1.1/admin',
    'http://172.20.0.5/',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/',
    'http://[fd00::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://printer.local/',
    'http://intranet/',
    'https://' + 'a'.repeat(2100) + '.com/',
    'not a url',
  ]) {
    assert.equal(externalLinkAllowed(url), false, url);
  }
});

test('permissions: none, except sanitised clipboard writes from our own top frame', () => {
  assert.equal(permissionAllowed('clipboard-sanitized-write', 'app://nuzo/index.html', true), true);
  assert.equal(permissionAllowed('clipboard-sanitized-write', 'app://nuzo/index.html', false), false);
  assert.equal(permissionAllowed('clipboard-sanitized-write', 'https://example.com/', true), false);
  for (const p of ['clipboard-read', 'media', 'geolocation', 'notifications', 'openExternal', 'fullscreen', 'hid', 'serial', 'usb', 'unknown']) {
    assert.equal(permissionAllowed(p, 'app://nuzo/index.html', true), false, p);
  }
});

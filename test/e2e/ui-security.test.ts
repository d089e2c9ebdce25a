/**
 * The loopback window's HTTP layer (DESIGN §9: loopback only, per-launch token, Host and Origin
 * checks, strict CSP) against `startUiServer` with the real service API on a temporary data folder.
 * The token is a bearer header, never a cookie: cookies are per host, not per port, so a cookie
 * from 127.0.0.1:<port> would reach every other server on 127.0.0.1 (checked in real Chromium).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type ServiceHandle } from '../../main/headless.js';
import { startUiServer, type UiServer } from '../../main/ui-api/http-server.js';
import { CSP } from '../../main/ui-api/http-security.js';
import { repoRoot } from '../helpers/paths.js';
import { browserMissing, launchChromium } from './browser.js';
import { apiCall, nextEvent, raw, recordingServer } from './http-raw.js';

const rendererDir = join(repoRoot, 'dist', 'renderer');

let root: string;
let service: ServiceHandle;
let ui: UiServer;
let port: number;
let token: string;
const logged: string[] = [];

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'nuzo-ui-security-'));
  const home = join(root, 'home');
  const site = join(root, 'site');
  mkdirSync(join(site, 'assets'), { recursive: true });
  writeFileSync(join(site, 'index.html'), '<!doctype html><title>Nuzo test page</title><script type="module" src="./assets/app.js"></script>');
  writeFileSync(join(site, 'assets', 'app.js'), 'export const ok = 1;');
  writeFileSync(join(site, 'assets', 'style.css'), 'body{}');
  // Something a traversal would love to read, one level above the served folder.
  writeFileSync(join(root, 'secret.txt'), 'TOP-SECRET-OUTSIDE-STATIC');
  service = await startService({ home, log: () => undefined });
  ui = await startUiServer({ api: service.api, staticDir: site, port: 0, log: (line) => logged.push(line) });
  port = ui.port;
  token = ui.token;
});

after(async () => {
  await ui?.close();
  await service?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('startUiServer', () => {
  test('prints a loopback URL carrying a long random token in its fragment', () => {
    assert.equal(ui.url, `http://127.0.0.1:${port}/#token=${token}`);
    assert.equal(new URL(ui.url).search, '', 'nothing secret in the part a browser sends');
    assert.ok(token.length >= 40, 'token has at least 240 bits of base64url');
  });

  test('without the token every /api route is 401 and says which URL to open', async () => {
    const origin = `http://127.0.0.1:${port}`;
    for (const method of ['inbox', 'exportData', 'settings']) {
      const body = method === 'exportData' ? JSON.stringify({ path: join(root, 'stolen.jsonl') }) : '{}';
      const api = await raw(port, { method: 'POST', path: `/api/${method}`, headers: { 'content-type': 'application/json', origin }, body });
      assert.equal(api.status, 401, method);
      assert.equal((JSON.parse(api.body) as { error: { code: string } }).error.code, 'auth_failed');
      assert.match(api.body, /nuzo serve --ui/);
      assert.match(String(api.headers['www-authenticate']), /^Bearer/);
    }
    assert.equal(existsSync(join(root, 'stolen.jsonl')), false);
    assert.equal((await raw(port, { path: '/api/events' })).status, 401);
    assert.equal((await raw(port, { path: '/api' })).status, 401);
    assert.equal((await raw(port, { path: '/api/inbox' })).status, 401, 'the token is checked before the method');
  });

  test('the static window (no data in it) loads without the token and never sets a cookie', async () => {
    for (const path of ['/', '/assets/app.js', '/memories/01ABC']) {
      const res = await raw(port, { path });
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['set-cookie'], undefined, path);
      assert.doesNotMatch(res.body, new RegExp(token));
    }
    const api = await apiCall(port, token, 'inbox', {});
    assert.equal(api.status, 200);
    assert.equal(api.headers['set-cookie'], undefined);
  });

  test('only the bearer header authorises: a wrong token, a cookie or a query string is refused', async () => {
    const origin = `http://127.0.0.1:${port}`;
    const post = (path: string, headers: Record<string, string>) => raw(port, { method: 'POST', path, headers: { 'content-type': 'application/json', origin, ...headers }, body: '{}' });
    assert.equal((await post('/api/inbox', { authorization: 'Bearer not-the-token' })).status, 401);
    assert.equal((await post('/api/inbox', { authorization: `Bearer ${token}x` })).status, 401);
    assert.equal((await post('/api/inbox', { authorization: `Basic ${token}` })).status, 401);
    assert.equal((await post('/api/inbox', { authorization: token })).status, 401);
    assert.equal((await post('/api/inbox', { cookie: `nuzo_token=${token}` })).status, 401, 'the old cookie is not a credential any more');
    assert.equal((await post(`/api/inbox?token=${token}`, {})).status, 401);
    assert.equal((await raw(port, { path: `/api/events?token=${token}` })).status, 401);
    assert.equal((await post('/api/inbox', { authorization: `bearer ${token}` })).status, 200, 'the scheme is case-insensitive');
  });

  test('the old ?token= address moves the token into the fragment, without a cookie', async () => {
    const res = await raw(port, { path: `/?token=${token}` });
    assert.equal(res.status, 303);
    assert.equal(res.headers.location, `/#token=${token}`);
    assert.equal(res.headers['set-cookie'], undefined);
    assert.equal(res.headers['cache-control'], 'no-store');
    const wrong = await raw(port, { path: '/?token=not-the-token' });
    assert.equal(wrong.status, 401);
    assert.doesNotMatch(wrong.body, new RegExp(token));
  });

  test('a browser still holding the old host-wide cookie is told to drop it', async () => {
    const res = await raw(port, { path: '/', headers: { cookie: 'other=1; nuzo_token=left-over' } });
    assert.equal(res.status, 200);
    const cookie = res.headers['set-cookie']?.[0] ?? '';
    assert.match(cookie, /^nuzo_token=;/);
    assert.match(cookie, /;\s*Max-Age=0/i);
    assert.equal((await raw(port, { path: '/', headers: { cookie: 'other=1' } })).headers['set-cookie'], undefined);
  });

  test('a Host other than 127.0.0.1:<port> or localhost:<port> is refused (DNS rebinding)', async () => {
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, '127.0.0.1', `[::1]:${port}`, `localhost.evil.example:${port}`]) {
      const res = await raw(port, { path: '/', headers: { host } });
      assert.ok(res.status === 421 || res.status === 403, `Host ${host} gave ${res.status}`);
      assert.doesNotMatch(res.body, /Nuzo test page/);
      const api = await raw(port, { method: 'POST', path: '/api/inbox', headers: { host, authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
      assert.ok(api.status === 421 || api.status === 403, `Host ${host} on /api gave ${api.status}`);
      assert.doesNotMatch(api.body, /"ok":true/);
    }
    const ok = await raw(port, { path: '/', headers: { host: `localhost:${port}` } });
    assert.equal(ok.status, 200);
    const okApi = await raw(port, { method: 'POST', path: '/api/inbox', headers: { host: `localhost:${port}`, origin: `http://localhost:${port}`, authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
    assert.equal(okApi.status, 200);
  });

  test('a cross-origin POST is refused even with a valid token', async () => {
    for (const origin of ['http://evil.example', `http://127.0.0.1:${port + 1}`, 'null', `https://127.0.0.1:${port}`]) {
      const res = await raw(port, { method: 'POST', path: '/api/exportData', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', origin }, body: JSON.stringify({ path: join(root, 'csrf.jsonl') }) });
      assert.equal(res.status, 403, `Origin ${origin}`);
    }
    const crossSite = await raw(port, { method: 'POST', path: '/api/inbox', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }, body: '{}' });
    assert.equal(crossSite.status, 403, 'no Origin but Sec-Fetch-Site: cross-site');
    assert.equal(existsSync(join(root, 'csrf.jsonl')), false);
  });

  test('a CORS preflight gets no CORS grant, so no other origin can send the bearer header', async () => {
    const res = await raw(port, {
      method: 'OPTIONS',
      path: '/api/inbox',
      headers: { origin: `http://127.0.0.1:${port + 1}`, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    assert.ok(res.status >= 400, `preflight gave ${res.status}`);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    assert.equal(res.headers['access-control-allow-headers'], undefined);
  });

  test('a POST that is not application/json is refused (no simple-request CSRF)', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '']) {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, origin: `http://127.0.0.1:${port}` };
      if (type !== '') headers['content-type'] = type;
      const res = await raw(port, { method: 'POST', path: '/api/inbox', headers, body: '{}' });
      assert.equal(res.status, 403, `Content-Type ${type || '(none)'}`);
    }
  });

  test('an unknown or inherited method name is 404, a GET on a method 405', async () => {
    for (const name of ['dropEverything', 'constructor', '__proto__', 'toString', 'subscribe']) {
      const res = await apiCall(port, token, name, {});
      assert.equal(res.status, 404, name);
      assert.equal(res.json.error?.code, 'not_found');
    }
    const get = await raw(port, { path: '/api/inbox', headers: { authorization: `Bearer ${token}` } });
    assert.equal(get.status, 405);
  });

  test('every response carries the strict CSP and the other security headers', async () => {
    const responses = [
      await raw(port, { path: '/' }),
      await raw(port, { path: '/assets/app.js' }),
      await raw(port, { method: 'POST', path: '/api/inbox', headers: { 'content-type': 'application/json' }, body: '{}' }),
      await raw(port, { path: '/', headers: { host: 'evil.example' } }),
      await apiCall(port, token, 'inbox', {}),
    ];
    for (const res of responses) {
      assert.equal(res.headers['content-security-policy'], CSP);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
    }
    assert.match(CSP, /script-src 'self';/);
    assert.match(CSP, /frame-ancestors 'none'/);
    assert.equal(responses[2]!.headers['cache-control'], 'no-store', 'a refused API call is not cached');
    assert.equal(responses[4]!.headers['cache-control'], 'no-store', 'API answers are never cached');
  });

  test('path traversal never leaves the served folder', async () => {
    const attempts = ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/assets/%2e%2e/%2e%2e/secret.txt', '/..%5csecret.txt', '/assets/app.js%00.html', '//..//secret.txt'];
    for (const path of attempts) {
      const res = await raw(port, { path });
      assert.doesNotMatch(res.body, /TOP-SECRET/, path);
      assert.ok(res.status === 400 || res.status === 404 || (res.status === 200 && /Nuzo test page/.test(res.body)), `${path} gave ${res.status}`);
    }
  });

  test('static files get their content type; unknown routes fall back to index.html; missing assets are 404', async () => {
    const auth = {};
    const js = await raw(port, { path: '/assets/app.js', headers: auth });
    assert.equal(js.status, 200);
    assert.match(String(js.headers['content-type']), /^text\/javascript/);
    const css = await raw(port, { path: '/assets/style.css', headers: auth });
    assert.match(String(css.headers['content-type']), /^text\/css/);
    const route = await raw(port, { path: '/memories/01ABC', headers: auth });
    assert.equal(route.status, 200);
    assert.match(String(route.headers['content-type']), /^text\/html/);
    assert.match(route.body, /Nuzo test page/);
    assert.equal((await raw(port, { path: '/assets/missing.js', headers: auth })).status, 404);
  });

  test('API params are validated; errors map to statuses with a code', async () => {
    const badJson = await raw(port, { method: 'POST', path: '/api/searchMemories', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{not json' });
    assert.equal(badJson.status, 400);
    const badParams = await apiCall(port, token, 'searchMemories', { query: 5, surprise: true });
    assert.equal(badParams.status, 400);
    assert.equal(badParams.json.error?.code, 'validation_error');
    const grant = await apiCall(port, token, 'createGrant', { host: 'h', scope: 'user', origins: ['network'], kinds: ['fact'], requires_attestation: false, expires_at: null });
    assert.equal(grant.status, 400, 'network can never be granted');
    const missing = await apiCall(port, token, 'memory', { memory_id: '01ZZZZZZZZZZZZZZZZZZZZZZZZ' });
    assert.equal(missing.status, 404);
    assert.equal(missing.json.error?.code, 'not_found');
  });

  test('the body limit is 1 MiB', async () => {
    const body = JSON.stringify({ content: 'x'.repeat(1024 * 1024 + 10) });
    const res = await raw(port, { method: 'POST', path: '/api/createMemory', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
    assert.equal(res.status, 413);
  });

  test('calls reach the real service: write, read, revision conflict as 409', async () => {
    const created = await apiCall(port, token, 'createMemory', { content: 'The HTTP layer passes writes to the service.', kind: 'fact', scope: 'user', tags: ['http'] });
    assert.equal(created.status, 200, created.body);
    const memory = created.json.result as { id: string; revision: number; origin: string };
    assert.equal(memory.origin, 'user');
    const found = await apiCall(port, token, 'searchMemories', { query: 'passes' });
    assert.ok((found.json.result as { items: Array<{ id: string }> }).items.some((m) => m.id === memory.id));
    const updated = await apiCall(port, token, 'updateMemory', { memory_id: memory.id, expected_revision: memory.revision, content: 'The HTTP layer passes writes to the service, revised.' });
    assert.equal(updated.status, 200, updated.body);
    const stale = await apiCall(port, token, 'updateMemory', { memory_id: memory.id, expected_revision: memory.revision, content: 'A stale edit.' });
    assert.equal(stale.status, 409);
    assert.equal(stale.json.error?.code, 'revision_conflict');
    const duplicate = await apiCall(port, token, 'createMemory', { content: 'The HTTP layer passes writes to the service, revised.', kind: 'fact', scope: 'user' });
    assert.equal(duplicate.status, 409);
    assert.equal(duplicate.json.error?.code, 'duplicate');
  });

  test('live events arrive as server-sent events', async () => {
    const { ready, event } = nextEvent(port, token, (e) => e.type === 'memory.changed');
    await ready;
    const created = await apiCall(port, token, 'createMemory', { content: 'An event should announce this memory.', scope: 'user' });
    const id = (created.json.result as { id: string }).id;
    const seen = await event;
    assert.equal(seen.id, id);
  });

  test('an event stream that closes unsubscribes from the service', async () => {
    const listeners = (): number => service.engine.events.listenerCount('event');
    // The previous test's stream closes asynchronously; start from a settled count.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = listeners();
    const { ready, event } = nextEvent(port, token, (e) => e.type === 'memory.changed');
    await ready;
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(listeners(), before + 1, 'one subscription per open stream');
    await apiCall(port, token, 'createMemory', { content: 'Closing the stream after this event.', scope: 'user' });
    await event;
    for (let i = 0; i < 50 && listeners() !== before; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(listeners(), before, 'the subscription ended with the connection');
  });

  test('only loopback is bound', async () => {
    assert.match(ui.url, /^http:\/\/127\.0\.0\.1:\d+\/#token=/);
    assert.equal(logged.filter((line) => line.includes(token)).length, 0, 'the token never goes to the log');
  });
});

const browserSkip = browserMissing() ?? (existsSync(join(rendererDir, 'index.html')) ? false : `${rendererDir} is missing (run npm run build)`);
if (browserSkip !== false) process.stderr.write(`ui-security browser checks skipped: ${browserSkip}\n`);

describe('the credential in a real browser (Chromium, the built window)', { skip: browserSkip, timeout: 120_000 }, () => {
  test('another server on 127.0.0.1 never receives Nuzo’s token after the window was opened', async () => {
    const other = await recordingServer();
    const real = await startUiServer({ api: service.api, staticDir: rendererDir, port: 0, log: (line) => logged.push(line) });
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      // The control: a cookie for the host 127.0.0.1 reaches every port, which is the whole defect.
      // If the other server sees this one, it would have seen a Nuzo cookie too, had there been one.
      await context.addCookies([{ name: 'control', value: 'crosses-ports', domain: '127.0.0.1', path: '/' }]);
      const page = await context.newPage();
      const apiRequests: Array<{ url: string; headers: Record<string, string> }> = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/api/')) apiRequests.push({ url: request.url(), headers: request.headers() });
      });
      const isOk = (path: string) => (response: { url(): string; status(): number }) => new URL(response.url()).pathname === path && response.status() === 200;
      const inbox = page.waitForResponse(isOk('/api/inbox'));
      const events = page.waitForResponse(isOk('/api/events'));
      await page.goto(real.url);
      await inbox;
      await events;
      assert.doesNotMatch(page.url(), /token/, 'the token left the address bar');
      assert.equal(await page.evaluate("sessionStorage.getItem('nuzo.token')"), real.token, 'kept for this tab only');
      assert.ok(apiRequests.length >= 2);
      for (const request of apiRequests) {
        assert.equal(request.headers['authorization'], `Bearer ${real.token}`, request.url);
        assert.doesNotMatch(request.url, /token/);
      }

      // A reload keeps working (sessionStorage survives it); the old ?token= address still opens.
      const reloaded = page.waitForResponse(isOk('/api/inbox'));
      await page.reload();
      await reloaded;
      const legacy = page.waitForResponse(isOk('/api/inbox'));
      await page.goto(`http://127.0.0.1:${real.port}/?token=${real.token}`);
      await legacy;
      assert.doesNotMatch(page.url(), /token/);

      // Now the person visits another local server, and that server's page calls it back.
      await page.goto(`http://127.0.0.1:${other.port}/visit`);
      await page.evaluate("fetch('/fetched', { credentials: 'include' }).then((r) => r.text())");
      assert.ok(other.seen.length >= 2, 'the other server was visited and fetched');
      for (const request of other.seen) {
        assert.equal(request.headers.cookie, 'control=crosses-ports', `Cookie header at ${request.url}`);
        assert.doesNotMatch(JSON.stringify(request), new RegExp(real.token), `nothing of the token at ${request.url}`);
      }
      const cookies = await context.cookies();
      assert.deepEqual(cookies.map((c) => c.name), ['control'], 'Nuzo stored no cookie at all');
    } finally {
      await browser.close().catch(() => undefined);
      await real.close();
      await other.close();
    }
  });

  test('a tab without the token gets no data and is told which address to open', async () => {
    const real = await startUiServer({ api: service.api, staticDir: rendererDir, port: 0, log: (line) => logged.push(line) });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const refused = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/inbox');
      await page.goto(`http://127.0.0.1:${real.port}/`);
      assert.equal((await refused).status(), 401);
      await page.getByText(/nuzo serve --ui/).first().waitFor({ timeout: 10_000 });
    } finally {
      await browser.close().catch(() => undefined);
      await real.close();
    }
  });
});

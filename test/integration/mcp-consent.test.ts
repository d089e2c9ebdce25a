import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { spawnSync } from 'node:child_process';
import { tempHome } from '../helpers/temp-home.js';
import { nuzoCli } from '../helpers/paths.js';
import { callTool, connectClient, startServe, windowApi, type RunningService } from '../helpers/service-process.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function count(home: string, sql: string, ...params: unknown[]): number {
  const db = new Database(join(home, 'nuzo.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(sql).get(...params) as { n: number }).n;
  } finally {
    db.close();
  }
}
const memoriesWith = (home: string, text: string): number => count(home, 'SELECT count(*) n FROM memories WHERE content = ?', text);

describe('MCP through the real bridge, with the window open', () => {
  let home: string;
  let cleanup: () => void;
  let service: RunningService;
  const clients: Client[] = [];
  const client = async (options: Parameters<typeof connectClient>[1] = {}): Promise<Client> => {
    const c = await connectClient(home, options);
    clients.push(c);
    return c;
  };

  before(async () => {
    ({ home, cleanup } = tempHome('nuzo-mcp'));
    service = await startServe(home, { ui: true, env: { NUZO_CONSENT_WAIT_MS: '1500' } });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await service.stop();
    cleanup();
  });

  test('tools/list: the eight tools, valid names, descriptions, schemas and annotations', async () => {
    const c = await client();
    const { tools } = await c.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'memory_capture_status', 'memory_confirm_capture', 'memory_context', 'memory_forget', 'memory_get', 'memory_list', 'memory_recall', 'memory_suggest_capture',
    ]);
    for (const tool of tools) {
      assert.match(tool.name, TOOL_NAME);
      assert.ok(tool.description && tool.description.length > 20, tool.name);
      assert.equal(tool.inputSchema.type, 'object');
      assert.ok(tool.outputSchema, `${tool.name} has an output schema`);
      // refusals carry structuredContent too, so the schema admits the error envelope as well
      const variants = (tool.outputSchema as { anyOf?: Array<{ properties?: Record<string, unknown> }> }).anyOf ?? [];
      assert.ok(variants.some((v) => v.properties && 'error' in v.properties), `${tool.name} admits {error}`);
      assert.equal(typeof tool.annotations?.readOnlyHint, 'boolean');
    }
    assert.equal(tools.find((t) => t.name === 'memory_forget')?.annotations?.destructiveHint, true);
  });

  test('form accept with approve writes exactly once, and the result carries the memory', async () => {
    const messages: string[] = [];
    const c = await client({ elicit: (message) => { messages.push(message); return { action: 'accept', content: { approve: true } }; } });
    const r = await callTool(c, 'memory_confirm_capture', { content: 'Deploy previews live on the staging cluster', kind: 'fact', tags: ['deploy'] });
    assert.equal(r.isError, false, JSON.stringify(r.data));
    const memory = r.data['memory'] as { id: string; origin: string; content: string };
    assert.equal(memory.origin, 'agent');
    assert.equal(r.data['via'], 'form');
    assert.match(messages[0]!, /Deploy previews live on the staging cluster/);
    assert.match(messages[0]!, /kind: fact/);
    assert.equal(memoriesWith(home, 'Deploy previews live on the staging cluster'), 1);
    // the same confirmation again is a replay: refused, nothing new
    const again = await callTool(c, 'memory_confirm_capture', { content: 'Deploy previews live on the staging cluster', kind: 'fact', tags: ['deploy'] });
    assert.equal(again.code, 'duplicate');
    assert.equal(memoriesWith(home, 'Deploy previews live on the staging cluster'), 1);
  });

  test('decline, and accept with approve false, write nothing and say consent_declined', async () => {
    const declining = await client({ elicit: () => ({ action: 'decline' }) });
    const r1 = await callTool(declining, 'memory_confirm_capture', { content: 'Declined memory one' });
    assert.equal(r1.code, 'consent_declined');
    const saysNo = await client({ elicit: () => ({ action: 'accept', content: { approve: false } }) });
    const r2 = await callTool(saysNo, 'memory_confirm_capture', { content: 'Declined memory two' });
    assert.equal(r2.code, 'consent_declined');
    assert.equal(memoriesWith(home, 'Declined memory one') + memoriesWith(home, 'Declined memory two'), 0);
  });

  test('cancel leaves the offer pending; a later window approval executes it once; status is for its requester only', async () => {
    const c = await client({ elicit: () => ({ action: 'cancel' }) });
    const r = await callTool(c, 'memory_confirm_capture', { content: 'Approved later in the window' });
    assert.equal(r.code, 'consent_pending');
    const offerId = ((r.data['error'] as { details: { offer_id: string } }).details).offer_id;
    assert.match(offerId, /^of_/);
    assert.equal(memoriesWith(home, 'Approved later in the window'), 0);

    const pending = await callTool(c, 'memory_capture_status', { offer_id: offerId });
    assert.equal(pending.data['state'], 'pending');
    const stranger = await client({ name: 'other-host' });
    assert.equal((await callTool(stranger, 'memory_capture_status', { offer_id: offerId })).code, 'not_found');

    const inbox = await windowApi<Array<{ id: string; draft: { origin: string } }>>(service, 'inbox');
    assert.equal(inbox.result?.find((o) => o.id === offerId)?.draft.origin, 'agent');
    const [a, b] = await Promise.all([
      windowApi<{ state: string }>(service, 'decideOffer', { offer_id: offerId, approve: true }),
      windowApi<{ state: string }>(service, 'decideOffer', { offer_id: offerId, approve: true }),
    ]);
    assert.deepEqual([a.ok, b.ok].sort(), [false, true], 'exactly one of two simultaneous approvals wins');
    assert.equal((a.ok ? b : a).error?.code, 'offer_closed');
    assert.equal(memoriesWith(home, 'Approved later in the window'), 1);
    const done = await callTool(c, 'memory_capture_status', { offer_id: offerId });
    assert.equal(done.data['state'], 'executed');
    const written = done.data['memory'] as { id: string; content: string; revision: number };
    assert.equal(written.content, 'Approved later in the window');
    // once the person moves it to a scope this connection cannot read, the status stops showing it
    const moved = await windowApi(service, 'updateMemory', { memory_id: written.id, expected_revision: written.revision, scope: 'project:elsewhere-00000000' });
    assert.ok(moved.ok, JSON.stringify(moved.error));
    const after = await callTool(c, 'memory_capture_status', { offer_id: offerId });
    assert.equal(after.data['state'], 'executed');
    assert.equal(after.data['memory'], null);
  });

  test('a host without forms gets consent_pending while the window can show it; confirm:true alone writes nothing', async () => {
    const c = await client();
    const r = await callTool(c, 'memory_confirm_capture', { content: 'Host says it displayed this', confirm: true });
    assert.equal(r.code, 'consent_pending');
    assert.equal(memoriesWith(home, 'Host says it displayed this'), 0);
  });

  test('window edits become the final fields, with origin user', async () => {
    const c = await client();
    const r = await callTool(c, 'memory_confirm_capture', { content: 'Original agent wording', kind: 'note' });
    const offerId = (r.data['error'] as { details: { offer_id: string } }).details.offer_id;
    const decided = await windowApi<{ state: string; memory_id: string }>(service, 'decideOffer', { offer_id: offerId, approve: true, edits: { content: 'Edited by the person', kind: 'decision' } });
    assert.equal(decided.result?.state, 'executed');
    assert.equal(memoriesWith(home, 'Original agent wording'), 0);
    assert.equal(count(home, "SELECT count(*) n FROM memories WHERE content = 'Edited by the person' AND origin = 'user' AND kind = 'decision'"), 1);
  });

  test('a mutated confirmation needs its own decision: consent for one input never writes another', async () => {
    let answers = 0;
    const c = await client({ elicit: () => (answers++ === 0 ? { action: 'accept', content: { approve: true } } : { action: 'decline' }) });
    assert.equal((await callTool(c, 'memory_confirm_capture', { content: 'Mutation base text' })).isError, false);
    const mutated = await callTool(c, 'memory_confirm_capture', { content: 'Mutation base text, but changed' });
    assert.equal(mutated.code, 'consent_declined');
    assert.equal(memoriesWith(home, 'Mutation base text, but changed'), 0);
  });

  test('another project\'s scope is scope_denied; user scope is allowed', async () => {
    const c = await client({ elicit: () => ({ action: 'accept', content: { approve: true } }) });
    const denied = await callTool(c, 'memory_confirm_capture', { content: 'Not my project', scope: 'project:someone-else-12345678' });
    assert.equal(denied.code, 'scope_denied');
    assert.equal(count(home, 'SELECT count(*) n FROM offers WHERE scope = ?', 'project:someone-else-12345678'), 0);
    const ok = await callTool(c, 'memory_confirm_capture', { content: 'Personal preference: dark roast', scope: 'user', kind: 'preference' });
    assert.equal(ok.isError, false);
  });

  test('a standing grant writes at once for covered origins; a network-lowered draft still asks a person', async () => {
    const c = await client({ name: 'granted-host' });
    const scope = ((await callTool(c, 'memory_suggest_capture', { content: 'probe' })).data['scope']) as string;
    const grant = await windowApi<{ id: string }>(service, 'createGrant', { host: 'granted-host', scope, origins: ['agent'], kinds: ['fact', 'note'], requires_attestation: false, expires_at: null });
    assert.ok(grant.ok, JSON.stringify(grant.error));
    const refused = await windowApi(service, 'createGrant', { host: 'granted-host', scope, origins: ['network'], kinds: ['fact'], requires_attestation: false, expires_at: null });
    assert.equal(refused.error?.code, 'validation_error');

    const suggest = await callTool(c, 'memory_suggest_capture', { content: 'Granted fact about the build' });
    assert.equal(suggest.data['would'], 'write_under_grant');
    const w = await callTool(c, 'memory_confirm_capture', { content: 'Granted fact about the build' });
    assert.equal(w.data['via'], 'standing');
    const web = await callTool(c, 'memory_confirm_capture', { content: 'Fact copied from a web page', source_origin: 'network' });
    assert.equal(web.code, 'consent_pending');
    assert.equal(memoriesWith(home, 'Fact copied from a web page'), 0);
    const decision = await callTool(c, 'memory_confirm_capture', { content: 'A decision is not covered', kind: 'decision' });
    assert.equal(decision.code, 'consent_pending');
  });

  test('an attestation grant counts confirm:true only', async () => {
    const c = await client({ name: 'attesting-host' });
    const scope = ((await callTool(c, 'memory_suggest_capture', { content: 'probe' })).data['scope']) as string;
    await windowApi(service, 'createGrant', { host: 'attesting-host', scope, origins: ['agent'], kinds: ['note'], requires_attestation: true, expires_at: null });
    assert.equal((await callTool(c, 'memory_confirm_capture', { content: 'Unattested note' })).code, 'consent_pending');
    const attested = await callTool(c, 'memory_confirm_capture', { content: 'Attested note', confirm: true });
    assert.equal(attested.data['via'], 'attested');
  });

  test('forget always asks, is a soft delete, and the window can restore it', async () => {
    const c = await client({ elicit: () => ({ action: 'accept', content: { approve: true } }) });
    const w = await callTool(c, 'memory_confirm_capture', { content: 'Soon to be forgotten' });
    const memory = w.data['memory'] as { id: string; revision: number };
    const stale = await callTool(c, 'memory_forget', { memory_id: memory.id, expected_revision: memory.revision + 1 });
    assert.equal(stale.code, 'revision_conflict');
    const f = await callTool(c, 'memory_forget', { memory_id: memory.id, expected_revision: memory.revision });
    assert.equal(f.data['status'], 'forgotten');
    assert.equal((await callTool(c, 'memory_get', { memory_id: memory.id })).code, 'not_found', 'a forgotten memory is not readable over MCP');
    assert.equal((await callTool(c, 'memory_recall', { query: 'Soon to be forgotten' })).data['items'] instanceof Array, true);
    assert.equal(((await callTool(c, 'memory_recall', { query: 'forgotten' })).data['items'] as unknown[]).length, 0);
    const restored = await windowApi<{ deleted_at: string | null }>(service, 'restoreMemory', { memory_id: memory.id, expected_revision: memory.revision + 1 });
    assert.equal(restored.result?.deleted_at, null);
  });

  test('read tools: recall, get, list and context stay within the connection\'s scopes', async () => {
    const c = await client();
    const hits = (await callTool(c, 'memory_recall', { query: 'staging' })).data['items'] as Array<{ id: string; untrusted: boolean }>;
    assert.ok(hits.length >= 1);
    const got = await callTool(c, 'memory_get', { memory_id: hits[0]!.id });
    assert.equal((got.data['memory'] as { id: string }).id, hits[0]!.id);
    assert.equal((await callTool(c, 'memory_get', { memory_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' })).code, 'not_found');
    const listed = await callTool(c, 'memory_list', { limit: 2 });
    assert.equal((listed.data['items'] as unknown[]).length, 2);
    assert.equal(typeof listed.data['next_cursor'], 'string');
    const pack = await callTool(c, 'memory_context', { budget_tokens: 200 });
    assert.match(pack.data['text'] as string, /Memories from Nuzo/);
    assert.equal((await callTool(c, 'memory_recall', { query: 'x', scope: 'project:nope-00000000' })).code, 'scope_denied');
    const bad = await callTool(c, 'memory_recall', { query: 42 });
    assert.equal(bad.code, 'validation_error');
  });

  test('eight bridges at once, each writing 200 memories under a grant: all present, none duplicated', async () => {
    const hosts = Array.from({ length: 8 }, (_, i) => `bulk-host-${i}`);
    const bridges = await Promise.all(hosts.map((name) => client({ name })));
    const scope = ((await callTool(bridges[0]!, 'memory_suggest_capture', { content: 'probe' })).data['scope']) as string;
    for (const host of hosts) await windowApi(service, 'createGrant', { host, scope, origins: ['agent'], kinds: ['note'], requires_attestation: false, expires_at: null });
    await Promise.all(
      bridges.map(async (b, i) => {
        for (let n = 0; n < 200; n++) {
          // distinct words per item: near-duplicates would (rightly) need a person, not a grant
          const words = Array.from({ length: 6 }, (_, k) => ((i * 7919 + n * 104729 + k * 1299709) % 2147483647).toString(36));
          const r = await callTool(b, 'memory_confirm_capture', { content: `bulk ${i}-${n}: ${words.join(' ')}` });
          assert.equal(r.isError, false, JSON.stringify(r.data));
        }
      }),
    );
    assert.equal(count(home, "SELECT count(*) n FROM memories WHERE content LIKE 'bulk %'"), 1600);
    assert.equal(count(home, "SELECT count(DISTINCT content) n FROM memories WHERE content LIKE 'bulk %'"), 1600);
  });
});

describe('MCP without any window', () => {
  test('a host without forms and no window gets consent_unavailable, before any offer exists', async () => {
    const { home, cleanup } = tempHome('nuzo-mcp-nowin');
    const service = await startServe(home, { env: { NUZO_CONSENT_WAIT_MS: '1000' } });
    try {
      const c = await connectClient(home);
      const r = await callTool(c, 'memory_confirm_capture', { content: 'Nobody can see this' });
      assert.equal(r.code, 'consent_unavailable');
      assert.equal(count(home, 'SELECT count(*) n FROM offers'), 0);
      assert.equal(memoriesWith(home, 'Nobody can see this'), 0);
      assert.match(r.data['error'] ? (r.data['error'] as { message: string }).message : '', /nuzo window/);
      // the refusal's advice works: `nuzo window` opens one for the running service
      const opened = spawnSync(process.execPath, [nuzoCli, 'window'], { encoding: 'utf8', env: { ...process.env, NUZO_HOME: home }, timeout: 20_000 });
      assert.equal(opened.status, 0, opened.stderr);
      assert.match(opened.stdout.trim(), /^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+$/);
      const again = await callTool(c, 'memory_confirm_capture', { content: 'Nobody can see this' });
      assert.equal(again.code, 'consent_pending');
      await c.close();
    } finally {
      await service.stop();
      cleanup();
    }
  });

  test('a pending offer survives a service restart, and an expired one cannot execute', async () => {
    const { home, cleanup } = tempHome('nuzo-mcp-restart');
    let service = await startServe(home, { ui: true, env: { NUZO_CONSENT_WAIT_MS: '500' } });
    try {
      const c = await connectClient(home);
      const r = await callTool(c, 'memory_confirm_capture', { content: 'Survives a restart' });
      const offerId = (r.data['error'] as { details: { offer_id: string } }).details.offer_id;
      await c.close();
      await service.stop();
      service = await startServe(home, { ui: true, env: { NUZO_OFFER_TTL_MS: '1200', NUZO_CONSENT_WAIT_MS: '500' } });
      const inbox = await windowApi<Array<{ id: string }>>(service, 'inbox');
      assert.ok(inbox.result?.some((o) => o.id === offerId), 'the offer is still in the inbox after restart');
      const approved = await windowApi<{ state: string }>(service, 'decideOffer', { offer_id: offerId, approve: true });
      assert.equal(approved.result?.state, 'executed');
      assert.equal(memoriesWith(home, 'Survives a restart'), 1);

      const c2 = await connectClient(home);
      const r2 = await callTool(c2, 'memory_confirm_capture', { content: 'Expires unseen' });
      const expiring = (r2.data['error'] as { details: { offer_id: string } }).details.offer_id;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const late = await windowApi<{ state: string }>(service, 'decideOffer', { offer_id: expiring, approve: true });
      assert.equal(late.result?.state ?? late.error?.code, 'expired');
      assert.equal(memoriesWith(home, 'Expires unseen'), 0);
      await c2.close();
    } finally {
      await service.stop();
      cleanup();
    }
  });
});

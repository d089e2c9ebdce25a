/**
 * The app restarting under a live host session: the bridge reconnects (starting the service
 * itself), replays the host's initialize, and answers what the old app never will.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, McpError, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { socketLocation } from '../../main/ipc/socket-path.js';
import { bridgeCli } from '../helpers/paths.js';
import { startServe } from '../helpers/service-process.js';
import { tempHome } from '../helpers/temp-home.js';
import { alive, ownerPid, stopOwner } from '../helpers/service-owner.js';

const cleanups: Array<() => unknown> = [];

after(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function freshHome(): string {
  const { home, cleanup } = tempHome('nuzo-bridge-restart');
  const { dir } = socketLocation(home);
  cleanups.push(() => {
    if (process.platform !== 'win32') rmSync(dir, { recursive: true, force: true });
    cleanup();
  });
  cleanups.push(() => stopOwner(home));
  return home;
}

function rows<T>(home: string, sql: string): T[] {
  const db = new Database(join(home, 'nuzo.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

interface Host {
  client: Client;
  stderr: () => string;
}

async function host(home: string, name: string, elicit?: (message: string) => Promise<ElicitResult>): Promise<Host> {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
  const runtime = process.env['XDG_RUNTIME_DIR'];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bridgeCli],
    env: { NUZO_HOME: home, ...(runtime ? { XDG_RUNTIME_DIR: runtime } : {}) },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  cleanups.push(() => client.close().catch(() => {}));
  return { client, stderr: () => stderr };
}

function structured(result: Awaited<ReturnType<Client['callTool']>>): Record<string, unknown> {
  assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
  return result.structuredContent as Record<string, unknown>;
}

test('the app restarts under a live session: the same client session keeps working, initialize was replayed', async () => {
  const home = freshHome();
  const first = await startServe(home);
  cleanups.push(() => first.stop());
  const { client, stderr } = await host(home, 'restart-host');
  structured(await client.callTool({ name: 'memory_recall', arguments: { query: 'before' } }));

  await first.stop();
  assert.equal(alive(first.proc.pid!), false);

  // Nothing is running now: the bridge starts the service itself, replays initialize, then sends this.
  const again = await client.callTool({ name: 'memory_recall', arguments: { query: 'after' } }, undefined, { timeout: 20_000 });
  structured(again);
  const second = ownerPid(home);
  assert.ok(second !== null && second !== first.proc.pid && alive(second), 'a new service runs for the data folder');
  assert.equal((await client.listTools()).tools.length, 8);

  // Each service recorded this host from its initialize and notifications/initialized, under one bridge instance.
  const seen = rows<{ instance: string; host: string | null }>(home, "SELECT instance, host FROM connections WHERE host = 'restart-host'");
  assert.equal(seen.length, 2, JSON.stringify(seen));
  assert.match(seen[0]!.instance, /^bridge:[0-9a-f]{32}$/);
  assert.equal(seen[1]!.instance, seen[0]!.instance);
  assert.match(stderr(), /reconnected to Nuzo; the MCP session was restored/);
});

test('a request in flight when the app dies gets an error at once; its offer survives for the same session', async (t) => {
  const home = freshHome();
  const first = await startServe(home, { env: { NUZO_CONSENT_WAIT_MS: '5000' } });
  cleanups.push(() => first.stop());

  let askedNow: () => void = () => {};
  const asked = new Promise<void>((resolve) => (askedNow = resolve));
  let answerForm: (result: ElicitResult) => void = () => {};
  const form = new Promise<ElicitResult>((resolve) => (answerForm = resolve));
  const { client, stderr } = await host(home, 'inflight-host', () => {
    askedNow();
    return form;
  });

  const content = 'The bridge answers requests the restarted app cannot';
  const call = client.callTool({ name: 'memory_confirm_capture', arguments: { content, kind: 'fact' } }, undefined, { timeout: 60_000 });
  const outcome = call.then(
    () => assert.fail('the call should fail'),
    (error: unknown) => error,
  );
  // The app is now waiting on the person's decision: the call is certainly in flight.
  await asked;
  const killed = Date.now();
  const stopped = first.stop();
  const error = await outcome;
  const answeredMs = Date.now() - killed;
  assert.ok(error instanceof McpError, String(error));
  assert.equal(error.code, -32000);
  assert.match(error.message, /Nuzo restarted while this request was running; retry it/);
  assert.ok(answeredMs < 3_000, `answered ${answeredMs} ms after the kill, as soon as the connection dropped`);
  await stopped;
  t.diagnostic(`in-flight error ${answeredMs} ms after SIGTERM; the old service took ${Date.now() - killed} ms to exit`);

  const offers = rows<{ id: string; requester: string; state: string }>(home, 'SELECT id, requester, state FROM offers');
  assert.equal(offers.length, 1);
  assert.equal(offers[0]!.state, 'pending');
  assert.match(offers[0]!.requester, /^bridge:[0-9a-f]{32}$/);

  // Same session after the restart: the offer is still this requester's to look up.
  const status = structured(await client.callTool({ name: 'memory_capture_status', arguments: { offer_id: offers[0]!.id } }, undefined, { timeout: 20_000 }));
  assert.equal(status['state'], 'pending');

  // The old app's form is answered only now: that answer must not reach the new app.
  answerForm({ action: 'accept', content: { approve: true } });
  await new Promise((r) => setTimeout(r, 300));
  const later = structured(await client.callTool({ name: 'memory_capture_status', arguments: { offer_id: offers[0]!.id } }));
  assert.equal(later['state'], 'pending');
  assert.equal(rows<{ n: number }>(home, 'SELECT count(*) AS n FROM memories')[0]!.n, 0);
  assert.match(stderr(), /dropped the host's answer to request/);
});

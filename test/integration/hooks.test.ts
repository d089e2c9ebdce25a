/**
 * `nuzo-bridge hook <event>` as Claude Code runs it: hook JSON on stdin, a real service behind
 * the socket. A hook always exits 0, quickly, whatever the state of the app or its input.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ensurePrivateDir, socketLocation } from '../../main/ipc/socket-path.js';
import { bridgeCli, nuzoCli } from '../helpers/paths.js';
import { startServe, type RunningService } from '../helpers/service-process.js';
import { tempHome } from '../helpers/temp-home.js';

const cleanups: Array<() => unknown> = [];
after(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function freshHome(): string {
  const { home, cleanup } = tempHome('nuzo-hooks');
  const { dir } = socketLocation(home);
  cleanups.push(() => {
    if (process.platform !== 'win32') rmSync(dir, { recursive: true, force: true });
    cleanup();
  });
  return home;
}

interface HookRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs one hook; `input` null leaves stdin open (a host that never closes it). */
function hook(home: string, args: string[], input: string | null, env: Record<string, string> = {}): Promise<HookRun> {
  const started = Date.now();
  const child = spawn(process.execPath, [bridgeCli, 'hook', ...args], { env: { ...process.env, NUZO_HOME: home, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.on('error', () => {});
  if (input !== null) child.stdin.end(input);
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return new Promise((done) =>
    child.once('exit', (code, signal) => {
      clearTimeout(killer);
      if (input === null) child.stdin.destroy();
      done({ code, signal, stdout, stderr, ms: Date.now() - started });
    }),
  );
}

function assertQuietFailure(run: HookRun, problem: RegExp): void {
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, '');
  const lines = run.stderr.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, run.stderr);
  assert.match(lines[0]!, /^nuzo-bridge: /);
  assert.match(lines[0]!, problem);
}

const project = join(process.cwd());
const sessionStart = JSON.stringify({ session_id: 'sess-1', transcript_path: '/tmp/t.jsonl', cwd: project, hook_event_name: 'SessionStart', source: 'startup' });
const webFetch = (text: string, url = 'https://docs.example.com/release'): string =>
  JSON.stringify({
    session_id: 'sess-1',
    transcript_path: '/tmp/t.jsonl',
    cwd: project,
    hook_event_name: 'PostToolUse',
    tool_name: 'WebFetch',
    tool_input: { url, prompt: 'When does the release train leave?' },
    tool_response: text,
  });

describe('hooks with the service running', () => {
  let home: string;
  let service: RunningService;
  const remembered = 'Release notes are written in the CHANGELOG before tagging';
  const fetched = 'The release train leaves every Thursday at noon UTC';

  before(async () => {
    home = freshHome();
    // Written while no service runs: the CLI takes the data folder's lock itself.
    const file = join(home, 'seed.jsonl');
    writeFileSync(file, `${JSON.stringify({ content: remembered, kind: 'procedure', scope: 'user' })}\n`);
    const imported = spawnSync(process.execPath, [nuzoCli, 'import', file], { env: { ...process.env, NUZO_HOME: home }, encoding: 'utf8' });
    assert.equal(imported.status, 0, imported.stderr);
    service = await startServe(home);
    cleanups.push(() => service.stop());
  });

  test('session-start prints the context pack on stdout', async () => {
    const run = await hook(home, ['session-start'], sessionStart);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Memories from Nuzo/);
    assert.ok(run.stdout.includes(remembered), run.stdout);
    assert.equal(run.stderr, '');
  });

  test('post-tool-use with WebFetch: nothing on stdout, nothing written, a network draft waits for a person', async () => {
    const run = await hook(home, ['post-tool-use'], webFetch(fetched));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, '');

    // Through MCP, as an agent would look: not a memory.
    const client = new Client({ name: 'hooks-test-host', version: '1.0.0' });
    const runtime = process.env['XDG_RUNTIME_DIR'];
    const transport = new StdioClientTransport({ command: process.execPath, args: [bridgeCli], env: { NUZO_HOME: home, ...(runtime ? { XDG_RUNTIME_DIR: runtime } : {}) }, stderr: 'pipe' });
    await client.connect(transport);
    try {
      const recall = await client.callTool({ name: 'memory_recall', arguments: { query: 'release train Thursday', scope: 'user' } });
      const items = (recall.structuredContent as { items: Array<{ content: string }> }).items;
      assert.ok(!items.some((m) => m.content.includes('release train leaves')), JSON.stringify(items));
    } finally {
      await client.close();
    }

    // In the store: one pending offer of origin network, and no memory with that text.
    const db = new Database(join(home, 'nuzo.sqlite'), { readonly: true, fileMustExist: true });
    try {
      const offers = db.prepare("SELECT origin, state, tool, draft_json FROM offers WHERE origin = 'network'").all() as Array<{ origin: string; state: string; draft_json: string }>;
      assert.equal(offers.length, 1);
      assert.equal(offers[0]!.state, 'pending');
      assert.ok(offers[0]!.draft_json.includes('release train'), 'the draft holds the fetched text');
      const written = db.prepare("SELECT count(*) AS n FROM memories WHERE content LIKE '%release train%'").get() as { n: number };
      assert.equal(written.n, 0);
    } finally {
      db.close();
    }
  });

  test('a second identical post-tool-use does not pile up a second draft or fail the host', async () => {
    const run = await hook(home, ['post-tool-use'], webFetch(fetched));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
    const db = new Database(join(home, 'nuzo.sqlite'), { readonly: true, fileMustExist: true });
    try {
      assert.equal((db.prepare("SELECT count(*) AS n FROM offers WHERE origin = 'network'").get() as { n: number }).n, 1);
    } finally {
      db.close();
    }
  });

  test('garbage, empty, non-object stdin and an unknown event: exit 0 with one line on stderr', async () => {
    assertQuietFailure(await hook(home, ['post-tool-use'], '{ this is not json'), /not JSON/);
    assertQuietFailure(await hook(home, ['session-start'], ''), /no hook input/);
    assertQuietFailure(await hook(home, ['post-tool-use'], '[1,2,3]'), /not a JSON object/);
    assertQuietFailure(await hook(home, ['pre-compact'], sessionStart), /unknown hook event/);
    assertQuietFailure(await hook(home, [], sessionStart), /unknown hook event/);
  });

  test('a payload the app refuses (not a PostToolUse object) is reported on stderr, exit 0', async () => {
    const run = await hook(home, ['post-tool-use'], JSON.stringify({ tool_name: 12 }));
    assertQuietFailure(run, /validation_error/);
  });
});

describe('hooks without a usable app', () => {
  test('app down: exit 0 at once, one line on stderr, and the hook does not start the app', async () => {
    const home = freshHome();
    const run = await hook(home, ['session-start'], sessionStart);
    assertQuietFailure(run, /Nuzo app is not running for the data folder/);
    assert.ok(run.ms < 3_000, `took ${run.ms} ms`);
    const post = await hook(home, ['post-tool-use'], webFetch('x'));
    assertQuietFailure(post, /not running/);
    assert.equal(spawnSync('test', ['-e', join(home, 'nuzo.lock.owner')]).status, 1, 'no service was started');
  });

  test('an app that accepts but never answers: exit 0 within NUZO_HOOK_TIMEOUT_MS', { skip: process.platform === 'win32' ? 'Unix sockets only' : false }, async () => {
    const home = freshHome();
    const { dir, path } = socketLocation(home);
    mkdirSync(home, { recursive: true });
    ensurePrivateDir(dir);
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(path, resolve));
    cleanups.push(() => new Promise<void>((resolve) => silent.close(() => resolve())));
    const run = await hook(home, ['session-start'], sessionStart, { NUZO_HOOK_TIMEOUT_MS: '800' });
    silent.close();
    assertQuietFailure(run, /did not answer within/);
    assert.ok(run.ms < 2_000, `took ${run.ms} ms`);
  });

  test('a host that never closes stdin: exit 0 within the deadline', async () => {
    const home = freshHome();
    const run = await hook(home, ['post-tool-use'], null, { NUZO_HOOK_TIMEOUT_MS: '700' });
    assertQuietFailure(run, /stdin did not close in time/);
    assert.ok(run.ms < 2_000, `took ${run.ms} ms`);
  });
});

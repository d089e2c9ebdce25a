import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempHome } from '../helpers/temp-home.js';
import { bridgeCli, nuzoCli } from '../helpers/paths.js';
import { callTool, connectClient, startServe, windowApi } from '../helpers/service-process.js';
import { fakeAwsKeyId, fakeGithubToken } from '../helpers/fake-secrets.js';

/** Every file under a folder, recursively (database, WAL, logs, exports, backups). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    const st = statSync(full, { throwIfNoEntry: false });
    if (!st) return [];
    return st.isDirectory() ? filesUnder(full) : st.isFile() ? [full] : [];
  });
}

test('a secret offered through every channel appears in no result, log, row, offer, audit entry, export or file', async () => {
  const { home, cleanup } = tempHome('nuzo-leaks');
  const github = fakeGithubToken(11);
  const aws = fakeAwsKeyId();
  // what must never appear: the secret bodies after their public prefixes
  const bodies = [github.slice(4), aws.slice(4)];
  const service = await startServe(home, { ui: true, env: { NUZO_CONSENT_WAIT_MS: '300' } });
  const seen: string[] = [];
  try {
    const client = await connectClient(home, { elicit: () => ({ action: 'accept', content: { approve: true } }) });
    const attempts: Array<Record<string, unknown>> = [
      { content: `use ${github} for the release` },
      { content: 'clean text', tags: ['ok', github] },
      { content: 'clean text two', provenance: { source_url: `https://x.example/?key=${aws}` } },
      { content: `aws_access_key_id = ${aws}`, kind: 'fact' },
    ];
    for (const args of attempts) {
      for (const tool of ['memory_suggest_capture', 'memory_confirm_capture']) {
        const r = await client.callTool({ name: tool, arguments: args });
        seen.push(JSON.stringify(r));
      }
    }
    const refused = await callTool(client, 'memory_confirm_capture', attempts[0]!);
    assert.equal(refused.code, 'secret_detected');
    // a window edit that adds a secret is refused too, and the offer stays clean
    const plain = await connectClient(home);
    const pending = await callTool(plain, 'memory_confirm_capture', { content: 'will be edited' });
    const offerId = (pending.data['error'] as { details: { offer_id: string } }).details.offer_id;
    const edit = await windowApi(service, 'decideOffer', { offer_id: offerId, approve: true, edits: { content: `edited with ${github}` } });
    assert.equal(edit.error?.code, 'secret_detected');
    seen.push(JSON.stringify(edit));
    seen.push(JSON.stringify(await windowApi(service, 'createMemory', { content: `typed ${aws}` })));
    await client.close();
    await plain.close();

    const hook = spawnSync(process.execPath, [bridgeCli, 'hook', 'post-tool-use'], {
      input: JSON.stringify({ tool_name: 'Bash', cwd: home, tool_response: { stdout: `export GITHUB_TOKEN=${github}` } }),
      encoding: 'utf8',
      env: { ...process.env, NUZO_HOME: home },
      timeout: 20_000,
    });
    seen.push(hook.stdout, hook.stderr);
    const file = join(home, 'import.jsonl');
    writeFileSync(file, JSON.stringify({ content: `imported ${github}` }) + '\n');
    const imported = spawnSync(process.execPath, [nuzoCli, 'import', file], { encoding: 'utf8', env: { ...process.env, NUZO_HOME: home }, timeout: 20_000 });
    seen.push(imported.stdout, imported.stderr);
    const exported = spawnSync(process.execPath, [nuzoCli, 'export'], { encoding: 'utf8', env: { ...process.env, NUZO_HOME: home }, timeout: 20_000 });
    assert.equal(exported.status, 0);
    seen.push(exported.stdout, exported.stderr);
    seen.push(JSON.stringify(await windowApi(service, 'audit', { limit: 500 })), JSON.stringify(await windowApi(service, 'inbox')));
  } finally {
    await service.stop();
    seen.push(service.stderr());
  }
  try {
    for (const path of filesUnder(home)) {
      if (path.endsWith('import.jsonl')) continue; // the input file itself
      seen.push(readFileSync(path).toString('latin1'));
    }
    const everything = seen.join('\n');
    // case-insensitive: a lower-cased token is still most of the secret
    const haystacks = seen.map((chunk) => chunk.toLowerCase());
    for (const body of bodies) {
      for (let k = 0; k + 10 <= body.length; k += 5) {
        const fragment = body.slice(k, k + 10).toLowerCase();
        const where = haystacks.findIndex((h) => h.includes(fragment));
        if (where >= 0) {
          const at = haystacks[where]!.indexOf(fragment);
          assert.fail(`a fragment of a secret leaked (source ${where}): ${seen[where]!.slice(Math.max(0, at - 120), at).replace(/[^\x20-\x7e]/g, '.')}<SECRET>`);
        }
      }
    }
    assert.match(everything, /secret_detected/, 'the refusals were named');
  } finally {
    cleanup();
  }
});

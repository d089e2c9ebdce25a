/** `nuzo connect HOST [--print]`: stdout carries only the snippet, messages go to stderr, exit codes. */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, test } from 'node:test';
import { connectCommand } from '../../main/cli/commands/connect.js';
import { LINUX_PATHS, tempHome, type TempHome } from '../fixtures/host-configs/temp-home.js';

let current: TempHome | null = null;
afterEach(() => {
  current?.cleanup();
  current = null;
});

function run(args: string[]): { code: number; out: string; err: string; home: TempHome } {
  const home = (current = current ?? tempHome());
  let out = '';
  let err = '';
  const code = connectCommand(args, { ...home.options, out: (t) => (out += t), err: (l) => (err += l + '\n') });
  return { code, out, err, home };
}

test('an unknown or missing host exits 2 and names the four', () => {
  for (const args of [['windsurf'], [], ['cursor', 'vscode'], ['--bogus', 'cursor']]) {
    const { code, out, err } = run(args);
    assert.equal(code, 2, args.join(' '));
    assert.equal(out, '');
    if (args[0] !== '--bogus') assert.match(err, /claude-code, claude-desktop, cursor or vscode/);
  }
});

test('--print writes the exact config to stdout and touches no file', () => {
  const { code, out, err, home } = run(['vscode', '--print']);
  assert.equal(code, 0);
  assert.equal(err, '');
  assert.deepEqual(JSON.parse(out), { servers: { nuzo: { type: 'stdio', command: '/usr/bin/node', args: ['/opt/nuzo/dist/bridge/nuzo-bridge.js'] } } });
  assert.ok(!existsSync(home.path(LINUX_PATHS.vscode)));
});

test('writing reports the path and the backup on stderr; a second run says nothing changed', () => {
  current = tempHome();
  const file = current.place(LINUX_PATHS.desktop, 'claude_desktop_config.json');
  const first = run(['claude-desktop']);
  assert.equal(first.code, 0);
  assert.equal(first.out, '');
  assert.match(first.err, new RegExp(`wrote ${file.replaceAll('/', '\\/')}`));
  assert.match(first.err, /previous version is saved as .*claude_desktop_config\.json\.nuzo-backup-/);
  const second = run(['claude-desktop']);
  assert.equal(second.code, 0);
  assert.match(second.err, /already has Nuzo; nothing changed/);
  assert.doesNotMatch(second.err, /backup/);
});

test('a file Nuzo cannot read is refused with exit 1 and left as it was', () => {
  current = tempHome();
  const file = current.place(LINUX_PATHS.cursor, 'broken.json');
  const before = readFileSync(file, 'utf8');
  const { code, err } = run(['cursor']);
  assert.equal(code, 1);
  assert.match(err, /validation_error: Nuzo cannot safely edit .*mcp\.json: it is not valid JSON .*line 7/);
  assert.equal(readFileSync(file, 'utf8'), before);
});

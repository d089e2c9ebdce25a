/**
 * Connect merges on real-shaped host configs (test/fixtures/host-configs): only Nuzo's entry
 * changes, a second run changes nothing, the old file is backed up once, comments survive,
 * unreadable files are refused untouched, permission bits are kept.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, test } from 'node:test';
import { isNuzoError } from '../../main/core/errors.js';
import { parseJsonc, toValue } from '../../main/connect/jsonc.js';
import { writeHostConfig } from '../../main/connect/write-host.js';
import { defaultHostConfigProvider } from '../../main/connect/provider.js';
import { appBridgeCommand } from '../../main/connect/bridge-command.js';
import type { HostId } from '../../main/connect/types.js';
import { fixtureDir, LINUX_PATHS, NODE_BRIDGE, tempHome, tempLeftovers, type TempHome } from '../fixtures/host-configs/temp-home.js';

type Json = Record<string, unknown>;
const read = (file: string): Json => toValue(parseJsonc(readFileSync(file, 'utf8'))) as Json;
const fixture = (name: string): Json => read(join(fixtureDir, name));
const posix = process.platform !== 'win32';

let current: TempHome | null = null;
const setup = (...args: Parameters<typeof tempHome>): TempHome => (current = tempHome(...args));
afterEach(() => {
  current?.cleanup();
  current = null;
});

/** The document minus Nuzo's entry must equal the original document. */
function withoutNuzo(doc: Json, key: string): Json {
  const servers = { ...(doc[key] as Json) };
  delete servers['nuzo'];
  return { ...doc, [key]: servers };
}

const SERVER_CASES: Array<{ host: HostId; file: string; fixture: string; key: string; entry: Json }> = [
  { host: 'claude-code', file: LINUX_PATHS.claudeJson, fixture: 'claude.json', key: 'mcpServers', entry: { type: 'stdio', command: '/usr/bin/node', args: ['/opt/nuzo/dist/bridge/nuzo-bridge.js'] } },
  { host: 'claude-desktop', file: LINUX_PATHS.desktop, fixture: 'claude_desktop_config.json', key: 'mcpServers', entry: { command: '/usr/bin/node', args: ['/opt/nuzo/dist/bridge/nuzo-bridge.js'] } },
  { host: 'cursor', file: LINUX_PATHS.cursor, fixture: 'cursor-mcp.json', key: 'mcpServers', entry: { command: '/usr/bin/node', args: ['/opt/nuzo/dist/bridge/nuzo-bridge.js'] } },
  { host: 'vscode', file: LINUX_PATHS.vscode, fixture: 'vscode-mcp.jsonc', key: 'servers', entry: { type: 'stdio', command: '/usr/bin/node', args: ['/opt/nuzo/dist/bridge/nuzo-bridge.js'] } },
];

for (const c of SERVER_CASES) {
  test(`${c.host}: adds only the nuzo entry, keeps every other server and key, backs up once, is idempotent`, () => {
    const h = setup();
    const file = h.place(c.file, c.fixture);
    if (c.host === 'claude-code') h.place(LINUX_PATHS.claudeSettings, 'claude-settings.json');

    const first = writeHostConfig(c.host, h.options);
    assert.equal(first.files[0]!.path, file);
    assert.equal(first.files[0]!.changed, true);
    assert.ok(first.files[0]!.backup, 'an existing file is backed up before it changes');
    assert.equal(readFileSync(first.files[0]!.backup!, 'utf8'), readFileSync(join(fixtureDir, c.fixture), 'utf8'), 'the backup is the old file');

    const doc = read(file);
    assert.deepEqual((doc[c.key] as Json)['nuzo'], c.entry);
    assert.deepEqual(withoutNuzo(doc, c.key), fixture(c.fixture), 'nothing else changed');

    const before = readFileSync(file, 'utf8');
    const second = writeHostConfig(c.host, h.options);
    assert.ok(second.files.every((f) => !f.changed && f.backup === null), 'second run: changed false, no backup');
    assert.equal(readFileSync(file, 'utf8'), before);
    assert.equal(h.backups(c.file).length, 1, 'exactly one backup after two runs');
    assert.deepEqual(tempLeftovers(dirname(file)), []);
  });
}

test('claude-code: both hooks are added to settings.json next to the hooks already there', () => {
  const h = setup();
  h.place(LINUX_PATHS.claudeJson, 'claude.json');
  const settings = h.place(LINUX_PATHS.claudeSettings, 'claude-settings.json');
  const result = writeHostConfig('claude-code', h.options);
  assert.deepEqual(
    result.files.map((f) => [f.path, f.changed]),
    [
      [h.path(LINUX_PATHS.claudeJson), true],
      [settings, true],
    ],
  );
  const doc = read(settings);
  const original = fixture('claude-settings.json');
  const hooks = doc['hooks'] as Record<string, unknown[]>;
  const originalHooks = original['hooks'] as Record<string, unknown[]>;
  assert.deepEqual(hooks['SessionStart'], [{ hooks: [{ type: 'command', command: '/usr/bin/node /opt/nuzo/dist/bridge/nuzo-bridge.js hook session-start', timeout: 10 }] }]);
  assert.deepEqual(hooks['PostToolUse'], [
    originalHooks['PostToolUse']![0],
    { matcher: '*', hooks: [{ type: 'command', command: '/usr/bin/node /opt/nuzo/dist/bridge/nuzo-bridge.js hook post-tool-use', timeout: 10 }] },
  ]);
  assert.deepEqual(hooks['Notification'], originalHooks['Notification']);
  const { hooks: _h, ...rest } = doc;
  const { hooks: _o, ...originalRest } = original;
  assert.deepEqual(rest, originalRest, 'permissions, env, model and the rest are untouched');
  assert.equal(h.backups(LINUX_PATHS.claudeSettings).length, 1);
});

test('claude-code: a moved bridge replaces Nuzo’s hooks in place (no duplicates) and pulls them out of mixed groups', () => {
  const h = setup();
  const settings = h.path(LINUX_PATHS.claudeSettings);
  mkdirSync(dirname(settings), { recursive: true });
  const someoneElse = { type: 'command', command: 'echo done' };
  writeFileSync(
    settings,
    JSON.stringify({
      hooks: {
        PostToolUse: [
          { matcher: 'Bash', hooks: [someoneElse, { type: 'command', command: 'node /old/place/nuzo-bridge.js hook post-tool-use' }] },
          { matcher: '*', hooks: [{ type: 'command', command: "'/old/other place/nuzo-bridge.js' hook post-tool-use" }] },
          { matcher: '*', hooks: [{ type: 'command', command: 'nuzo-bridge hook post-tool-use' }] },
        ],
      },
    }),
  );
  writeHostConfig('claude-code', h.options);
  const hooks = read(settings)['hooks'] as Record<string, Array<{ matcher?: string; hooks: Json[] }>>;
  assert.deepEqual(hooks['PostToolUse'], [
    { matcher: 'Bash', hooks: [someoneElse] },
    { matcher: '*', hooks: [{ type: 'command', command: '/usr/bin/node /opt/nuzo/dist/bridge/nuzo-bridge.js hook post-tool-use', timeout: 10 }] },
  ]);
  assert.equal(hooks['SessionStart']!.length, 1);
});

test('vscode: comments, tabs and trailing commas survive; the edit is a single insertion', () => {
  const h = setup();
  const file = h.place(LINUX_PATHS.vscode, 'vscode-mcp.jsonc');
  const before = readFileSync(file, 'utf8');
  writeHostConfig('vscode', h.options);
  const after = readFileSync(file, 'utf8');
  let prefix = 0;
  while (before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < before.length - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  assert.equal(prefix + suffix, before.length, 'no original byte was changed or removed');
  assert.match(after.slice(prefix, after.length - suffix), /"nuzo"/);
  assert.ok(after.includes('},\n\t\t"nuzo": {\n\t\t\t"type": "stdio",\n'), 'inserted after the last server, with the file’s own tab indentation');
  for (const comment of ['// Shared MCP servers', '/* Perplexity needs the key above', '// web pages as markdown', '/* a block comment after a value */']) {
    assert.ok(after.includes(comment), `kept: ${comment}`);
  }
  assert.deepEqual(withoutNuzo(read(file), 'servers'), fixture('vscode-mcp.jsonc'));
});

test('an unparseable file is refused, named with its line, and left byte-for-byte untouched', () => {
  const h = setup();
  const file = h.place(LINUX_PATHS.cursor, 'broken.json');
  const before = readFileSync(file);
  assert.throws(
    () => writeHostConfig('cursor', h.options),
    (error: unknown) => isNuzoError(error) && error.code === 'validation_error' && error.message.includes(file) && /line 7/.test(error.message) && error.details['line'] === 7,
  );
  assert.deepEqual(readFileSync(file), before);
  assert.deepEqual(h.backups(LINUX_PATHS.cursor), []);
  assert.deepEqual(tempLeftovers(dirname(file)), []);
});

test('claude-code: a refused settings.json leaves ~/.claude.json untouched too', () => {
  const h = setup();
  const main = h.place(LINUX_PATHS.claudeJson, 'claude.json');
  h.place(LINUX_PATHS.claudeSettings, 'broken.json');
  const before = readFileSync(main, 'utf8');
  assert.throws(() => writeHostConfig('claude-code', h.options), /settings\.json/);
  assert.equal(readFileSync(main, 'utf8'), before);
  assert.deepEqual(h.backups(LINUX_PATHS.claudeJson), []);
});

test('files whose shape Nuzo does not expect are refused, not replaced', () => {
  const h = setup();
  const file = h.path(LINUX_PATHS.desktop);
  mkdirSync(dirname(file), { recursive: true });
  for (const text of ['[1, 2]', '{"mcpServers": ["a"]}', '"just a string"']) {
    writeFileSync(file, text);
    assert.throws(() => writeHostConfig('claude-desktop', h.options), (e: unknown) => isNuzoError(e) && e.code === 'validation_error');
    assert.equal(readFileSync(file, 'utf8'), text);
  }
  const settings = h.path(LINUX_PATHS.claudeSettings);
  mkdirSync(dirname(settings), { recursive: true });
  writeFileSync(settings, '{"hooks": {"PostToolUse": {"matcher": "*"}}}');
  assert.throws(() => writeHostConfig('claude-code', h.options), /hooks\.PostToolUse/);
});

test('a missing file is created 0600 in 0700 folders, without a backup; an empty one counts as {}', { skip: !posix && 'POSIX permission bits' }, () => {
  const h = setup();
  const result = writeHostConfig('cursor', h.options);
  const file = h.path(LINUX_PATHS.cursor);
  assert.deepEqual(result.files, [{ path: file, backup: null, changed: true }]);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(statSync(dirname(file)).mode & 0o777, 0o700);
  assert.deepEqual(read(file), { mcpServers: { nuzo: { command: '/usr/bin/node', args: ['/opt/nuzo/dist/bridge/nuzo-bridge.js'] } } });
  assert.equal(writeHostConfig('cursor', h.options).files[0]!.changed, false);

  writeFileSync(file, '');
  const again = writeHostConfig('cursor', h.options).files[0]!;
  assert.equal(again.changed, true);
  assert.deepEqual(Object.keys(read(file)), ['mcpServers']);
});

test('an existing file keeps its mode, and so does its backup', { skip: !posix && 'POSIX permission bits' }, () => {
  const h = setup();
  const file = h.place(LINUX_PATHS.desktop, 'claude_desktop_config.json');
  chmodSync(file, 0o640);
  const [written] = writeHostConfig('claude-desktop', h.options).files;
  assert.equal(statSync(file).mode & 0o777, 0o640);
  assert.equal(statSync(written!.backup!).mode & 0o777, 0o640);
});

test('a symlinked config is edited where it lives; the link stays a link', { skip: !posix && 'symlinks' }, () => {
  const h = setup();
  const real = h.place('dotfiles/cursor-mcp.json', 'cursor-mcp.json');
  const link = h.path(LINUX_PATHS.cursor);
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(real, link);
  writeHostConfig('cursor', h.options);
  assert.equal(readlinkSync(link), real);
  assert.ok('nuzo' in (read(real)['mcpServers'] as Json));
  assert.equal(h.backups('dotfiles/cursor-mcp.json').length, 1);
});

test('a different bridge updates the entry (one more backup), and packaged-app entries carry ELECTRON_RUN_AS_NODE', () => {
  const h = setup();
  const file = h.place(LINUX_PATHS.cursor, 'cursor-mcp.json');
  writeHostConfig('cursor', h.options);
  const app = appBridgeCommand({ executable: '/opt/Nuzo/nuzo', script: '/opt/Nuzo/resources/bridge/nuzo-bridge.cjs', env: {} });
  const result = writeHostConfig('cursor', { ...h.options, bridge: app });
  assert.equal(result.files[0]!.changed, true);
  assert.deepEqual((read(file)['mcpServers'] as Json)['nuzo'], { command: '/opt/Nuzo/nuzo', args: ['/opt/Nuzo/resources/bridge/nuzo-bridge.cjs'], env: { ELECTRON_RUN_AS_NODE: '1' } });
  assert.equal(h.backups(LINUX_PATHS.cursor).length, 2);
  assert.deepEqual(Object.keys(read(file)['mcpServers'] as Json), ['linear', 'postgres', 'nuzo']);
});

test('provider: lists the four hosts with exact snippets; write reports path, backup and changed', () => {
  const h = setup();
  h.place(LINUX_PATHS.cursor, 'cursor-mcp.json');
  const provider = defaultHostConfigProvider(h.options);
  const views = provider.list();
  assert.deepEqual(
    views.map((v) => [v.host, v.label, v.config_path, v.installed]),
    [
      ['claude-code', 'Claude Code', h.path(LINUX_PATHS.claudeJson), false],
      ['claude-desktop', 'Claude Desktop', h.path(LINUX_PATHS.desktop), false],
      ['cursor', 'Cursor', h.path(LINUX_PATHS.cursor), true],
      ['vscode', 'VS Code', h.path(LINUX_PATHS.vscode), false],
    ],
  );
  const byHost = new Map(views.map((v) => [v.host, v.snippet]));
  assert.equal(
    byHost.get('cursor'),
    '{\n  "mcpServers": {\n    "nuzo": {\n      "command": "/usr/bin/node",\n      "args": [\n        "/opt/nuzo/dist/bridge/nuzo-bridge.js"\n      ]\n    }\n  }\n}\n',
  );
  assert.deepEqual(JSON.parse(byHost.get('vscode')!), { servers: { nuzo: { type: 'stdio', command: '/usr/bin/node', args: ['/opt/nuzo/dist/bridge/nuzo-bridge.js'] } } });
  const claude = byHost.get('claude-code')!;
  assert.ok(claude.includes('claude mcp add --transport stdio --scope user nuzo -- /usr/bin/node /opt/nuzo/dist/bridge/nuzo-bridge.js\n'), claude);
  assert.ok(claude.includes('"command": "/usr/bin/node /opt/nuzo/dist/bridge/nuzo-bridge.js hook session-start"'));
  assert.ok(claude.includes('"matcher": "*"'));

  const first = provider.write('cursor');
  assert.equal(first.path, h.path(LINUX_PATHS.cursor));
  assert.equal(first.changed, true);
  assert.ok(first.backup !== null && existsSync(first.backup));
  assert.deepEqual(provider.write('cursor'), { path: h.path(LINUX_PATHS.cursor), backup: null, changed: false });
});

test('snippets quote paths with spaces for the shell, and packaged-app snippets pass the env', () => {
  const h = setup({ command: '/Applications/Nuzo.app/Contents/MacOS/Nuzo', args: ["/Users/o'hara/Library/Nuzo Bridge/nuzo-bridge.cjs"], env: { ELECTRON_RUN_AS_NODE: '1' } });
  const claude = defaultHostConfigProvider(h.options)
    .list()
    .find((v) => v.host === 'claude-code')!.snippet;
  assert.ok(
    claude.includes(`claude mcp add --transport stdio --scope user --env ELECTRON_RUN_AS_NODE=1 nuzo -- /Applications/Nuzo.app/Contents/MacOS/Nuzo '/Users/o'\\''hara/Library/Nuzo Bridge/nuzo-bridge.cjs'`),
    claude,
  );
  assert.ok(claude.includes(`"command": "ELECTRON_RUN_AS_NODE=1 /Applications/Nuzo.app/Contents/MacOS/Nuzo '/Users/o'\\\\''hara/Library/Nuzo Bridge/nuzo-bridge.cjs' hook session-start"`), claude);
  assert.equal(NODE_BRIDGE.env['ELECTRON_RUN_AS_NODE'], undefined);
});

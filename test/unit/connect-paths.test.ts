/** Where each host's config lives on each platform, and which bridge command goes in it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { HOST_IDS, hostPaths, isHostId, resolveEnv } from '../../main/connect/hosts.js';
import { appBridgeCommand, builtBridgeScript, nodeBridgeCommand } from '../../main/connect/bridge-command.js';
import { hookCommand, isNuzoHookCommand, shellQuote } from '../../main/connect/entries.js';

const paths = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv = {}, home = platform === 'win32' ? 'C:\\Users\\ada' : platform === 'darwin' ? '/Users/ada' : '/home/ada') =>
  Object.fromEntries(HOST_IDS.map((h) => [h, hostPaths(h, resolveEnv({ home, platform, env }))]));

test('Linux: ~/.config (or $XDG_CONFIG_HOME) for the Electron apps, dot-folders for the rest', () => {
  const p = paths('linux');
  assert.deepEqual(
    [p['claude-code']!.config, p['claude-code']!.hooks, p['claude-desktop']!.config, p['cursor']!.config, p['vscode']!.config],
    ['/home/ada/.claude.json', '/home/ada/.claude/settings.json', '/home/ada/.config/Claude/claude_desktop_config.json', '/home/ada/.cursor/mcp.json', '/home/ada/.config/Code/User/mcp.json'],
  );
  const xdg = paths('linux', { XDG_CONFIG_HOME: '/xdg' });
  assert.equal(xdg['claude-desktop']!.config, '/xdg/Claude/claude_desktop_config.json');
  assert.equal(xdg['vscode']!.config, '/xdg/Code/User/mcp.json');
});

test('macOS: ~/Library/Application Support', () => {
  const p = paths('darwin');
  assert.equal(p['claude-desktop']!.config, '/Users/ada/Library/Application Support/Claude/claude_desktop_config.json');
  assert.equal(p['vscode']!.config, '/Users/ada/Library/Application Support/Code/User/mcp.json');
  assert.equal(p['cursor']!.config, '/Users/ada/.cursor/mcp.json');
  assert.equal(p['claude-code']!.config, '/Users/ada/.claude.json');
});

test('Windows: %APPDATA% with backslashes', () => {
  const p = paths('win32', { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' });
  assert.equal(p['claude-desktop']!.config, 'C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
  assert.equal(p['vscode']!.config, 'C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\mcp.json');
  assert.equal(p['cursor']!.config, 'C:\\Users\\ada\\.cursor\\mcp.json');
  assert.equal(p['claude-code']!.hooks, 'C:\\Users\\ada\\.claude\\settings.json');
  assert.equal(paths('win32')['vscode']!.config, 'C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\mcp.json', 'default when APPDATA is unset');
});

test('CLAUDE_CONFIG_DIR moves both Claude Code files', () => {
  const p = paths('linux', { CLAUDE_CONFIG_DIR: '/cfg/claude' });
  assert.equal(p['claude-code']!.config, '/cfg/claude/.claude.json');
  assert.equal(p['claude-code']!.hooks, '/cfg/claude/settings.json');
});

test('host ids are exactly the four', () => {
  assert.deepEqual([...HOST_IDS], ['claude-code', 'claude-desktop', 'cursor', 'vscode']);
  assert.ok(isHostId('cursor'));
  assert.ok(!isHostId('Cursor') && !isHostId('windsurf') && !isHostId('__proto__'));
});

test('plain Node: this node and the absolute built bridge; NUZO_HOME passed on when set', () => {
  const expected = fileURLToPath(new URL('../../bridge/nuzo-bridge.js', import.meta.url));
  assert.equal(builtBridgeScript(), expected);
  assert.deepEqual(nodeBridgeCommand({ env: {} }), { command: process.execPath, args: [expected], env: {} });
  assert.deepEqual(nodeBridgeCommand({ env: { NUZO_HOME: '/data/nuzo' } }).env, { NUZO_HOME: '/data/nuzo' });
});

test('packaged app: its own executable as Node, the bundled bridge, a way to start the app', () => {
  assert.deepEqual(appBridgeCommand({ executable: '/opt/Nuzo/nuzo', script: '/r/bridge/nuzo-bridge.cjs', appCommand: 'env -u ELECTRON_RUN_AS_NODE /opt/Nuzo/nuzo --hidden', env: {} }), {
    command: '/opt/Nuzo/nuzo',
    args: ['/r/bridge/nuzo-bridge.cjs'],
    env: { ELECTRON_RUN_AS_NODE: '1', NUZO_APP_COMMAND: 'env -u ELECTRON_RUN_AS_NODE /opt/Nuzo/nuzo --hidden' },
  });
});

test('hook commands are shell-quoted and recognised again whatever the launcher', () => {
  assert.equal(shellQuote('/usr/bin/node', 'linux'), '/usr/bin/node');
  assert.equal(shellQuote('/a b/c', 'linux'), "'/a b/c'");
  assert.equal(shellQuote("it's", 'linux'), "'it'\\''s'");
  assert.equal(shellQuote('C:\\Program Files\\nodejs\\node.exe', 'win32'), '"C:\\Program Files\\nodejs\\node.exe"');
  const bridge = { command: 'C:\\Program Files\\Nuzo\\Nuzo.exe', args: ['C:\\Program Files\\Nuzo\\resources\\bridge\\nuzo-bridge.cjs'], env: { ELECTRON_RUN_AS_NODE: '1' } };
  const command = hookCommand(bridge, 'PostToolUse', 'win32');
  assert.equal(command, 'ELECTRON_RUN_AS_NODE=1 "C:\\Program Files\\Nuzo\\Nuzo.exe" "C:\\Program Files\\Nuzo\\resources\\bridge\\nuzo-bridge.cjs" hook post-tool-use');
  assert.ok(isNuzoHookCommand(command, 'PostToolUse'));
  assert.ok(!isNuzoHookCommand(command, 'SessionStart'));
  assert.ok(isNuzoHookCommand('nuzo-bridge hook session-start', 'SessionStart'));
  assert.ok(!isNuzoHookCommand('my-nuzo-bridge-wrapper.sh', 'SessionStart'));
  assert.ok(!isNuzoHookCommand('npx prettier --write', 'PostToolUse'));
});

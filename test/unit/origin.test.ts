import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyTool, LOCAL_TOOLS, NETWORK_TOOLS, resolveOrigin } from '../../main/pipeline/origin.js';
import { ORIGINS } from '../../main/core/vocabulary.js';
import { agent, hook, person } from '../helpers/requesters.js';

test('recognised local tools classify as local_action, case and spacing normalised', () => {
  for (const name of ['Bash', 'Edit', 'Write', 'Read', ' grep ', 'MULTIEDIT', 'run_terminal_cmd']) {
    assert.equal(classifyTool(name), 'local_action', name);
  }
});

test('recognised network tools classify as network', () => {
  for (const name of ['WebFetch', 'WebSearch', 'web_search', 'fetch_webpage']) assert.equal(classifyTool(name), 'network', name);
});

test('unrecognised, empty and other servers\' MCP tools are unknown, never guessed', () => {
  for (const name of ['', '   ', undefined, null, 'WebRead', 'web-fetch', 'mcp__fetch__fetch', 'mcp__playwright__browser_navigate', 'BashTool', 'bash; rm -rf', 'Bash\u200b']) {
    assert.equal(classifyTool(name), 'unknown', String(name));
  }
});

test('classification is always in the origin vocabulary', () => {
  for (const name of [...LOCAL_TOOLS, ...NETWORK_TOOLS, 'x', '']) assert.ok(ORIGINS.includes(classifyTool(name)));
});

test('drift guard: the allowlists are the reviewed tables (a new tool is a deliberate edit here)', () => {
  assert.deepEqual([...NETWORK_TOOLS].sort(), ['fetch', 'fetch_webpage', 'web_search', 'webfetch', 'websearch']);
  assert.equal(LOCAL_TOOLS.size, 28);
  for (const name of NETWORK_TOOLS) assert.ok(!LOCAL_TOOLS.has(name), `${name} is in both tables`);
});

test('channels decide origin: window user, MCP agent, hook by tool name', () => {
  assert.equal(resolveOrigin(person, undefined).origin, 'user');
  assert.equal(resolveOrigin(agent(), undefined).origin, 'agent');
  assert.equal(resolveOrigin(hook('WebFetch'), undefined).origin, 'network');
  assert.equal(resolveOrigin(hook('Bash'), undefined).origin, 'local_action');
  assert.equal(resolveOrigin(hook(undefined), undefined).origin, 'unknown');
});

test('a caller may lower trust, never raise it', () => {
  const lowered = resolveOrigin(agent(), 'network');
  assert.deepEqual(lowered, { origin: 'network', ignoredClaim: null, lowered: true });
  const raised = resolveOrigin(hook('WebFetch'), 'user');
  assert.deepEqual(raised, { origin: 'network', ignoredClaim: 'user', lowered: false });
  // equal rank is not lower: an agent cannot relabel itself local_action to reach other grants
  assert.equal(resolveOrigin(agent(), 'local_action').origin, 'agent');
  assert.equal(resolveOrigin(hook(''), 'agent').origin, 'unknown');
});

/** The exact text a person can copy to connect a host by hand (the Connect screen, `--print`). */
import { hookGroup, HOOK_EVENTS, mcpEntry, SERVER_NAME, serversKey, shellQuote } from './entries.js';
import type { HostPaths } from './hosts.js';
import type { BridgeCommand, HostId } from './types.js';

const json = (value: unknown): string => JSON.stringify(value, null, 2);

export function serverSnippet(host: HostId, bridge: BridgeCommand): string {
  return json({ [serversKey(host)]: { [SERVER_NAME]: mcpEntry(host, bridge) } });
}

export function hooksSnippet(bridge: BridgeCommand, platform: NodeJS.Platform): string {
  return json({ hooks: Object.fromEntries(HOOK_EVENTS.map((event) => [event, [hookGroup(bridge, event, platform)]])) });
}

/** `claude mcp add` for the same entry, at user scope so it works in every project. */
export function claudeMcpAddCommand(bridge: BridgeCommand, platform: NodeJS.Platform): string {
  const env = Object.entries(bridge.env).flatMap(([k, v]) => ['--env', shellQuote(`${k}=${v}`, platform)]);
  const command = [bridge.command, ...bridge.args].map((w) => shellQuote(w, platform));
  return ['claude', 'mcp', 'add', '--transport', 'stdio', '--scope', 'user', ...env, SERVER_NAME, '--', ...command].join(' ');
}

export function snippetFor(host: HostId, bridge: BridgeCommand, paths: HostPaths, platform: NodeJS.Platform): string {
  if (host !== 'claude-code') return `${serverSnippet(host, bridge)}\n`;
  return [
    '# The MCP server, for every project (user scope):',
    claudeMcpAddCommand(bridge, platform),
    '',
    `# or the same entry by hand, in ${paths.config}:`,
    serverSnippet(host, bridge),
    '',
    `# The capture hooks, in ${paths.hooks ?? 'settings.json'}:`,
    hooksSnippet(bridge, platform),
    '',
  ].join('\n');
}

/** What Nuzo adds to each host's config: the MCP server entry and Claude Code's two hooks. */
import type { BridgeCommand, HostId } from './types.js';

export const SERVER_NAME = 'nuzo';

/** VS Code calls the table `servers`; the Claude apps and Cursor call it `mcpServers`. */
export function serversKey(host: HostId): 'servers' | 'mcpServers' {
  return host === 'vscode' ? 'servers' : 'mcpServers';
}

export function mcpEntry(host: HostId, bridge: BridgeCommand): Record<string, unknown> {
  // Claude Code and VS Code record the transport; Claude Desktop and Cursor infer stdio.
  const typed = host === 'claude-code' || host === 'vscode';
  return {
    ...(typed ? { type: 'stdio' } : {}),
    command: bridge.command,
    args: [...bridge.args],
    ...(Object.keys(bridge.env).length > 0 ? { env: { ...bridge.env } } : {}),
  };
}

export type HookEvent = 'SessionStart' | 'PostToolUse';
export const HOOK_EVENTS: readonly HookEvent[] = ['SessionStart', 'PostToolUse'];
const HOOK_ARG: Record<HookEvent, string> = { SessionStart: 'session-start', PostToolUse: 'post-tool-use' };

/** Quotes one word for the shell Claude Code runs hooks with (sh/bash, Git Bash on Windows). */
export function shellQuote(word: string, platform: NodeJS.Platform): string {
  if (/^[A-Za-z0-9_./:@%+=,-]+$/.test(word)) return word;
  // Windows paths keep their backslashes inside double quotes in both bash and cmd.
  if (platform === 'win32' && !/["$`!]/.test(word) && !word.endsWith('\\')) return `"${word}"`;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

export function hookCommand(bridge: BridgeCommand, event: HookEvent, platform: NodeJS.Platform): string {
  const env = Object.entries(bridge.env).map(([k, v]) => `${k}=${shellQuote(v, platform)}`);
  const words = [bridge.command, ...bridge.args, 'hook', HOOK_ARG[event]].map((w) => shellQuote(w, platform));
  return [...env, ...words].join(' ');
}

/** Recognises Nuzo's own hook commands, whichever bridge path or launcher wrote them. */
export function isNuzoHookCommand(command: string, event: HookEvent): boolean {
  return new RegExp(`nuzo-bridge(?:\\.c?js)?['"]?\\s+hook\\s+${HOOK_ARG[event]}(?:\\s|$)`).test(command);
}

export interface HookGroup {
  matcher?: string;
  hooks: Array<Record<string, unknown>>;
}

export function hookGroup(bridge: BridgeCommand, event: HookEvent, platform: NodeJS.Platform): HookGroup {
  const hook = { type: 'command', command: hookCommand(bridge, event, platform), timeout: 10 };
  // PostToolUse sees every tool: the origin is decided in the app from the tool's name.
  return event === 'PostToolUse' ? { matcher: '*', hooks: [hook] } : { hooks: [hook] };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The event's hook list with exactly one Nuzo group: an existing Nuzo-only group is replaced in
 * place (later duplicates dropped), Nuzo commands mixed into someone else's group are taken out
 * of it, and anything Nuzo does not recognise is kept as it was.
 */
export function mergeHookGroups(existing: readonly unknown[], desired: HookGroup, event: HookEvent): unknown[] {
  const ours = (hook: unknown): boolean => isRecord(hook) && typeof hook['command'] === 'string' && isNuzoHookCommand(hook['command'], event);
  const out: unknown[] = [];
  let placed = false;
  for (const group of existing) {
    if (!isRecord(group) || !Array.isArray(group['hooks']) || !group['hooks'].some(ours)) {
      out.push(group);
      continue;
    }
    const others = group['hooks'].filter((h) => !ours(h));
    if (others.length > 0) {
      out.push({ ...group, hooks: others });
    } else if (!placed) {
      out.push(desired);
      placed = true;
    }
  }
  if (!placed) out.push(desired);
  return out;
}

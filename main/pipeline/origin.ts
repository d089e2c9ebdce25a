import { ORIGIN_TRUST, type Origin } from '../core/vocabulary.js';
import type { Requester } from './types.js';

/**
 * Producing tools whose output stays on this machine (shell, file read/edit, local search).
 * An allowlist: a tool that is not named here is `unknown`, never guessed from its name's shape.
 * Names are compared trimmed and lower-cased. Sources: the built-in tools of Claude Code, Cursor
 * and VS Code agent mode. MCP tools of other servers (`mcp__…`) are deliberately absent.
 */
export const LOCAL_TOOLS: ReadonlySet<string> = new Set([
  // Claude Code
  'bash', 'bashoutput', 'killshell', 'read', 'write', 'edit', 'multiedit', 'notebookedit', 'notebookread',
  'glob', 'grep', 'ls', 'todowrite',
  // Cursor
  'read_file', 'edit_file', 'run_terminal_cmd', 'list_dir', 'grep_search', 'file_search', 'codebase_search', 'delete_file',
  // VS Code agent mode
  'runinterminal', 'readfile', 'editfiles', 'createfile', 'listdirectory', 'textsearch', 'filesearch',
]);

/** Producing tools that bring off-machine content in. Same rules as LOCAL_TOOLS. */
export const NETWORK_TOOLS: ReadonlySet<string> = new Set([
  // Claude Code
  'webfetch', 'websearch',
  // Cursor
  'web_search',
  // VS Code agent mode
  'fetch', 'fetch_webpage',
]);

export function normaliseToolName(name: string | undefined | null): string {
  return (name ?? '').trim().toLowerCase();
}

/** The tool-name classifier. It takes no content argument on purpose: content cannot reach it. */
export function classifyTool(toolName: string | undefined | null): Origin {
  const name = normaliseToolName(toolName);
  if (name === '') return 'unknown';
  if (LOCAL_TOOLS.has(name)) return 'local_action';
  if (NETWORK_TOOLS.has(name)) return 'network';
  return 'unknown';
}

/** The origin of a channel before any caller claim. */
export function channelOrigin(requester: Requester): Origin {
  switch (requester.channel) {
    case 'window':
      return 'user';
    case 'mcp':
      return 'agent';
    case 'import':
      return 'import';
    case 'hook':
      return classifyTool(requester.toolName);
    default:
      return 'unknown';
  }
}

export interface OriginDecision {
  origin: Origin;
  /** A claim that asked for more trust than the channel has, and was ignored. */
  ignoredClaim: Origin | null;
  lowered: boolean;
}

/** Stage 2. A caller's claim is taken only when it lowers trust. */
export function resolveOrigin(requester: Requester, claim: Origin | undefined): OriginDecision {
  const base = channelOrigin(requester);
  if (claim === undefined || claim === base) return { origin: base, ignoredClaim: null, lowered: false };
  if (ORIGIN_TRUST[claim] < ORIGIN_TRUST[base]) return { origin: claim, ignoredClaim: null, lowered: true };
  return { origin: base, ignoredClaim: claim, lowered: false };
}

/** The less trusted of two origins (the first when they rank the same). */
export function lowerTrust(a: Origin, b: Origin): Origin {
  return ORIGIN_TRUST[b] < ORIGIN_TRUST[a] ? b : a;
}

import type { Requester } from '../../main/pipeline/types.js';

export const person: Requester = { actor: 'window', channel: 'window', projects: [], person: true };

export function agent(projects: string[] = ['alpha'], host = 'test-host'): Requester {
  return { actor: 'mcp:test', channel: 'mcp', host, projects, person: false };
}

export function hook(toolName: string | undefined, projects: string[] = ['alpha']): Requester {
  return { actor: 'hook:test', channel: 'hook', projects, person: false, ...(toolName !== undefined ? { toolName } : {}) };
}

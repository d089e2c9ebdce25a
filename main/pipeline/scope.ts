import { NuzoError } from '../core/errors.js';
import type { Scope } from '../core/types.js';
import type { Requester } from './types.js';

/** The scopes a requester may read and write: `user` and its own projects; a person: all. */
export function allowedScopes(requester: Requester): Scope[] | undefined {
  if (requester.person) return undefined;
  return ['user', ...requester.projects.map((project) => `project:${project}`)];
}

export function mayUseScope(requester: Requester, scope: Scope): boolean {
  const allowed = allowedScopes(requester);
  return allowed === undefined || allowed.includes(scope);
}

/** Stage 4. */
export function checkScope(requester: Requester, scope: Scope): void {
  if (mayUseScope(requester, scope)) return;
  const allowed = allowedScopes(requester) ?? [];
  throw new NuzoError(
    'scope_denied',
    `This connection may use the scopes ${allowed.join(', ')}; "${scope}" belongs to another project. Open the host in that project to use it.`,
    { scope, allowed },
  );
}

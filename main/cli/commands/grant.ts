import { parseArgs } from 'node:util';
import { KINDS } from '../../core/vocabulary.js';
import type { GrantView } from '../../ui-api/contract.js';
import { withWriter } from '../service-link.js';
import { print, UsageError } from '../output.js';

const list = (value: string | undefined, all: readonly string[]): string[] => (value === 'all' ? [...all] : (value ?? '').split(',').map((s) => s.trim()).filter(Boolean));

function describe(g: GrantView): string {
  const state = g.revoked_at ? 'revoked' : g.expires_at && Date.parse(g.expires_at) < Date.now() ? 'expired' : 'active';
  return `${g.id}  ${state}  host=${g.host}  scope=${g.scope}  origins=${g.origins.join(',')}  kinds=${g.kinds.join(',')}${g.requires_attestation ? '  (only with confirm:true)' : ''}${g.expires_at ? `  until ${g.expires_at}` : ''}`;
}

/**
 * `nuzo grant add|list|revoke`: standing consent from the command line (the window has the same).
 * Network and unknown origins cannot be granted; the service refuses them whatever is asked.
 */
export async function grantCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      host: { type: 'string' },
      scope: { type: 'string' },
      origins: { type: 'string' },
      kinds: { type: 'string' },
      attested: { type: 'boolean' },
      expires: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  return withWriter('nuzo grant', async (ask) => {
    const api = (method: string, params: unknown = {}): Promise<unknown> => ask({ t: 'cli', op: 'api', method, params });
    if (sub === 'list') {
      const grants = (await api('grants')) as GrantView[];
      print(values.json ? JSON.stringify(grants) : grants.length ? grants.map(describe).join('\n') : 'No grants. Every write asks a person.');
      return 0;
    }
    if (sub === 'add') {
      if (!values.host || !values.scope || !values.origins || !values.kinds) throw new UsageError('grant add needs --host, --scope, --origins (user,agent,local_action) and --kinds (fact,… or all)');
      const grant = (await api('createGrant', {
        host: values.host,
        scope: values.scope,
        origins: list(values.origins, ['user', 'agent', 'local_action']),
        kinds: list(values.kinds, KINDS),
        requires_attestation: values.attested ?? false,
        expires_at: values.expires ?? null,
      })) as GrantView;
      print(values.json ? JSON.stringify(grant) : describe(grant));
      return 0;
    }
    if (sub === 'revoke' && positionals[0]) {
      print(describe((await api('revokeGrant', { grant_id: positionals[0] })) as GrantView));
      return 0;
    }
    throw new UsageError('usage: nuzo grant add --host H --scope S --origins O[,O] --kinds K[,K]|all [--attested] [--expires ISO] | list | revoke ID');
  });
}

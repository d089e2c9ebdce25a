import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { GRANTABLE_ORIGINS, KINDS, type Kind, type Origin } from '../core/vocabulary.js';
import { NuzoError } from '../core/errors.js';
import type { Db } from '../store/database.js';
import { iso } from '../store/memories.js';
import type { GrantInput, GrantView } from '../ui-api/contract.js';
import { SCOPE_PATTERN, summariseIssues, validationError } from '../pipeline/validate.js';

interface GrantRow {
  id: string;
  host: string;
  scope: string;
  origins: string;
  kinds: string;
  requires_attestation: number;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
}

/** Network and unknown origins are not in the enum at all: they cannot even be asked for. */
export const grantInputSchema = z.strictObject({
  host: z.string().trim().min(1).max(128),
  scope: z.string().regex(SCOPE_PATTERN, 'scope is "user" or "project:<id>"'),
  origins: z.array(z.enum(GRANTABLE_ORIGINS as [Origin, ...Origin[]])).min(1).max(3),
  kinds: z.array(z.enum(KINDS)).min(1).max(KINDS.length),
  requires_attestation: z.boolean(),
  expires_at: z.iso.datetime({ offset: true }).nullable(),
});

function toView(row: GrantRow): GrantView {
  return {
    id: row.id,
    host: row.host,
    scope: row.scope,
    origins: JSON.parse(row.origins) as Origin[],
    kinds: JSON.parse(row.kinds) as Kind[],
    requires_attestation: row.requires_attestation === 1,
    created_at: iso(row.created_at),
    expires_at: row.expires_at === null ? null : iso(row.expires_at),
    revoked_at: row.revoked_at === null ? null : iso(row.revoked_at),
  };
}

export interface CoverQuery {
  host: string | undefined;
  scope: string;
  origin: Origin;
  kind: Kind;
  /** The call carried `confirm: true` (the host says it displayed the draft). */
  attested: boolean;
}

/** Standing consent a person created in the window or on the command line. */
export class GrantQueries {
  constructor(private readonly db: Db) {}

  create(input: GrantInput, now = Date.now()): GrantView {
    const parsed = grantInputSchema.safeParse(input);
    if (!parsed.success) throw validationError(summariseIssues(parsed.error));
    const g = parsed.data;
    const expires = g.expires_at === null ? null : Date.parse(g.expires_at);
    if (expires !== null && expires <= now) throw validationError([{ path: 'expires_at', message: 'the expiry is in the past' }]);
    const id = `gr_${randomBytes(9).toString('base64url')}`;
    this.db
      .prepare('INSERT INTO grants (id, host, scope, origins, kinds, requires_attestation, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, g.host, g.scope, JSON.stringify([...new Set(g.origins)]), JSON.stringify([...new Set(g.kinds)]), g.requires_attestation ? 1 : 0, now, expires);
    return this.get(id)!;
  }

  get(id: string): GrantView | undefined {
    const row = this.db.prepare<[string], GrantRow>('SELECT * FROM grants WHERE id = ?').get(id);
    return row ? toView(row) : undefined;
  }

  list(): GrantView[] {
    return this.db.prepare<[], GrantRow>('SELECT * FROM grants ORDER BY created_at DESC').all().map(toView);
  }

  revoke(id: string, now = Date.now()): GrantView {
    const result = this.db.prepare('UPDATE grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id);
    const grant = this.get(id);
    if (!grant) throw new NuzoError('not_found', `There is no grant ${id}.`, { grant_id: id });
    if (result.changes === 0 && grant.revoked_at === null) throw new NuzoError('internal_error', 'The grant could not be revoked.');
    return grant;
  }

  /**
   * The grant that covers a write, if any. The origin allowlist is checked here again, so a row
   * edited by hand to include `network` still grants nothing for it.
   */
  covering(query: CoverQuery, now = Date.now()): GrantView | undefined {
    if (!query.host || !GRANTABLE_ORIGINS.includes(query.origin)) return undefined;
    const rows = this.db
      .prepare<[string, string, number], GrantRow>('SELECT * FROM grants WHERE host = ? AND scope = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)')
      .all(query.host, query.scope, now);
    return rows
      .map(toView)
      .find((g) => g.origins.includes(query.origin) && g.kinds.includes(query.kind) && (!g.requires_attestation || query.attested));
  }
}

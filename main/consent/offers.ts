import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../store/database.js';
import { iso } from '../store/memories.js';
import type { ErrorCode } from '../core/vocabulary.js';
import type { OfferState, OfferTool, OfferView, DecisionChannel } from '../ui-api/contract.js';
import type { Requester } from '../pipeline/types.js';

export interface OfferRow {
  id: string;
  requester: string;
  requester_json: string;
  host: string | null;
  tool: OfferTool;
  args_hash: string;
  frozen_input: string;
  draft_json: string;
  scope: string;
  origin: string;
  state: OfferState;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
  decided_via: DecisionChannel | null;
  consent: string | null;
  memory_id: string | null;
  error_code: ErrorCode | null;
}

/** The requester as stored with an offer: enough to re-check its rights at execution time. */
export interface StoredRequester extends Requester {
  key: string;
  hostVersion: string | null;
}

/** Canonical JSON (sorted keys) so that the same arguments always hash the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function argumentHash(tool: string, args: unknown): string {
  return createHash('sha256').update(tool).update('\n').update(canonicalJson(args)).digest('hex');
}

/** Opaque, unguessable: knowing an offer id is not enough to read it (requester is checked too). */
export const newOfferId = (): string => `of_${randomBytes(16).toString('base64url')}`;

export class OfferQueries {
  private readonly byId;
  private readonly pendingByArgs;
  private readonly insert;

  constructor(private readonly db: Db) {
    this.byId = db.prepare<[string], OfferRow>('SELECT * FROM offers WHERE id = ?');
    this.pendingByArgs = db.prepare<[string, string, number], OfferRow>(
      "SELECT * FROM offers WHERE requester = ? AND args_hash = ? AND state = 'pending' AND expires_at > ? ORDER BY created_at DESC LIMIT 1",
    );
    this.insert = db.prepare(
      `INSERT INTO offers (id, requester, requester_json, host, tool, args_hash, frozen_input, draft_json, scope, origin, state, created_at, expires_at)
       VALUES (@id, @requester, @requester_json, @host, @tool, @args_hash, @frozen_input, @draft_json, @scope, @origin, 'pending', @created_at, @expires_at)`,
    );
  }

  get(id: string): OfferRow | undefined {
    return this.byId.get(id);
  }

  findPending(requesterKey: string, argsHash: string, now: number): OfferRow | undefined {
    return this.pendingByArgs.get(requesterKey, argsHash, now);
  }

  create(row: Omit<OfferRow, 'state' | 'decided_at' | 'decided_via' | 'consent' | 'memory_id' | 'error_code'>): OfferRow {
    this.insert.run(row);
    return this.get(row.id)!;
  }

  /** Moves a pending offer to its final state. Returns false when another decision got there first. */
  close(id: string, change: { state: Exclude<OfferState, 'pending'>; at: number; via?: DecisionChannel | null; consent?: string | null; memory_id?: string | null; error_code?: ErrorCode | null }): boolean {
    const result = this.db
      .prepare(
        `UPDATE offers SET state = @state, decided_at = @at, decided_via = @via, consent = @consent, memory_id = @memory_id, error_code = @error_code
         WHERE id = @id AND state = 'pending'`,
      )
      .run({ id, state: change.state, at: change.at, via: change.via ?? null, consent: change.consent ?? null, memory_id: change.memory_id ?? null, error_code: change.error_code ?? null });
    return result.changes === 1;
  }

  /** Marks every pending offer past its expiry as expired; returns their ids. */
  expireDue(now: number): string[] {
    const due = this.db.prepare<[number], { id: string }>("SELECT id FROM offers WHERE state = 'pending' AND expires_at <= ?").all(now);
    for (const { id } of due) this.close(id, { state: 'expired', at: now });
    return due.map((d) => d.id);
  }

  pending(limit = 500): OfferRow[] {
    // An agent waiting on its call comes before hook drafts, and the newest before the oldest, so a
    // flood of hook captures can never hide the offer someone is waiting on.
    return this.db
      .prepare<[number], OfferRow>("SELECT * FROM offers WHERE state = 'pending' ORDER BY (requester LIKE 'hook:%') ASC, created_at DESC LIMIT ?")
      .all(limit);
  }

  pendingCount(): number {
    return (this.db.prepare("SELECT count(*) AS n FROM offers WHERE state = 'pending'").get() as { n: number }).n;
  }
}

export interface StoredDraft {
  action: 'create' | 'update' | 'forget';
  content: string;
  kind: OfferView['draft']['kind'];
  scope: string;
  tags: string[];
  origin: OfferView['draft']['origin'];
  provenance: OfferView['draft']['provenance'];
  warnings: OfferView['draft']['warnings'];
  similar: Array<{ id: string; score: number }>;
  current: OfferView['draft']['current'];
}

export function offerView(row: OfferRow, similarContent: (id: string) => string): OfferView {
  const requester = JSON.parse(row.requester_json) as StoredRequester;
  const draft = JSON.parse(row.draft_json) as StoredDraft;
  return {
    id: row.id,
    state: row.state,
    tool: row.tool,
    created_at: iso(row.created_at),
    expires_at: iso(row.expires_at),
    decided_at: row.decided_at === null ? null : iso(row.decided_at),
    decided_via: row.decided_via,
    requester: { actor: requester.actor, host: requester.host ?? null, host_version: requester.hostVersion, projects: requester.projects },
    draft: { ...draft, similar: draft.similar.map((s) => ({ ...s, content: similarContent(s.id) })) },
    memory_id: row.memory_id,
    error_code: row.error_code,
  };
}

import type { AuditEntry } from '../core/types.js';
import type { Db } from './database.js';
import { iso } from './memories.js';

export interface AuditRecord {
  actor: string;
  action: string;
  target?: string | null;
  outcome: AuditEntry['outcome'];
  reason?: string | null;
  /** Structured, secret-free facts only: ids, codes, counts, rule names. Never memory text. */
  detail?: Record<string, unknown>;
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  outcome?: AuditEntry['outcome'];
  before?: number;
  limit?: number;
}

interface AuditRow {
  seq: number;
  at: number;
  actor: string;
  action: string;
  target: string | null;
  outcome: string;
  reason: string | null;
  detail: string;
}

/** The append-only audit log. There is deliberately no update or delete statement here. */
export class AuditLog {
  private readonly insert;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(
      'INSERT INTO audit (at, actor, action, target, outcome, reason, detail) VALUES (@at, @actor, @action, @target, @outcome, @reason, @detail)',
    );
  }

  record(entry: AuditRecord, at: number = Date.now()): void {
    this.insert.run({
      at,
      actor: entry.actor,
      action: entry.action,
      target: entry.target ?? null,
      outcome: entry.outcome,
      reason: entry.reason ?? null,
      detail: JSON.stringify(entry.detail ?? {}),
    });
  }

  list(filter: AuditFilter = {}): AuditEntry[] {
    const where: string[] = [];
    const params: Record<string, string | number> = {};
    if (filter.actor) { where.push('actor = @actor'); params['actor'] = filter.actor; }
    if (filter.action) { where.push('action = @action'); params['action'] = filter.action; }
    if (filter.outcome) { where.push('outcome = @outcome'); params['outcome'] = filter.outcome; }
    if (filter.before !== undefined) { where.push('seq < @before'); params['before'] = filter.before; }
    params['limit'] = Math.min(Math.max(filter.limit ?? 100, 1), 500);
    const sql = `SELECT * FROM audit ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY seq DESC LIMIT @limit`;
    return this.db.prepare<Record<string, string | number>, AuditRow>(sql).all(params).map((row) => ({
      seq: row.seq,
      at: iso(row.at),
      actor: row.actor,
      action: row.action,
      target: row.target,
      outcome: row.outcome as AuditEntry['outcome'],
      reason: row.reason,
      detail: JSON.parse(row.detail) as Record<string, unknown>,
    }));
  }
}

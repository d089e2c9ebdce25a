import type { Kind, Origin } from '../core/vocabulary.js';
import type { Memory, MemoryRevision, Provenance, RevisionAction, Scope } from '../core/types.js';
import type { Db } from './database.js';

interface MemoryRow {
  seq: number;
  id: string;
  scope: string;
  kind: string;
  content: string;
  tags: string;
  provenance: string;
  origin: string;
  revision: number;
  content_hash: string;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

interface RevisionRow {
  memory_id: string;
  revision: number;
  action: string;
  scope: string;
  kind: string;
  content: string;
  tags: string;
  provenance: string;
  origin: string;
  actor: string;
  consent: string | null;
  created_at: number;
}

export const iso = (ms: number): string => new Date(ms).toISOString();

export function rowToMemory(row: MemoryRow): Memory {
  return {
    id: row.id,
    scope: row.scope,
    kind: row.kind as Kind,
    content: row.content,
    tags: JSON.parse(row.tags) as string[],
    provenance: JSON.parse(row.provenance) as Provenance,
    origin: row.origin as Origin,
    revision: row.revision,
    content_hash: row.content_hash,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    deleted_at: row.deleted_at === null ? null : iso(row.deleted_at),
  };
}

export interface MemoryWrite {
  id: string;
  scope: Scope;
  kind: Kind;
  content: string;
  tags: string[];
  provenance: Provenance;
  origin: Origin;
  content_hash: string;
  at: number;
  actor: string;
  consent: string | null;
  created_at?: number;
}

/** Prepared statements over memories and their revisions. Callers own the transaction. */
export class MemoryQueries {
  private readonly byId;
  private readonly liveByHash;
  private readonly insert;
  private readonly update;
  private readonly setDeleted;
  private readonly insertRevision;
  private readonly revisionsOf;
  private readonly revisionAt;

  constructor(private readonly db: Db) {
    this.byId = db.prepare<[string], MemoryRow>('SELECT * FROM memories WHERE id = ?');
    this.liveByHash = db.prepare<[string, string, string], MemoryRow>(
      'SELECT * FROM memories WHERE scope = ? AND content_hash = ? AND deleted_at IS NULL AND id <> ? LIMIT 1',
    );
    this.insert = db.prepare(
      `INSERT INTO memories (id, scope, kind, content, tags, provenance, origin, revision, content_hash, created_at, updated_at)
       VALUES (@id, @scope, @kind, @content, @tags, @provenance, @origin, 1, @content_hash, @created_at, @at)`,
    );
    this.update = db.prepare(
      `UPDATE memories SET scope = @scope, kind = @kind, content = @content, tags = @tags, provenance = @provenance,
         origin = @origin, content_hash = @content_hash, revision = revision + 1, updated_at = @at
       WHERE id = @id AND revision = @expected AND deleted_at IS NULL`,
    );
    this.setDeleted = db.prepare(
      `UPDATE memories SET deleted_at = @deleted_at, revision = revision + 1, updated_at = @at
       WHERE id = @id AND revision = @expected`,
    );
    this.insertRevision = db.prepare(
      `INSERT INTO memory_revisions (memory_id, revision, action, scope, kind, content, tags, provenance, origin, content_hash, actor, consent, created_at)
       SELECT id, revision, @action, scope, kind, content, tags, provenance, origin, content_hash, @actor, @consent, @at FROM memories WHERE id = @id`,
    );
    this.revisionsOf = db.prepare<[string], RevisionRow>('SELECT * FROM memory_revisions WHERE memory_id = ? ORDER BY revision');
    this.revisionAt = db.prepare<[string, number], RevisionRow>('SELECT * FROM memory_revisions WHERE memory_id = ? AND revision = ?');
  }

  get(id: string): Memory | undefined {
    const row = this.byId.get(id);
    return row ? rowToMemory(row) : undefined;
  }

  /** A live memory in `scope` with the same normalised hash, other than `exceptId`. */
  findDuplicate(scope: Scope, contentHash: string, exceptId = ''): Memory | undefined {
    const row = this.liveByHash.get(scope, contentHash, exceptId);
    return row ? rowToMemory(row) : undefined;
  }

  create(write: MemoryWrite): Memory {
    this.insert.run({
      id: write.id,
      scope: write.scope,
      kind: write.kind,
      content: write.content,
      tags: JSON.stringify(write.tags),
      provenance: JSON.stringify(write.provenance),
      origin: write.origin,
      content_hash: write.content_hash,
      created_at: write.created_at ?? write.at,
      at: write.at,
    });
    this.recordRevision(write.id, 'create', write.actor, write.consent, write.at);
    return this.get(write.id)!;
  }

  /** Returns undefined when the expected revision no longer matches (a concurrent change won). */
  replace(write: MemoryWrite, expectedRevision: number): Memory | undefined {
    const result = this.update.run({
      id: write.id,
      scope: write.scope,
      kind: write.kind,
      content: write.content,
      tags: JSON.stringify(write.tags),
      provenance: JSON.stringify(write.provenance),
      origin: write.origin,
      content_hash: write.content_hash,
      at: write.at,
      expected: expectedRevision,
    });
    if (result.changes !== 1) return undefined;
    this.recordRevision(write.id, 'update', write.actor, write.consent, write.at);
    return this.get(write.id);
  }

  markDeleted(id: string, expectedRevision: number, deleted: boolean, actor: string, consent: string | null, at: number): Memory | undefined {
    const result = this.setDeleted.run({ id, expected: expectedRevision, deleted_at: deleted ? at : null, at });
    if (result.changes !== 1) return undefined;
    this.recordRevision(id, deleted ? 'forget' : 'restore', actor, consent, at);
    return this.get(id);
  }

  revisions(id: string): MemoryRevision[] {
    return this.revisionsOf.all(id).map(rowToRevision);
  }

  revision(id: string, revision: number): MemoryRevision | undefined {
    const row = this.revisionAt.get(id, revision);
    return row ? rowToRevision(row) : undefined;
  }

  private recordRevision(id: string, action: RevisionAction, actor: string, consent: string | null, at: number): void {
    this.insertRevision.run({ id, action, actor, consent, at });
  }
}

function rowToRevision(row: RevisionRow): MemoryRevision {
  return {
    memory_id: row.memory_id,
    revision: row.revision,
    action: row.action as RevisionAction,
    scope: row.scope,
    kind: row.kind as Kind,
    content: row.content,
    tags: JSON.parse(row.tags) as string[],
    provenance: JSON.parse(row.provenance) as Provenance,
    origin: row.origin as Origin,
    actor: row.actor,
    consent: row.consent,
    created_at: iso(row.created_at),
  };
}

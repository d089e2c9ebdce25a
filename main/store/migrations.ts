import type { Database } from 'better-sqlite3';
import { consentTables } from './migration-002-consent.js';
import { nearDuplicateBands } from './migration-003-near-duplicates.js';

/**
 * Ordered, append-only schema migrations. A released migration is never edited: a change is a new
 * entry. `PRAGMA user_version` records the last one applied.
 */
export interface Migration {
  version: number;
  name: string;
  up: (db: Database) => void;
}

const initial: Migration = {
  version: 1,
  name: 'memories, revisions, full-text index, audit',
  up(db) {
    db.exec(`
      CREATE TABLE memories (
        seq          INTEGER PRIMARY KEY,
        id           TEXT    NOT NULL UNIQUE,
        scope        TEXT    NOT NULL,
        kind         TEXT    NOT NULL,
        content      TEXT    NOT NULL,
        tags         TEXT    NOT NULL DEFAULT '[]',
        provenance   TEXT    NOT NULL DEFAULT '{}',
        origin       TEXT    NOT NULL,
        revision     INTEGER NOT NULL DEFAULT 1,
        content_hash TEXT    NOT NULL,
        created_at   INTEGER NOT NULL,
        updated_at   INTEGER NOT NULL,
        deleted_at   INTEGER
      );
      CREATE INDEX memories_live_hash ON memories(scope, content_hash) WHERE deleted_at IS NULL;
      CREATE INDEX memories_created ON memories(created_at DESC, id DESC);
      CREATE INDEX memories_scope_created ON memories(scope, created_at DESC);

      CREATE TABLE memory_revisions (
        memory_id    TEXT    NOT NULL,
        revision     INTEGER NOT NULL,
        action       TEXT    NOT NULL,
        scope        TEXT    NOT NULL,
        kind         TEXT    NOT NULL,
        content      TEXT    NOT NULL,
        tags         TEXT    NOT NULL,
        provenance   TEXT    NOT NULL,
        origin       TEXT    NOT NULL,
        content_hash TEXT    NOT NULL,
        actor        TEXT    NOT NULL,
        consent      TEXT,
        created_at   INTEGER NOT NULL,
        PRIMARY KEY (memory_id, revision)
      ) WITHOUT ROWID;

      CREATE VIRTUAL TABLE memories_fts USING fts5(
        content, tags,
        content='memories', content_rowid='seq',
        tokenize='unicode61 remove_diacritics 2', prefix='2 3'
      );
      CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts(rowid, content, tags) VALUES (new.seq, new.content, new.tags);
      END;
      CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags ON memories BEGIN
        INSERT INTO memories_fts(memories_fts, rowid, content, tags) VALUES ('delete', old.seq, old.content, old.tags);
        INSERT INTO memories_fts(rowid, content, tags) VALUES (new.seq, new.content, new.tags);
      END;
      CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts(memories_fts, rowid, content, tags) VALUES ('delete', old.seq, old.content, old.tags);
      END;

      CREATE TABLE audit (
        seq     INTEGER PRIMARY KEY,
        at      INTEGER NOT NULL,
        actor   TEXT    NOT NULL,
        action  TEXT    NOT NULL,
        target  TEXT,
        outcome TEXT    NOT NULL,
        reason  TEXT,
        detail  TEXT    NOT NULL DEFAULT '{}'
      );
      CREATE INDEX audit_at ON audit(at DESC);
    `);
  },
};

export const MIGRATIONS: readonly Migration[] = [initial, consentTables, nearDuplicateBands];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

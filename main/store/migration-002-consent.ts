import type { Migration } from './migrations.js';

/** Offers, grants and connections: the durable state of consent (DESIGN §3, §6). */
export const consentTables: Migration = {
  version: 2,
  name: 'offers, grants, connections',
  up(db) {
    db.exec(`
      CREATE TABLE offers (
        id           TEXT    PRIMARY KEY,
        requester    TEXT    NOT NULL,
        requester_json TEXT  NOT NULL,
        host         TEXT,
        tool         TEXT    NOT NULL,
        args_hash    TEXT    NOT NULL,
        frozen_input TEXT    NOT NULL,
        draft_json   TEXT    NOT NULL,
        scope        TEXT    NOT NULL,
        origin       TEXT    NOT NULL,
        state        TEXT    NOT NULL DEFAULT 'pending',
        created_at   INTEGER NOT NULL,
        expires_at   INTEGER NOT NULL,
        decided_at   INTEGER,
        decided_via  TEXT,
        consent      TEXT,
        memory_id    TEXT,
        error_code   TEXT
      );
      CREATE INDEX offers_pending ON offers(state, created_at);
      CREATE INDEX offers_requester ON offers(requester, args_hash, state);

      CREATE TABLE grants (
        id            TEXT    PRIMARY KEY,
        host          TEXT    NOT NULL,
        scope         TEXT    NOT NULL,
        origins       TEXT    NOT NULL,
        kinds         TEXT    NOT NULL,
        requires_attestation INTEGER NOT NULL DEFAULT 0,
        created_at    INTEGER NOT NULL,
        expires_at    INTEGER,
        revoked_at    INTEGER
      );

      CREATE TABLE connections (
        id           TEXT    PRIMARY KEY,
        instance     TEXT    NOT NULL,
        host         TEXT,
        host_version TEXT,
        projects     TEXT    NOT NULL DEFAULT '[]',
        pid          INTEGER,
        cwd          TEXT,
        first_seen   INTEGER NOT NULL,
        last_seen    INTEGER NOT NULL
      );
      CREATE INDEX connections_instance ON connections(instance);

      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
  },
};

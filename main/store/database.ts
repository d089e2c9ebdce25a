import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { NuzoError } from '../core/errors.js';
import { databasePath } from '../core/paths.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

export interface OpenOptions {
  readonly?: boolean;
  log?: (line: string) => void;
}

/** Creates the data folder private to this user (0700) if it does not exist yet. */
export function ensureHome(home: string): void {
  if (!existsSync(home)) mkdirSync(home, { recursive: true, mode: 0o700 });
}

/**
 * Opens the database, applying pending migrations. WAL with synchronous=FULL: an acknowledged
 * write survives a process kill and a power cut; imports amortise the fsync over batches.
 */
export function openDatabase(home: string, options: OpenOptions = {}): Db {
  ensureHome(home);
  const file = databasePath(home);
  const isNew = !existsSync(file);
  if (options.readonly && isNew) {
    throw new NuzoError('not_found', `There is no Nuzo database in ${home} yet.`, { home });
  }
  const db = new Database(file, { readonly: options.readonly ?? false, timeout: 5000 });
  if (isNew) chmodSync(file, 0o600);
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    migrate(db, file, options.log);
  } else if (schemaVersion(db) > LATEST_SCHEMA_VERSION) {
    throw newerSchemaError(schemaVersion(db));
  }
  db.pragma('cache_size = -32000');
  db.pragma('temp_store = MEMORY');
  return db;
}

export function schemaVersion(db: Db): number {
  return Number(db.pragma('user_version', { simple: true }));
}

function newerSchemaError(version: number): NuzoError {
  return new NuzoError(
    'version_mismatch',
    `This data folder was written by a newer Nuzo (schema ${version}; this one knows ${LATEST_SCHEMA_VERSION}). Update Nuzo to open it.`,
    { schema: version, supported: LATEST_SCHEMA_VERSION },
  );
}

function migrate(db: Db, file: string, log: (line: string) => void = () => {}): void {
  const from = schemaVersion(db);
  if (from > LATEST_SCHEMA_VERSION) throw newerSchemaError(from);
  if (from === LATEST_SCHEMA_VERSION) return;
  if (from > 0) {
    // A copy of the old file before any change, so a failed upgrade can always be undone by hand.
    const backup = `${file}.pre-v${LATEST_SCHEMA_VERSION}.bak`;
    if (!existsSync(backup)) {
      db.exec(`VACUUM INTO '${backup.replaceAll("'", "''")}'`);
      chmodSync(backup, 0o600);
    }
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= from) continue;
    db.transaction(() => {
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    })();
    log(`store: migrated schema to v${migration.version} (${migration.name})`);
  }
}

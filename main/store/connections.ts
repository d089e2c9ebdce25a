import type { Db } from './database.js';
import { iso } from './memories.js';
import type { ConnectionView } from '../ui-api/contract.js';

interface ConnectionRow {
  id: string;
  instance: string;
  host: string | null;
  host_version: string | null;
  projects: string;
  pid: number | null;
  cwd: string | null;
  first_seen: number;
  last_seen: number;
}

export interface ConnectionRecord {
  id: string;
  instance: string;
  host: string | null;
  host_version: string | null;
  projects: string[];
  pid: number | null;
  cwd: string | null;
}

/** Bridges seen (DESIGN §3): one row per connection, refreshed while it lives. */
export class ConnectionQueries {
  constructor(private readonly db: Db) {}

  upsert(record: ConnectionRecord, now = Date.now()): void {
    this.db
      .prepare(
        `INSERT INTO connections (id, instance, host, host_version, projects, pid, cwd, first_seen, last_seen)
         VALUES (@id, @instance, @host, @host_version, @projects, @pid, @cwd, @now, @now)
         ON CONFLICT(id) DO UPDATE SET host = @host, host_version = @host_version, projects = @projects, last_seen = @now`,
      )
      .run({ ...record, projects: JSON.stringify(record.projects), now });
  }

  touch(id: string, now = Date.now()): void {
    this.db.prepare('UPDATE connections SET last_seen = ? WHERE id = ?').run(now, id);
  }

  list(live: ReadonlySet<string>, limit = 200): ConnectionView[] {
    return this.db
      .prepare<[number], ConnectionRow>('SELECT * FROM connections ORDER BY last_seen DESC LIMIT ?')
      .all(limit)
      .map((row) => ({
        id: row.id,
        host: row.host,
        host_version: row.host_version,
        projects: JSON.parse(row.projects) as string[],
        pid: row.pid,
        cwd: row.cwd,
        first_seen: iso(row.first_seen),
        last_seen: iso(row.last_seen),
        live: live.has(row.id),
      }));
  }
}

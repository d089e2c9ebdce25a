import type { Db } from './database.js';
import { ensureHome, openDatabase, type OpenOptions } from './database.js';
import { acquireDataLock, type DataLock } from './data-lock.js';
import { AuditLog } from './audit.js';
import { MemoryQueries } from './memories.js';

/**
 * The one writable handle on a data folder: the lock, the database and its prepared queries.
 * Opening takes the single-writer lock first, so a second writer fails before touching the file.
 */
export class Store {
  readonly memories: MemoryQueries;
  readonly audit: AuditLog;

  private constructor(
    readonly home: string,
    readonly db: Db,
    private readonly lock: DataLock | null,
  ) {
    this.memories = new MemoryQueries(db);
    this.audit = new AuditLog(db);
  }

  static open(home: string, holder: string, options: OpenOptions = {}): Store {
    if (!options.readonly) ensureHome(home);
    const lock = options.readonly ? null : acquireDataLock(home, holder);
    try {
      return new Store(home, openDatabase(home, options), lock);
    } catch (error) {
      lock?.release();
      throw error;
    }
  }

  /** Runs `fn` in one transaction (a savepoint when already inside one). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    if (this.db.open) this.db.close();
    this.lock?.release();
  }
}

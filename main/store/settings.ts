import type { Db } from './database.js';

/** Small persistent switches (pause capture, …), one JSON value per key. */
export class SettingsQueries {
  constructor(private readonly db: Db) {}

  get<T>(key: string, fallback: T): T {
    const row = this.db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(key);
    return row ? (JSON.parse(row.value) as T) : fallback;
  }

  set(key: string, value: unknown): void {
    this.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, JSON.stringify(value));
  }
}

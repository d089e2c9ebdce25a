import type { Migration } from './migrations.js';
import { ensureSeed, rebuildBands } from '../pipeline/minhash.js';

/**
 * The near-duplicate candidate index (DESIGN §4 stage 6): MinHash band keys per memory, keyed
 * with a per-installation secret seed kept in `settings` (`near_duplicate_seed`). The scope and
 * the band number are folded into the 32-bit key; `gen` (memory_seq >> 12) keeps inserts local
 * (pipeline/minhash.ts explains both). Every existing memory, live or forgotten, gets its bands
 * here, in one pass inside the migration's transaction (about 2 s at 100,000 memories).
 * Bands are derived data: should the hashing ever change, a later migration calls
 * `rebuildBands` again rather than editing this one.
 */
export const nearDuplicateBands: Migration = {
  version: 3,
  name: 'near-duplicate bands (MinHash LSH)',
  up(db) {
    db.exec(`
      CREATE TABLE memory_bands (
        gen        INTEGER NOT NULL,
        key        INTEGER NOT NULL,
        memory_seq INTEGER NOT NULL,
        PRIMARY KEY (gen, key, memory_seq)
      ) WITHOUT ROWID;
    `);
    ensureSeed(db);
    rebuildBands(db);
  },
};

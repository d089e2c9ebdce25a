import { chmodSync, createReadStream, mkdirSync } from 'node:fs';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { NuzoError } from '../core/errors.js';
import { APP_VERSION } from '../core/version.js';
import type { Store } from '../store/store.js';
import { schemaVersion } from '../store/database.js';
import { recall } from '../store/recall.js';
import { countMemories, listMemories } from '../store/list.js';
import { ConnectionQueries } from '../store/connections.js';
import { SettingsQueries } from '../store/settings.js';
import { executeWrite, restoreRevision, setForgotten } from '../pipeline/pipeline.js';
import type { Requester } from '../pipeline/types.js';
import { personActing } from '../consent/proof.js';
import type { ConsentEngine } from '../consent/engine.js';
import { exportLines } from '../transfer/export-jsonl.js';
import { importJsonl } from '../transfer/import-jsonl.js';
import { buildFtsQuery } from '../store/fts-query.js';
import { filterClauses } from '../store/recall.js';
import type { ApiEvent, HostConfigView, HostId, MemoryPage, MemoryQuery, NuzoApi } from './contract.js';

export const WINDOW_REQUESTER: Requester = { actor: 'window', channel: 'window', projects: [], person: true };

export interface HostConfigProvider {
  list(): HostConfigView[];
  write(host: HostId): { path: string; backup: string | null; changed: boolean };
}

export interface ServiceApiDeps {
  store: Store;
  engine: ConsentEngine;
  liveConnections: ReadonlySet<string>;
  hostConfigs: HostConfigProvider;
  /** Who the audit log names for this API's actions: the window, or the command line. */
  actor?: 'window' | 'cli';
}

const stamp = (): string => new Date().toISOString().replace(/[:.]/g, '-');

/** The window's API on the service (DESIGN §9). A person acts here: every scope is theirs. */
export function createServiceApi(deps: ServiceApiDeps): NuzoApi {
  const { store, engine } = deps;
  const connections = new ConnectionQueries(store.db);
  const settings = new SettingsQueries(store.db);
  const person = personActing();
  const actor = deps.actor ?? 'window';
  const changed = <T extends { id: string }>(memory: T): T => {
    engine.emit({ type: 'memory.changed', id: memory.id });
    return memory;
  };
  const settingsView = () => ({
    data_folder: store.home,
    version: APP_VERSION,
    schema_version: schemaVersion(store.db),
    memory_count: countMemories(store.db, {}),
    capture_paused: settings.get('capture_paused', false),
  });

  // Counting matches costs a full scan at 100k memories; a page of results does not change the
  // count, so it is kept until a memory changes.
  const totals = new Map<string, number>();
  engine.events.on('event', (event: ApiEvent) => {
    if (event.type === 'memory.changed' || event.type === 'offer.decided') totals.clear();
  });
  const cachedTotal = (key: unknown, count: () => number): number => {
    const k = JSON.stringify(key);
    let n = totals.get(k);
    if (n === undefined) {
      if (totals.size > 200) totals.clear();
      n = count();
      totals.set(k, n);
    }
    return n;
  };

  const search = (q: MemoryQuery): MemoryPage => {
    const filter = {
      ...(q.scopes?.length ? { scopes: q.scopes } : {}),
      ...(q.kinds?.length ? { kinds: q.kinds } : {}),
      ...(q.origins?.length ? { origins: q.origins } : {}),
      ...(q.tags?.length ? { tags: q.tags } : {}),
      ...(q.hosts?.length ? { hosts: q.hosts } : {}),
      state: q.state ?? 'live',
    } as const;
    const fts = buildFtsQuery(q.query);
    if (fts && (q.sort ?? 'relevance') === 'relevance') {
      const page = recall(store.db, { ...filter, query: q.query, limit: q.limit ?? 50, ...(q.cursor ? { cursor: q.cursor } : {}) });
      const total = cachedTotal({ q: q.query, filter }, () => {
        const params: Array<string | number> = [fts.all];
        const where = ['memories_fts MATCH ?', ...filterClauses(filter, params)];
        return (store.db.prepare(`SELECT count(*) AS n FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid WHERE ${where.join(' AND ')}`).get(...params) as { n: number }).n;
      });
      return { ...page, total: total || page.items.length };
    }
    if (fts) {
      // a text query sorted by date: match first, then order the matches by time
      const page = recall(store.db, { ...filter, query: q.query, limit: 200 });
      const key = q.sort === 'updated' ? 'updated_at' : 'created_at';
      const items = [...page.items].sort((a, b) => (a[key] < b[key] ? 1 : -1));
      return { items, next_cursor: null, total: items.length };
    }
    const page = listMemories(store.db, { ...filter, order: q.sort === 'updated' ? 'updated' : 'created', limit: q.limit ?? 50, ...(q.cursor ? { cursor: q.cursor } : {}) });
    return { ...page, total: cachedTotal({ filter }, () => countMemories(store.db, filter)) };
  };

  return {
    async inbox() {
      return engine.inbox();
    },
    async offer({ offer_id }) {
      const row = engine.offers.get(offer_id);
      if (!row) throw new NuzoError('not_found', `There is no offer ${offer_id}.`, { offer_id });
      return engine.view(row);
    },
    async decideOffer({ offer_id, approve, edits }) {
      return engine.decide(offer_id, approve, 'window', edits);
    },
    async searchMemories(q) {
      return search(q);
    },
    async memory({ memory_id }) {
      const memory = store.memories.get(memory_id);
      if (!memory) throw new NuzoError('not_found', `There is no memory ${memory_id}.`, { memory_id });
      return { memory, revisions: store.memories.revisions(memory_id) };
    },
    async facets() {
      const scopes = (store.db.prepare('SELECT DISTINCT scope FROM memories ORDER BY scope').all() as Array<{ scope: string }>).map((r) => r.scope);
      const tags = (
        store.db.prepare('SELECT value AS tag, count(*) AS n FROM memories, json_each(memories.tags) WHERE deleted_at IS NULL GROUP BY value ORDER BY n DESC LIMIT 200').all() as Array<{ tag: string }>
      ).map((r) => r.tag);
      const hosts = (
        store.db.prepare("SELECT DISTINCT json_extract(provenance, '$.host') AS host FROM memories WHERE json_extract(provenance, '$.host') IS NOT NULL ORDER BY host LIMIT 100").all() as Array<{ host: string }>
      ).map((r) => r.host);
      return {
        scopes,
        tags,
        hosts,
        counts: { live: countMemories(store.db, {}), deleted: countMemories(store.db, { state: 'deleted' }), pending: engine.offers.pendingCount() },
      };
    },
    async createMemory(params) {
      return changed(executeWrite(store, params, WINDOW_REQUESTER, person));
    },
    async updateMemory({ memory_id, expected_revision, ...edits }) {
      const current = store.memories.get(memory_id);
      if (!current) throw new NuzoError('not_found', `There is no memory ${memory_id}.`, { memory_id });
      const input = { memory_id, expected_revision, content: edits.content ?? current.content, kind: edits.kind ?? current.kind, scope: edits.scope ?? current.scope, tags: edits.tags ?? current.tags };
      return changed(executeWrite(store, input, WINDOW_REQUESTER, person));
    },
    async forgetMemory(params) {
      return changed(setForgotten(store, params, true, WINDOW_REQUESTER, person));
    },
    async restoreMemory(params) {
      return changed(setForgotten(store, params, false, WINDOW_REQUESTER, person));
    },
    async restoreRevision(params) {
      return changed(restoreRevision(store, params, WINDOW_REQUESTER, person));
    },
    async audit(filter) {
      return store.audit.list(filter);
    },
    async connections() {
      return connections.list(deps.liveConnections);
    },
    async grants() {
      return engine.grants.list();
    },
    async createGrant(input) {
      const grant = engine.grants.create(input);
      store.audit.record({ actor, action: 'grant.create', target: grant.id, outcome: 'ok', detail: { host: grant.host, scope: grant.scope, origins: grant.origins, kinds: grant.kinds } });
      engine.emit({ type: 'grant.changed', id: grant.id });
      return grant;
    },
    async revokeGrant({ grant_id }) {
      const grant = engine.grants.revoke(grant_id);
      store.audit.record({ actor, action: 'grant.revoke', target: grant.id, outcome: 'ok' });
      engine.emit({ type: 'grant.changed', id: grant.id });
      return grant;
    },
    async hostConfigs() {
      return deps.hostConfigs.list();
    },
    async writeHostConfig({ host }) {
      const result = deps.hostConfigs.write(host);
      store.audit.record({ actor, action: 'connect.write', target: host, outcome: 'ok', detail: { changed: result.changed } });
      return result;
    },
    async settings() {
      return settingsView();
    },
    async setCapturePaused({ paused }) {
      settings.set('capture_paused', paused);
      store.audit.record({ actor, action: paused ? 'capture.pause' : 'capture.resume', outcome: 'ok' });
      return settingsView();
    },
    async exportData({ path }) {
      const target = path ?? join(store.home, 'exports', `nuzo-export-${stamp()}.jsonl`);
      mkdirSync(join(target, '..'), { recursive: true, mode: 0o700 });
      const fd = openSync(target, 'w', 0o600);
      let count = 0;
      try {
        for (const line of exportLines(store.db, store.memories)) {
          writeSync(fd, JSON.stringify(line) + '\n');
          count++;
        }
      } finally {
        closeSync(fd);
      }
      store.audit.record({ actor, action: 'export', outcome: 'ok', detail: { count } });
      return { path: target, count };
    },
    async importData({ path }) {
      const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
      const summary = await importJsonl(store, lines);
      engine.emit({ type: 'memory.changed', id: '*' });
      return { written: summary.written, duplicate: summary.duplicate, refused: summary.refused };
    },
    async backup() {
      const dir = join(store.home, 'backups');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const target = join(dir, `nuzo-${stamp()}.sqlite`);
      await store.db.backup(target);
      chmodSync(target, 0o600);
      store.audit.record({ actor, action: 'backup', outcome: 'ok' });
      return { path: target };
    },
    subscribe(listener: (event: ApiEvent) => void) {
      engine.events.on('event', listener);
      return () => engine.events.off('event', listener);
    },
  };
}

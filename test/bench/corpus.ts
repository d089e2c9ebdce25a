/**
 * A deterministic corpus of realistic memories: varied vocabulary, code identifiers, paths and
 * several scopes. Same seed, same corpus, so runs compare.
 */
import { prng } from '../helpers/prng.js';
export { prng };

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const SERVICES = ['billing', 'checkout', 'search', 'auth', 'ingest', 'notifier', 'gateway', 'scheduler', 'reports', 'profile', 'catalog', 'payments', 'webhooks', 'exporter', 'renderer', 'indexer'];
const TOOLS = ['pnpm', 'vitest', 'eslint', 'prettier', 'docker', 'terraform', 'kubectl', 'postgres', 'redis', 'kafka', 'nginx', 'vite', 'webpack', 'jest', 'playwright', 'sqlite', 'grafana', 'sentry', 'github actions', 'make'];
const VERBS = ['uses', 'needs', 'prefers', 'avoids', 'depends on', 'replaced', 'migrated to', 'pins', 'caches', 'retries with'];
const ADJ = ['flaky', 'slow', 'stable', 'deprecated', 'experimental', 'critical', 'noisy', 'idempotent', 'eventual', 'strict'];
const NOUNS = ['timeout', 'connection pool', 'feature flag', 'rate limit', 'migration', 'index', 'queue', 'cron job', 'retry policy', 'cache key', 'schema', 'lockfile', 'build step', 'release branch', 'code owner', 'snapshot test', 'env var', 'health check'];
const PEOPLE = ['Ana', 'Bilal', 'Chen', 'Dara', 'Emeka', 'Farah', 'Goran', 'Hana', 'Ivo', 'Jun', 'Kofi', 'Lea', 'Mateo', 'Noor', 'Olu', 'Priya'];
const IDENT_A = ['get', 'set', 'load', 'parse', 'build', 'fetch', 'resolve', 'render', 'apply', 'flush', 'compute', 'normalize'];
const IDENT_B = ['User', 'Order', 'Invoice', 'Session', 'Config', 'Token', 'Route', 'Schema', 'Payload', 'Event', 'Query', 'Cursor'];
const IDENT_C = ['ById', 'FromCache', 'Async', 'Batch', 'OrThrow', 'WithRetry', '', 'ForTenant', 'Lazily', 'V2'];
const DIRS = ['src', 'lib', 'packages/core', 'apps/web', 'services', 'scripts', 'infra', 'test'];
const EXT = ['ts', 'tsx', 'py', 'go', 'rs', 'sql', 'yaml', 'json', 'md'];

const ident = (r: () => number): string => pick(r, IDENT_A) + pick(r, IDENT_B) + pick(r, IDENT_C);
const snake = (r: () => number): string => `${pick(r, IDENT_A)}_${pick(r, IDENT_B).toLowerCase()}_${pick(r, ['id', 'count', 'ttl', 'limit', 'at'])}`;
const path = (r: () => number): string => `${pick(r, DIRS)}/${pick(r, SERVICES)}/${pick(r, IDENT_B).toLowerCase()}.${pick(r, EXT)}`;

const TEMPLATES: Array<(r: () => number, i: number) => { content: string; kind: string }> = [
  (r) => ({ kind: 'fact', content: `The ${pick(r, SERVICES)} service ${pick(r, VERBS)} ${pick(r, TOOLS)}; its ${pick(r, NOUNS)} is ${Math.floor(r() * 900) + 10}ms.` }),
  (r) => ({ kind: 'decision', content: `We decided to move ${pick(r, SERVICES)} from ${pick(r, TOOLS)} to ${pick(r, TOOLS)} because the ${pick(r, NOUNS)} was ${pick(r, ADJ)}. ${pick(r, PEOPLE)} owns the follow-up.` }),
  (r) => ({ kind: 'preference', content: `${pick(r, PEOPLE)} prefers ${pick(r, TOOLS)} over ${pick(r, TOOLS)} for ${pick(r, SERVICES)} work, and ${pick(r, ['tabs', 'two spaces', 'small commits', 'squash merges', 'named exports'])}.` }),
  (r) => ({ kind: 'procedure', content: `To rebuild the ${pick(r, NOUNS)} for ${pick(r, SERVICES)}: run \`${pick(r, TOOLS)} ${pick(r, ['build', 'migrate', 'reindex', 'deploy'])} --${pick(r, ['force', 'dry-run', 'verbose', 'all'])}\`, then call ${ident(r)}() in ${path(r)}.` }),
  (r) => ({ kind: 'lesson', content: `Lesson: ${ident(r)} in ${path(r)} is ${pick(r, ADJ)} under load; set ${snake(r)} before calling it or the ${pick(r, NOUNS)} fills up.` }),
  (r) => ({ kind: 'note', content: `${pick(r, PEOPLE)} noted that ${snake(r)} in ${path(r)} drifts when ${pick(r, SERVICES)} restarts. See ${ident(r)}.` }),
  (r, i) => ({ kind: 'fact', content: `Ticket ${pick(r, ['NUZ', 'OPS', 'WEB'])}-${1000 + i}: the ${pick(r, ADJ)} ${pick(r, NOUNS)} in ${pick(r, SERVICES)} traced to ${ident(r)}; fixed in ${path(r)}.` }),
];

export interface CorpusItem {
  content: string;
  kind: string;
  scope: string;
  tags: string[];
}

export const BENCH_SCOPES = ['user', 'project:alpha-1a2b3c4d', 'project:beta-5e6f7a8b', 'project:gamma-9c0d1e2f', 'project:delta-3a4b5c6d'];

export function generateCorpus(n: number, seed = 42): CorpusItem[] {
  const r = prng(seed);
  const items: CorpusItem[] = [];
  for (let i = 0; i < n; i++) {
    const t = pick(r, TEMPLATES)(r, i);
    const extra = r() < 0.3 ? ` Also: ${pick(r, PEOPLE)} saw it on ${pick(r, ['Monday', 'Friday', 'release day', 'the night shift'])} (#${i}).` : ` (#${i})`;
    items.push({ content: t.content + extra, kind: t.kind, scope: pick(r, BENCH_SCOPES), tags: [pick(r, SERVICES), ...(r() < 0.4 ? [pick(r, TOOLS).replace(' ', '-')] : [])] });
  }
  return items;
}

export function generateQueries(n: number, seed = 7): string[] {
  const r = prng(seed);
  const makers: Array<() => string> = [
    () => pick(r, SERVICES),
    () => `${pick(r, SERVICES)} ${pick(r, TOOLS)}`,
    () => pick(r, NOUNS),
    () => ident(r),
    () => pick(r, IDENT_A) + pick(r, IDENT_B).slice(0, 3),
    () => `${pick(r, PEOPLE)} ${pick(r, TOOLS)}`,
    () => pick(r, TOOLS).slice(0, 4),
    () => `${pick(r, ADJ)} ${pick(r, NOUNS)}`,
  ];
  return Array.from({ length: n }, () => pick(r, makers)());
}

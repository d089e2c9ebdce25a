/**
 * Our secret scanner against secretlint (`@secretlint/core` + the recommended preset, a
 * dev-dependency kept only as a yardstick) on the same labelled corpus: recall on the positives,
 * false positives on the negatives, and the cost of scanning a 2 KB memory.
 *
 * Run directly: `node dist/test/bench/secrets-compare.js` prints the tables.
 */
import { pathToFileURL } from 'node:url';

import { lintSource } from '@secretlint/core';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';

import { RULE_IDS } from '../../main/pipeline/secrets/rules.js';
import { scanSecrets } from '../../main/pipeline/secrets/scanner.js';
import { buildSecretCorpus, seededRandom, type PositiveSample } from '../unit/secrets-corpus.js';
import type { BenchTable } from './table.js';

type SecretlintConfig = Parameters<typeof lintSource>[0]['options']['config'];
type Range = readonly [number, number];

const SECRETLINT_CONFIG: SecretlintConfig = {
  rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommendedPreset }],
};

const TEXT_SIZE = 2048;
const OUR_RUNS = 4000;
const SECRETLINT_RUNS = 300;

async function secretlintRanges(text: string): Promise<Range[]> {
  const result = await lintSource({
    source: { content: text, filePath: 'memory.txt', contentType: 'text' },
    options: { config: SECRETLINT_CONFIG, noPhysicFilePath: true, maskSecrets: true },
  });
  return result.messages.map((m) => m.range);
}

function ourRanges(text: string): Range[] {
  return scanSecrets(text).map((f) => [f.start, f.end] as const);
}

const overlaps = (range: Range, sample: PositiveSample): boolean => range[0] < sample.end && sample.start < range[1];

// --- 2 KB texts ----------------------------------------------------------------------------------

/** Memory-like prose: decisions, lessons, preferences; mentions keys and tokens, holds none. */
const PROSE_SENTENCES = [
  'Decision: the store keeps one SQLite file per data folder, opened in WAL mode by the main process only.',
  "Lesson: when the bridge restarts it replays the host's initialize, so the session survives a crash of the app.",
  'Preference: Alice wants answers in British English, short paragraphs, and code blocks that name the file first.',
  'Procedure: to cut a release, bump the version, run the tests, build the app and upload the artifacts by hand.',
  'Fact: the staging API sits behind the VPN; its token rotates every 24 hours and the deploy script fetches it.',
  'Note: the flaky framing test came from a 64 KiB pipe buffer on macOS; reading in a loop fixed it for good.',
  'Decision: passwords never go into memories; the scanner refuses any write that contains a credential.',
  'Lesson: the schema 3 to 4 migration must copy the tags column before dropping it, or old rows lose labels.',
  'Fact: the key bindings are Cmd-K for search, J and K to move in the inbox, A to approve and R to reject.',
  'Preference: use pnpm in the monorepo but plain npm for the desktop app, because the packager expects it.',
];

function proseTexts(count: number): string[] {
  const random = seededRandom(2048);
  return Array.from({ length: count }, () => {
    let text = '';
    while (text.length < TEXT_SIZE) text += `${PROSE_SENTENCES[Math.floor(random() * PROSE_SENTENCES.length)] ?? ''} `;
    return text.slice(0, TEXT_SIZE);
  });
}

/** Consecutive 2 KB windows of a long text (the corpus joined), for code/config-shaped input. */
function windowsOf(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at + TEXT_SIZE <= text.length; at += TEXT_SIZE) out.push(text.slice(at, at + TEXT_SIZE));
  return out;
}

// --- timing -----------------------------------------------------------------------------------------

interface Timing {
  median: number;
  p95: number;
}

function summarise(nanos: number[]): Timing {
  nanos.sort((a, b) => a - b);
  const at = (q: number): number => (nanos[Math.min(nanos.length - 1, Math.floor(q * nanos.length))] ?? 0) / 1000;
  return { median: at(0.5), p95: at(0.95) };
}

function timeOurs(texts: readonly string[], runs: number): Timing {
  for (let i = 0; i < 500; i++) scanSecrets(texts[i % texts.length] ?? '');
  const nanos: number[] = [];
  for (let i = 0; i < runs; i++) {
    const text = texts[i % texts.length] ?? '';
    const started = process.hrtime.bigint();
    scanSecrets(text);
    nanos.push(Number(process.hrtime.bigint() - started));
  }
  return summarise(nanos);
}

async function timeSecretlint(texts: readonly string[], runs: number): Promise<Timing> {
  for (let i = 0; i < 30; i++) await secretlintRanges(texts[i % texts.length] ?? '');
  const nanos: number[] = [];
  for (let i = 0; i < runs; i++) {
    const text = texts[i % texts.length] ?? '';
    const started = process.hrtime.bigint();
    await secretlintRanges(text);
    nanos.push(Number(process.hrtime.bigint() - started));
  }
  return summarise(nanos);
}

const fixed = (value: number, digits = 1): string => value.toFixed(digits);

// --- the comparison -----------------------------------------------------------------------------------

export async function compareScanners(): Promise<BenchTable[]> {
  const { positives, negatives } = buildSecretCorpus();

  const ourHits: boolean[] = [];
  const ourExact: boolean[] = [];
  const lintHits: boolean[] = [];
  for (const sample of positives) {
    const findings = scanSecrets(sample.text);
    ourHits.push(findings.some((f) => overlaps([f.start, f.end], sample)));
    ourExact.push(findings.some((f) => f.rule === sample.rule && f.start === sample.start && f.end === sample.end));
    lintHits.push((await secretlintRanges(sample.text)).some((r) => overlaps(r, sample)));
  }
  const ourFalse: string[] = [];
  const lintFalse: string[] = [];
  for (const sample of negatives) {
    if (ourRanges(sample.text).length > 0) ourFalse.push(sample.id);
    if ((await secretlintRanges(sample.text)).length > 0) lintFalse.push(sample.id);
  }

  const prose = proseTexts(16);
  const code = windowsOf(negatives.map((n) => n.text).join('\n\n'));
  const secrets = windowsOf(positives.map((p) => p.text).join('\n\n'));
  const adversarial = [
    'password='.repeat(228).slice(0, TEXT_SIZE),
    'postgres://a:'.repeat(158).slice(0, TEXT_SIZE),
    `eyJ${'A'.repeat(TEXT_SIZE - 4)}.`,
  ];

  const ourProse = timeOurs(prose, OUR_RUNS);
  const lintProse = await timeSecretlint(prose, SECRETLINT_RUNS);

  const count = (flags: readonly boolean[]): number => flags.filter(Boolean).length;
  const recall = (flags: readonly boolean[]): string => `${fixed((100 * count(flags)) / positives.length)}`;

  const summary: BenchTable = {
    title: `Secret scanners on the labelled corpus (${positives.length} positives over ${RULE_IDS.length} rules, ${negatives.length} negatives)`,
    columns: ['scanner', 'true positives', 'recall %', 'exact rule+span', 'false positives', 'µs per 2 KB (median)', 'API'],
    rows: [
      ['nuzo scanSecrets', count(ourHits), recall(ourHits), count(ourExact), `${ourFalse.length}/${negatives.length}`, fixed(ourProse.median), 'sync, spans + redacted preview'],
      ['secretlint 12 (preset-recommend)', count(lintHits), recall(lintHits), '—', `${lintFalse.length}/${negatives.length}`, fixed(lintProse.median), 'async (Promise), ranges'],
    ],
    notes: [
      'true positive: a finding that overlaps the labelled secret span; false positive: a negative sample with any finding.',
      `µs per 2 KB: median of ${OUR_RUNS} (nuzo) / ${SECRETLINT_RUNS} (secretlint) runs over ${prose.length} memory-like prose texts of ${TEXT_SIZE} chars.`,
      'secretlint runs with the preset defaults; its AWS rule does not report access key ids unless enableIDScanRule is set.',
      `nuzo false positives: ${ourFalse.length === 0 ? 'none' : ourFalse.join(', ')}`,
      `secretlint false positives: ${lintFalse.length === 0 ? 'none' : lintFalse.join(', ')}`,
    ],
  };

  const timingRows: Array<Array<string | number>> = [];
  for (const [label, texts] of [
    ['memory-like prose', prose],
    ['code and config (negatives)', code],
    ['secret-dense (positives)', secrets],
    ['adversarial', adversarial],
  ] as const) {
    const ours = timeOurs(texts, OUR_RUNS);
    const lint = await timeSecretlint(texts, Math.min(SECRETLINT_RUNS, 150));
    timingRows.push([label, texts.length, fixed(ours.median), fixed(ours.p95), fixed(lint.median), fixed(lint.median / Math.max(ours.median, 0.001), 0)]);
  }
  const timing: BenchTable = {
    title: 'Scanner time per 2 KB text (µs)',
    columns: ['text', 'texts', 'nuzo median', 'nuzo p95', 'secretlint median', 'secretlint ÷ nuzo'],
    rows: timingRows,
    notes: ['Each text is 2,048 characters; every call scans one text. secretlint is awaited per call, as the pipeline would have to.'],
  };

  const perRule = new Map<string, { samples: number; ours: number; lint: number }>();
  positives.forEach((sample, i) => {
    const row = perRule.get(sample.rule) ?? { samples: 0, ours: 0, lint: 0 };
    row.samples++;
    if (ourHits[i] === true) row.ours++;
    if (lintHits[i] === true) row.lint++;
    perRule.set(sample.rule, row);
  });
  const byRule: BenchTable = {
    title: 'Detection per rule (positives found / samples)',
    columns: ['rule', 'samples', 'nuzo', 'secretlint'],
    rows: RULE_IDS.map((id) => {
      const row = perRule.get(id) ?? { samples: 0, ours: 0, lint: 0 };
      return [id, row.samples, row.ours, row.lint];
    }),
  };

  return [summary, timing, byRule];
}

/** Plain aligned text: numbers right-aligned, everything else left-aligned. */
export function formatTable(table: BenchTable): string {
  const cells = [table.columns, ...table.rows.map((row) => row.map(String))];
  const numeric = table.columns.map((_, c) => table.rows.every((row) => /^[\d.,/%—-]+$/.test(String(row[c] ?? ''))));
  const widths = table.columns.map((_, c) => Math.max(...cells.map((row) => String(row[c] ?? '').length)));
  const line = (row: ReadonlyArray<string | number>): string =>
    row
      .map((cell, c) => (numeric[c] === true ? String(cell).padStart(widths[c] ?? 0) : String(cell).padEnd(widths[c] ?? 0)))
      .join('  ')
      .trimEnd();
  const out = [table.title, '='.repeat(table.title.length), line(table.columns), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const row of table.rows) out.push(line(row));
  for (const note of table.notes ?? []) out.push(`  ${note}`);
  return out.join('\n');
}

export async function main(): Promise<void> {
  const tables = await compareScanners();
  process.stdout.write(`${tables.map(formatTable).join('\n\n')}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}

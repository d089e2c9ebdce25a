import { chromium, type Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { generateCorpus } from './corpus.js';
import { fmt, summarise } from './stats.js';
import type { BenchTable } from './table.js';
import { callTool, connectClient, startServe, windowApi, type RunningService } from '../helpers/service-process.js';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function rssMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string): number => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

// The few browser globals used inside page functions (this file is compiled without DOM types;
// strings would be eval, which the window's CSP rightly forbids).
declare const document: { body: { innerText: string } };
declare function requestAnimationFrame(callback: () => void): number;

const nextFrames = (page: Page): Promise<unknown> => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/**
 * Issue 4's figures, with the loaded data folder: typing a query to results on screen in real
 * Chromium (the same API call made directly is the baseline), the inbox with 500 drafts, and the
 * service's memory.
 */
export async function runWindowBench(home: string, queries: string[]): Promise<BenchTable[]> {
  const service: RunningService = await startServe(home, { ui: true, env: { NUZO_CONSENT_WAIT_MS: '1' } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  try {
    const client = await connectClient(home, { name: 'bench-host' });
    let pending = 0;
    for (const item of generateCorpus(500, 4242)) {
      const r = await callTool(client, 'memory_confirm_capture', { content: `${item.content} [draft]`, kind: item.kind });
      if (r.code === 'consent_pending') pending++;
    }
    await client.close();

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const inboxLoads: number[] = [];
    const inboxApi: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await page.goto(service.url!);
      await page.waitForFunction((n) => document.body.innerText.includes(`${n} waiting`), pending, { timeout: 30_000 });
      await page.waitForSelector('[data-offer-id]');
      await nextFrames(page);
      inboxLoads.push(performance.now() - t0);
      const a0 = performance.now();
      await windowApi(service, 'inbox');
      inboxApi.push(performance.now() - a0);
    }

    await page.keyboard.press('2');
    const search = page.getByPlaceholder('Search…');
    await search.waitFor();
    const typed: number[] = [];
    const direct: number[] = [];
    for (const q of queries.slice(0, 50)) {
      const t0 = performance.now();
      const response = page.waitForResponse((r) => r.url().includes('/api/searchMemories') && (r.request().postData() ?? '').includes(JSON.stringify(q)), { timeout: 15_000 });
      await search.fill(q);
      await response;
      await nextFrames(page);
      typed.push(performance.now() - t0);
      const a0 = performance.now();
      await windowApi(service, 'searchMemories', { query: q, limit: 50 });
      direct.push(performance.now() - a0);
    }
    const mem = rssMiB(service.proc.pid!);
    const t = summarise(typed);
    const d = summarise(direct);
    const il = summarise(inboxLoads);
    const ia = summarise(inboxApi);
    return [
      {
        title: 'Window (real Chromium, real service, loaded corpus)',
        columns: ['measure', 'p50', 'p99', 'unit', 'note'],
        rows: [
          ['typing a query to results rendered', fmt(t.p50, 1), fmt(t.p99, 1), 'ms', '50 queries; includes the 120 ms typing debounce'],
          ['the same search, API call only', fmt(d.p50, 1), fmt(d.p99, 1), 'ms', 'baseline in the same run'],
          [`inbox render with ${pending} pending drafts`, fmt(il.p50, 1), fmt(il.p99, 1), 'ms', 'page load to drafts on screen, 5 loads'],
          ['the inbox API call only', fmt(ia.p50, 1), fmt(ia.p99, 1), 'ms', 'baseline in the same run'],
          ['service RSS / peak RSS', fmt(mem.rss, 0), fmt(mem.peak, 0), 'MiB', 'nuzo serve --ui after the runs'],
        ],
      },
    ];
  } finally {
    await browser.close();
    await service.stop();
  }
}

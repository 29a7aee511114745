/**
 * Part 10, the person's report (BENCH_PARTS=report), at demo size on the embedded default: the built server
 * on a fresh DATA_DIR of its own (demo data seeded by its first start: 200 inspections, 34 body systems):
 * 1. The PDF (`GET /inspection/report_pdf`, admin): REPORT_PDF_CALLS calls by 4 clients at once, each on its
 *    own keep-alive connection, every call another inspection (in the four languages by turns), after one
 *    warm-up call per client; p50/p95/max from sending to the last byte. Target: p95 <= 1 s.
 * 2. The PDF's size with CJK text: REPORT_PDF_SIZES demo inspections' PDFs (spread over the list) in zh
 *    and in ja (fonts embedded and subset); the largest and the median. Target: at most 600 KB a report.
 * 3. The shared page's first paint (`/share/<token>`) on a phone (375 x 780, es) over DevTools' "Slow 4G"
 *    (web.ts SLOW_4G, through CDP Network.emulateNetworkConditions), empty cache, no session: first
 *    contentful paint, largest contentful paint, JS bytes. Target: first paint <= 2.5 s.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Running, startServer } from './lib/server';
import { kb, median, ms, pct, table } from './lib/stats';
import { loadPage, type PageLoad, SLOW_4G } from './web';
import { launchChromium } from './wire-bytes';

const QUICK = process.env.BENCH_QUICK === '1';
const CALLS = Number(process.env.REPORT_PDF_CALLS ?? (QUICK ? 40 : 120));
const CONCURRENCY = 4;
/** Inspections whose PDF sizes are taken (in zh and ja), spread over the demo data. */
const SIZE_SAMPLE = Number(process.env.REPORT_PDF_SIZES ?? (QUICK ? 20 : 60));
export const PDF_P95_TARGET_MS = 1000;
export const PDF_SIZE_TARGET = 600 * 1024;
export const SHARE_PAINT_TARGET_MS = 2500;
const LANGS = ['zh', 'en', 'es', 'ja'] as const;

export interface ReportFigures {
  calls: number[];
  /** The same PDFs one at a time (the CPU one report costs, with the box's noise). */
  alone: number[];
  sizes: { zh: number[]; ja: number[] };
  share: PageLoad;
  /** The shared page: the report's sheet in the DOM (ms after navigation start), same conditions. */
  sheetMs: number;
}

interface Envelope {
  code: number;
  datas: { key?: string; url?: string; list?: { id: number }[] };
}
async function json(url: string, init?: RequestInit) {
  const res = await fetch(url, init);
  return (await res.json()) as Envelope;
}

export async function measureReport(progress: (line: string) => void, shots: string): Promise<ReportFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-report-'));
  fs.chmodSync(dataDir, 0o755); // the embedded PostgreSQL's user (when started by root) passes through it
  let server: Running | undefined;
  try {
    progress('report: the current build on a data folder of its own');
    server = await startServer({ env: { DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: '1' } });
    const url = server.url;
    const key = (await json(`${url}/adminapi/login/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'demo1234' }) }))
      .datas.key as string;
    const list = await json(`${url}/adminapi/inspection/list?key=${key}&limit=200`);
    const ids = (list.datas.list ?? []).map((r) => r.id);
    const pdf = async (id: number, lang: string) => {
      const started = performance.now();
      const res = await fetch(`${url}/adminapi/inspection/report_pdf?key=${key}&id=${id}&lang=${lang}`);
      const body = Buffer.from(await res.arrayBuffer());
      if (res.headers.get('content-type') !== 'application/pdf') throw new Error(`report_pdf ${id}: ${body.toString().slice(0, 200)}`);
      return { ms: performance.now() - started, bytes: body.length };
    };

    progress(`report: the PDF, ${CALLS} calls by ${CONCURRENCY} clients at once`);
    await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => pdf(ids[i]!, LANGS[i]!)));
    const calls: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < CALLS) {
          const n = next++;
          calls.push((await pdf(ids[n % ids.length]!, LANGS[n % LANGS.length]!)).ms);
        }
      }),
    );

    progress('report: the PDF, one call at a time');
    const alone: number[] = [];
    for (let n = 0; n < (QUICK ? 8 : 20); n++) alone.push((await pdf(ids[n % ids.length]!, LANGS[n % LANGS.length]!)).ms);

    progress(`report: ${SIZE_SAMPLE} inspections as PDFs in zh and ja, for the sizes`);
    const sizes = { zh: [] as number[], ja: [] as number[] };
    const step = Math.max(1, Math.floor(ids.length / SIZE_SAMPLE));
    for (let i = 0; i < ids.length && sizes.zh.length < SIZE_SAMPLE; i += step) for (const lang of ['zh', 'ja'] as const) sizes[lang].push((await pdf(ids[i]!, lang)).bytes);

    progress('report: the shared page on a phone over slow 4G');
    const made = await json(`${url}/adminapi/inspection/share`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key, id: ids[0] }) });
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 375, height: 780 } });
      const share = await loadPage(context, made.datas.url as string, 'networkidle', `${shots}/bench-share-page.png`);
      await context.close();
      // The sheet itself: a fresh context, the same network, until the report is on the page.
      const again = await browser.newContext({ locale: 'es-ES', viewport: { width: 375, height: 780 } });
      const page = await again.newPage();
      const cdp = await again.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
      await page.goto(made.datas.url as string, { waitUntil: 'commit', timeout: 120_000 });
      await page.locator('[data-testid="report-sheet"]').waitFor({ timeout: 120_000 });
      const sheetMs = await page.evaluate(() => performance.now());
      await page.screenshot({ path: `${shots}/bench-share-sheet.png` });
      await again.close();
      return { calls, alone, sizes, share, sheetMs };
    } finally {
      await browser.close();
    }
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');

export function reportMarkdown(f: ReportFigures): string {
  const p95 = pct(f.calls, 95);
  const largest = Math.max(...f.sizes.zh, ...f.sizes.ja);
  return [
    "### The person's report (PDF and shared page, embedded, demo data)",
    '',
    table(
      ['figure', 'value', 'target', ''],
      [
        [
          `PDF, ${f.calls.length} calls by ${CONCURRENCY} clients at once: p50 / p95 / max`,
          `${ms(pct(f.calls, 50))} / ${ms(p95)} / ${ms(Math.max(...f.calls))}`,
          `p95 <= ${ms(PDF_P95_TARGET_MS)}`,
          verdict(p95 <= PDF_P95_TARGET_MS),
        ],
        [
          `PDF size with CJK text, ${f.sizes.zh.length} reports in zh: median / largest`,
          `${kb(median(f.sizes.zh))} / ${kb(Math.max(...f.sizes.zh))}`,
          `<= ${kb(PDF_SIZE_TARGET)}`,
          verdict(largest <= PDF_SIZE_TARGET),
        ],
        [`PDF, ${f.alone.length} calls one at a time: p50 / p95`, `${ms(pct(f.alone, 50))} / ${ms(pct(f.alone, 95))}`, '', ''],
        [`PDF size in ja: median / largest`, `${kb(median(f.sizes.ja))} / ${kb(Math.max(...f.sizes.ja))}`, `<= ${kb(PDF_SIZE_TARGET)}`, ''],
        [
          'shared page (375 px, es) on slow 4G: first contentful paint / largest',
          `${ms(f.share.fcp)} / ${ms(f.share.lcp)}`,
          `first paint <= ${ms(SHARE_PAINT_TARGET_MS)}`,
          verdict(f.share.fcp > 0 && f.share.fcp <= SHARE_PAINT_TARGET_MS),
        ],
        ['shared page: the report sheet on the page (same conditions)', ms(f.sheetMs), '', ''],
        ['shared page: JS transferred (on the wire)', `${kb(f.share.js.wire)} in ${f.share.js.files} files`, '', ''],
      ],
    ),
  ].join('\n');
}

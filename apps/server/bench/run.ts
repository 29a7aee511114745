/**
 * Benchmarks: prints figures, asserts nothing.
 *  1. Gzipped JS the login page loads, and the home page loads in total (real Chromium, built app).
 *  2. Device list API latency (p50/p95) over HTTP with 100k devices on the embedded database,
 *     single user and 10 concurrent, next to the raw SQL time of the same query, and the cost of a
 *     full count(*) against the capped count the API uses.
 * Usage: npm run bench   (BENCH_DEVICES=100000 BENCH_SKIP_WEB=1 to change)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openPglite } from '../src/db/client';
import { institutions } from '../src/db/schema';
import type { Auth } from '../src/http/access';
import { seedDemoIfEmpty, syncMenus } from '../src/seed';
import { list as listDevices } from '../src/modules/equipment/service';
import { equipmentListQuery } from '@app/contract';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
const webDist = path.resolve(import.meta.dirname, '../../web/dist');

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function benchBundles(url: string) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
  const loaded = new Set<string>();
  page.on('response', (res) => {
    const u = new URL(res.url());
    if (u.pathname.endsWith('.js')) loaded.add(u.pathname);
  });
  const gz = (files: Iterable<string>) => [...files].reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(webDist, f))).length, 0);
  await page.goto(`${url}/login`, { waitUntil: 'networkidle' });
  const loginFiles = new Set(loaded);
  await page.locator('input').first().fill('admin');
  await page.locator('input[type=password]').first().fill('demo1234');
  await page.keyboard.press('Enter');
  await page.waitForURL(/dashboard\/index/, { timeout: 30_000 });
  // The home page is loaded when the device table shows its rows.
  await page.waitForSelector('.ant-table-row', { timeout: 30_000 });
  await page.waitForTimeout(500);
  console.log('\n## Web bundles (gzip)');
  console.log(`login page JS: ${(gz(loginFiles) / 1024).toFixed(1)} KB in ${loginFiles.size} files (budget 200 KB)`);
  console.log(`home page JS in total (login + shell + device list): ${(gz(loaded) / 1024).toFixed(1)} KB in ${loaded.size} files (budget 450 KB)`);
  await browser.close();
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  const database = await openPglite(path.join(dir, 'pgdata'));
  await database.migrate();
  await syncMenus(database.db);
  await seedDemoIfEmpty(database.db);
  const db = database.db;

  // Bulk devices spread over every institution (and stock), dates spread over two years.
  const t0 = performance.now();
  await db.execute(sql`
    insert into devices (serial, model, name, institution_id, status, activated_at, expires_at, total_inspections, last_seen_at, created_at)
    select 'BX' || lpad(g::text, 7, '0'), (array['BE-100','BE-200','BE-300 Pro'])[1 + g % 3], 'Bench device ' || g,
           (select id from institutions order by id offset (g % (select count(*) from institutions)) limit 1),
           (array['active','active','active','inactive','disabled'])[1 + g % 5],
           now() - (g % 700) * interval '1 day', now() + ((g * 7919) % 730 - 200) * interval '1 day',
           g % 3000, now() - (g % 10000) * interval '1 minute', now() - (g % 900) * interval '1 day'
    from generate_series(1, ${DEVICES}) g`);
  await db.execute(sql`analyze`);
  console.log(`# Benchmarks (${os.cpus().length} cores, node ${process.version})`);
  console.log(`inserted ${DEVICES} devices in ${fmt(performance.now() - t0)}`);

  const config = { ...loadConfig({}), logLevel: 'silent', webDist: fs.existsSync(path.join(webDist, 'index.html')) ? webDist : undefined, dataDir: dir };
  const app = await buildApp(config, db);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });

  const login = async (path_: string, username: string) =>
    (await (await fetch(`${url}/adminapi${path_}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: 'demo1234' }) })).json()).datas
      .key as string;
  const adminKey = await login('/login/login', 'admin');
  const agentKey = await login('/login/institution_login', 'agent1');
  const [agent1] = await db.select({ path: institutions.path }).from(institutions).where(eq(institutions.username, 'agent1'));
  if (!agent1) throw new Error('the demo institution agent1 is missing');
  const agent1Path = agent1.path;

  const cases: { name: string; key: string; query: Record<string, string> }[] = [
    { name: 'admin, page 1, newest first', key: adminKey, query: { page: '1', limit: '20' } },
    { name: 'admin, page 200, by expiry', key: adminKey, query: { page: '200', limit: '20', sort: 'expires_at', order: 'ascend' } },
    { name: 'admin, status=active, by last seen', key: adminKey, query: { status: 'active', sort: 'last_seen_at', order: 'descend' } },
    { name: 'admin, expiring in 30 days', key: adminKey, query: { expiring: '1' } },
    { name: 'admin, keyword serial prefix', key: adminKey, query: { keyword: 'BX00123' } },
    { name: 'agent1 (grade 1 subtree), page 1', key: agentKey, query: { page: '1', limit: '20' } },
    { name: 'agent1, by inspections, page 10', key: agentKey, query: { page: '10', sort: 'total_inspections', order: 'descend' } },
  ];

  console.log('\n## Device list API over HTTP (embedded PGlite)');
  console.log('| query | total | 1 user p50 | p95 | 10 concurrent p50 | p95 | raw SQL p50 |');
  console.log('|---|---|---|---|---|---|---|');
  for (const c of cases) {
    const target = `${url}/adminapi/equipment/list?${new URLSearchParams({ ...c.query, key: c.key })}`;
    const once = async () => {
      const s = performance.now();
      const body = await (await fetch(target)).json();
      if (body.code !== 200) throw new Error(JSON.stringify(body));
      return { ms: performance.now() - s, body };
    };
    const { body } = await once();
    const single: number[] = [];
    for (let i = 0; i < 40; i++) single.push((await once()).ms);
    const concurrent: number[] = [];
    for (let round = 0; round < 8; round++) concurrent.push(...(await Promise.all(Array.from({ length: 10 }, once))).map((r) => r.ms));
    // The same query without HTTP, session and JSON: the service against the database.
    const auth: Auth =
      c.key === adminKey
        ? { sessionId: 0, kind: 'admin', restricted: false, viewer: { isAdmin: true, grade: 0 } }
        : { sessionId: 0, kind: 'institution', restricted: false, viewer: { isAdmin: false, grade: 1 }, institution: { id: 0, grade: 1, path: agent1Path, termExpiresAt: null, username: 'agent1' } };
    const q = equipmentListQuery.parse(c.query);
    const raw: number[] = [];
    for (let i = 0; i < 20; i++) {
      const s = performance.now();
      await listDevices(db, auth, q);
      raw.push(performance.now() - s);
    }
    console.log(
      `| ${c.name} | ${body.datas.capped ? `${body.datas.total}+` : body.datas.total} | ${fmt(pct(single, 50))} | ${fmt(pct(single, 95))} | ${fmt(pct(concurrent, 50))} | ${fmt(pct(concurrent, 95))} | ${fmt(pct(raw, 50))} |`,
    );
  }

  console.log('\n## Counting: full count(*) vs the capped count the API uses');
  for (const [name, q] of [
    ['full count(*) of devices', sql`select count(*) from devices`],
    ['capped count (stops at 10 001)', sql`select count(*) from (select 1 from devices limit 10001) s`],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const s = performance.now();
      await db.execute(q);
      times.push(performance.now() - s);
    }
    console.log(`${name}: p50 ${fmt(pct(times, 50))}`);
  }

  if (config.webDist && !process.env.BENCH_SKIP_WEB) await benchBundles(url);
  await app.close();
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

await main();

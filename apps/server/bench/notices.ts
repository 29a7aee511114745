/**
 * Part 10, notices (BENCH_PARTS=notices; issue 36): two built servers on one database of their own on the
 * PostgreSQL server (BENCH_PG_URL), demo data seeded by the first one's start.
 * 1. 1,000 open streams on one process (process A): NOTICE_STREAMS streams of the admin, five per session
 *    (the per-session limit), each a plain HTTP connection reading `/notice/stream`. Against the same
 *    process with no stream open (before, and again after they are closed): its resident memory (RSS),
 *    the event-loop delay's p99 (prom-client's, read from /metrics, reset before each window) while one
 *    client calls the device list NOTICE_LIST_CALLS times one after another, and that list's p95. With the
 *    streams open, one notice to all of them: the time until every stream has it (the fan-out).
 * 2. Notice delay across processes: one admin stream held on process B; agent2 files a branch application
 *    through process A (an `application_pending` notice to the admin) NOTICE_DELAY_ROUNDS times, one after
 *    another; each delay is from the filing's request to the event's arrival on B's stream.
 * Targets (issue 36): at most 60 MB more RSS with 1,000 streams, event-loop p99 under 50 ms, the list's p95
 * within 10% of no streams; the delay's p95 at most 2 s.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Client, httpClient, isOk } from './lib/load';
import { type Running, scrape, startServer } from './lib/server';
import { mb, ms, pct, table } from './lib/stats';

const QUICK = process.env.BENCH_QUICK === '1';
const STREAMS = Number(process.env.NOTICE_STREAMS ?? 1_000);
const LIST_CALLS = Number(process.env.NOTICE_LIST_CALLS ?? (QUICK ? 150 : 400));
const DELAY_ROUNDS = Number(process.env.NOTICE_DELAY_ROUNDS ?? (QUICK ? 20 : 60));
const PASSWORD = 'demo1234';
const LIST = '/adminapi/equipment/list?page=1&limit=20';

export const RSS_TARGET = 60 * 1024 * 1024;
export const LOOP_TARGET_MS = 50;
export const LIST_TARGET = 0.1;
export const DELAY_TARGET_MS = 2_000;

export interface Window {
  rss: number;
  loopP99: number;
  listP95: number;
  listP50: number;
}
export interface NoticeFigures {
  streams: number;
  before: Window;
  open: Window;
  after: Window;
  /** One notice to every open stream: until the last has it. */
  fanOutMs: number;
  delays: number[];
  /** The box's load average (1 min) when the part started and ended: the figures' noise. */
  load: [number, number];
}

async function keyOf(client: Client, username: string, kind: 'admin' | 'institution'): Promise<string> {
  const a = await client.post(kind === 'admin' ? '/adminapi/login/login' : '/adminapi/login/institution_login', { username, password: PASSWORD });
  if (!isOk(a)) throw new Error(`sign-in ${username}: ${JSON.stringify(a.body)}`);
  return (a.body as { datas: { key: string } }).datas.key;
}

/** A window of device-list calls, one client: the list's latencies and the event loop's p99 over it. */
async function window(server: Running, client: Client, key: string): Promise<Window> {
  const auth = { authorization: `Bearer ${key}` };
  for (let i = 0; i < 20; i++) await client.get(LIST, auth); // warm
  await scrape(server.metricsUrl!, ['nodejs_eventloop_lag_p99_seconds']);
  const times: number[] = [];
  for (let i = 0; i < LIST_CALLS; i++) {
    const a = await client.get(LIST, auth);
    if (!isOk(a)) throw new Error(`device list: ${a.status} ${JSON.stringify(a.body).slice(0, 200)}`);
    times.push(a.ms);
  }
  const lag = await scrape(server.metricsUrl!, ['nodejs_eventloop_lag_p99_seconds']);
  return { rss: server.rss(), loopP99: lag.nodejs_eventloop_lag_p99_seconds * 1000, listP95: pct(times, 95), listP50: pct(times, 50) };
}

interface OpenStream {
  events: { id: number; at: number; data: { kind: string; thing_id: number } }[];
  ready: Promise<void>;
  close(): void;
}

/** One stream on its own connection; events parsed as they come, each stamped on arrival. */
function follow(base: string, key: string): OpenStream {
  const url = new URL(`${base}/adminapi/notice/stream`);
  const events: OpenStream['events'] = [];
  let text = '';
  let req: http.ClientRequest | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    req = http.get({ host: url.hostname, port: url.port, path: url.pathname, agent: false, headers: { authorization: `Bearer ${key}` } }, (res) => {
      if (!String(res.headers['content-type']).startsWith('text/event-stream')) reject(new Error(`no stream: ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const at = performance.now();
        text += chunk;
        if (text.includes(': connected')) resolve();
        for (let cut = text.indexOf('\n\n'); cut >= 0; cut = text.indexOf('\n\n')) {
          const block = text.slice(0, cut);
          text = text.slice(cut + 2);
          const id = /^id: (\d+)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (id && data && /^event: notice$/m.test(block)) events.push({ id: Number(id), at, data: JSON.parse(data) });
        }
      });
      res.on('error', () => {});
    });
    req.on('error', reject);
  });
  return { events, ready, close: () => req?.destroy() };
}

let seq = 0;
const application = () => {
  seq++;
  return {
    name: `Bench branch ${process.pid}-${seq}`,
    contact_name: 'Bench',
    phone: '13700000000',
    region: ['320000', '320500', '320508'],
    address: 'Bench street',
    username: `bench${process.pid}x${seq}`,
  };
};

export async function measureNotices(progress: (line: string) => void, pgUrl: string): Promise<NoticeFigures> {
  const loadBefore = os.loadavg()[0]!;
  const name = `bench_notices_${process.pid}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const dbUrl = new URL(pgUrl);
  dbUrl.pathname = `/${name}`;
  const dirs = [fs.mkdtempSync(path.join(os.tmpdir(), 'bench-notices-a-')), fs.mkdtempSync(path.join(os.tmpdir(), 'bench-notices-b-'))];
  let a: Running | undefined;
  let b: Running | undefined;
  const streams: OpenStream[] = [];
  try {
    progress('notices: two servers on one PostgreSQL database (the first seeds the demo data)');
    a = await startServer({ metrics: true, env: { DATABASE_URL: dbUrl.toString(), DATA_DIR: dirs[0], SEED_DEMO: '1' } });
    b = await startServer({ env: { DATABASE_URL: dbUrl.toString(), DATA_DIR: dirs[1], SEED_DEMO: '0' } });
    const client = httpClient(a.url);
    const listKey = await keyOf(client, 'admin', 'admin');
    const sessions = Math.ceil(STREAMS / 5);
    progress(`notices: ${sessions} admin sessions for ${STREAMS} streams`);
    const keys: string[] = [];
    for (let i = 0; i < sessions; i++) keys.push(await keyOf(client, 'admin', 'admin'));

    progress('notices: no stream open');
    const before = await window(a, client, listKey);
    progress(`notices: opening ${STREAMS} streams on one process`);
    // In batches, as pages open over time (a thousand at once would meet the server's bounded queue: 503s).
    for (let i = 0; i < STREAMS; i += 25) {
      const batch = Array.from({ length: Math.min(25, STREAMS - i) }, (_, j) => i + j);
      await Promise.all(
        batch.map(async (n) => {
          for (let attempt = 0; ; attempt++) {
            const s = follow(a!.url, keys[Math.floor(n / 5)]!);
            try {
              await s.ready;
              streams.push(s);
              return;
            } catch (err) {
              s.close();
              if (attempt >= 5) throw err;
              await new Promise((r) => setTimeout(r, 500));
            }
          }
        }),
      );
    }
    await new Promise((r) => setTimeout(r, 2_000));
    const open = await window(a, client, listKey);
    // One notice to all of them (the admin reads application_pending).
    const agentKey = await keyOf(client, 'agent2', 'institution');
    const sent = performance.now();
    const filed = await client.post('/adminapi/branch/apply', application(), { authorization: `Bearer ${agentKey}` });
    if (!isOk(filed)) throw new Error(`branch apply: ${JSON.stringify(filed.body)}`);
    const thing = (filed.body as { datas: { id: number } }).datas.id;
    const has = (s: OpenStream) => s.events.find((e) => e.data.thing_id === thing && e.data.kind === 'application_pending');
    const deadline = Date.now() + 30_000;
    while (!streams.every(has) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const reached = streams.filter(has).length;
    if (reached < STREAMS) throw new Error(`the notice reached ${reached} of ${STREAMS} streams in 30 s`);
    const fanOutMs = Math.max(...streams.map((s) => has(s)!.at)) - sent;
    for (const s of streams.splice(0)) s.close();
    await new Promise((r) => setTimeout(r, 2_000));
    progress('notices: streams closed');
    const after = await window(a, client, listKey);

    progress(`notices: delay from process A to a stream on process B, ${DELAY_ROUNDS} rounds`);
    const bKey = await keyOf(httpClient(b.url), 'admin', 'admin');
    const held = follow(b.url, bKey);
    streams.push(held);
    await held.ready;
    const delays: number[] = [];
    for (let i = 0; i < DELAY_ROUNDS; i++) {
      const started = performance.now();
      const res = await client.post('/adminapi/branch/apply', application(), { authorization: `Bearer ${agentKey}` });
      if (!isOk(res)) throw new Error(`branch apply: ${JSON.stringify(res.body)}`);
      const id = (res.body as { datas: { id: number } }).datas.id;
      const until = Date.now() + 10_000;
      let got: OpenStream['events'][number] | undefined;
      while (!got && Date.now() < until) {
        got = held.events.find((e) => e.data.thing_id === id);
        if (!got) await new Promise((r) => setTimeout(r, 2));
      }
      delays.push(got ? got.at - started : Number.POSITIVE_INFINITY);
    }
    client.close();
    return { streams: STREAMS, before, open, after, fanOutMs, delays, load: [loadBefore, os.loadavg()[0]!] };
  } finally {
    for (const s of streams) s.close();
    await a?.stop();
    await b?.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  }
}

const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

export function noticesMarkdown(f: NoticeFigures): string {
  const added = f.open.rss - f.before.rss;
  const listRatio = f.open.listP95 / f.before.listP95 - 1;
  const delay95 = pct(f.delays, 95);
  return [
    `### Notices: ${f.streams} open streams on one process; delay across two processes (PostgreSQL server)`,
    '',
    `Load average (1 min) at the part's start and end: ${f.load[0].toFixed(1)} and ${f.load[1].toFixed(1)} (${os.cpus().length} cores).`,
    '',
    table(
      ['', 'no stream (before)', `${f.streams} streams`, 'no stream (after)'],
      [
        ['RSS', mb(f.before.rss), mb(f.open.rss), mb(f.after.rss)],
        ['event-loop p99', ms(f.before.loopP99), ms(f.open.loopP99), ms(f.after.loopP99)],
        ['device list p50 / p95', `${ms(f.before.listP50)} / ${ms(f.before.listP95)}`, `${ms(f.open.listP50)} / ${ms(f.open.listP95)}`, `${ms(f.after.listP50)} / ${ms(f.after.listP95)}`],
      ],
    ),
    '',
    table(
      ['target', 'figure', ''],
      [
        ['added RSS <= 60 MB', mb(added), verdict(added <= RSS_TARGET)],
        ['event-loop p99 < 50 ms with the streams', ms(f.open.loopP99), verdict(f.open.loopP99 < LOOP_TARGET_MS)],
        ['device list p95 within 10% of no streams', `${(listRatio * 100).toFixed(1)}%`, verdict(listRatio <= LIST_TARGET)],
        ['notice delay p95 <= 2 s (two processes)', `${ms(delay95)} (p50 ${ms(pct(f.delays, 50))}, max ${ms(Math.max(...f.delays))}, ${f.delays.length} notices)`, verdict(delay95 <= DELAY_TARGET_MS)],
        [`one notice to all ${f.streams} streams`, ms(f.fanOutMs), ''],
      ],
    ),
  ].join('\n');
}

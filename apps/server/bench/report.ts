/** Prints the bench's results as markdown, and the issue's targets with PASS/MISS (part 7). */
import type { ColdStarts } from './cold-start';
import { runsText } from './cold-start';
import type { Engine } from './lib/databases';
import { ENGINE_LABEL, INSPECTION_SEED_PARTS } from './lib/databases';
import { int, kb, mb, median, ms, p50p95, pct, ratio, ratioFine, table } from './lib/stats';
import { type CaseResult, WARM_UP, WARM_UP_HTTP } from './list';
import type { SessionsResult } from './sessions';
import { STATS_TARGET_MS, type StatsResult, statsWorst } from './stats';
import type { Throughput } from './throughput';
import type { PageLoad } from './web';

export interface EngineResults {
  version?: string;
  demoDevices?: number;
  idleRss?: number;
  noop?: Throughput;
  list?: Throughput;
  /** The same by node:http clients (bench/throughput.ts). */
  noopHttp?: Throughput;
  listHttp?: Throughput;
  /** The device list's floor by autocannon (floor-server.mjs): the same answer from a bare Fastify route, and the least work. */
  floor?: Throughput;
  floorLeast?: Throughput;
  listDemo?: Map<string, CaseResult>;
  listScale?: Map<string, CaseResult>;
  seed?: { inserted: number; ms: number; analyzeMs: number };
  inspectionSeed?: { inserted: number; ms: number; analyzeMs: number; headlines: number };
  /** The inspection list cases at scale (admin and clinic3). */
  inspectionList?: Map<string, CaseResult>;
  /** The server's RSS right after the inspection list cases. */
  inspectionRss?: number;
  paymentSeed?: { inserted: number; ms: number; analyzeMs: number };
  /** The stats pages at scale. */
  stats?: StatsResult[];
  sessions: SessionsResult[];
}

export interface Results {
  startedAt: Date;
  quick: boolean;
  devices: number;
  inspections: number;
  payments: number;
  machine: string;
  phases: { throughputSeconds: number; rounds: number; roundSeconds: number; sessionsMs: number; listIterations: number; coldRuns: number };
  hello?: Throughput;
  helloHttp?: Throughput;
  helloRss?: number;
  engines: Partial<Record<Engine, EngineResults>>;
  cold?: ColdStarts;
  web?: { login: PageLoad; home: PageLoad; homeCold: PageLoad };
  loadAfter?: number[];
}

/** The row of the list tables that holds the signed-in no-op (the fixed cost of a request), not a list case. */
export const NOOP_ROW = 'signed-in no-op (fixed cost of a request, for reference)';
/** The list target: HTTP p95 within this factor of the raw SQL's p95. */
const LIST_FACTOR = 1.5;
/** The server's memory target with the inspection list at scale. */
const RSS_MAX = 300 * 2 ** 20;
const FLOOR_SAME = "device list's floor: bare Fastify, same answer";
const FLOOR_LEAST = "device list's floor: bare Fastify, least work";
const SHORT: Record<Engine, string> = { embedded: 'embedded', postgres: 'PostgreSQL' };
const mark = (ok: boolean) => (ok ? 'PASS' : '**MISS**');
/** Each paired round's ratio to its hello-world, in order ("0.08x, 0.09x, 0.10x"). */
const roundsText = (paired: NonNullable<Throughput['paired']>) => paired.rounds.map((r) => ratio(r.rps / r.helloRps)).join(', ');
/** A call's ratio to the hello-world for the table: its paired rounds' median and each round's, else against `hello`. */
function ratioText(t: Throughput, hello: number | undefined): string {
  if (t.paired) return `${ratio(t.paired.ratio)} (${roundsText(t.paired)})`;
  return hello ? ratio(t.rps / hello) : '-';
}
const p95ratio = (r: CaseResult) => pct(r.http, 95) / pct(r.raw, 95);

function listTable(engines: Engine[], results: Results, pick: (e: EngineResults) => Map<string, CaseResult> | undefined, judge: boolean): string {
  const keys = [...new Set(engines.flatMap((e) => [...(pick(results.engines[e]!)?.keys() ?? [])]))];
  const head = ['case', 'rows', ...engines.flatMap((e) => [`${SHORT[e]} HTTP`, 'raw SQL', 'p95 ratio'])];
  const rows = keys.map((k) => {
    const first = engines.map((e) => pick(results.engines[e]!)?.get(k)).find(Boolean);
    return [
      k,
      first?.total ?? '-',
      ...engines.flatMap((e) => {
        const r = pick(results.engines[e]!)?.get(k);
        if (!r) return ['-', '-', '-'];
        if (k === NOOP_ROW) return [p50p95(r.http), '-', '-'];
        const q = p95ratio(r);
        return [p50p95(r.http), p50p95(r.raw), judge ? `${ratio(q)} ${q <= LIST_FACTOR ? '' : '**MISS**'}`.trim() : ratio(q)];
      }),
    ];
  });
  return table(head, rows);
}

/** Every list case at scale within LIST_FACTOR: the count and the worst. */
function listVerdict(m: Map<string, CaseResult> | undefined) {
  if (!m) return undefined;
  const entries = [...m.entries()].filter(([k]) => k !== NOOP_ROW).map(([k, r]) => ({ k, q: p95ratio(r), r }));
  const worst = entries.reduce((a, b) => (b.q > a.q ? b : a));
  const within = entries.filter((e) => e.q <= LIST_FACTOR).length;
  return {
    ok: within === entries.length,
    text: `${within} of ${entries.length} within ${LIST_FACTOR}x; worst ${ratio(worst.q)} (${worst.k}: ${ms(pct(worst.r.http, 95))} vs ${ms(pct(worst.r.raw, 95))})`,
    misses: entries.filter((e) => e.q > LIST_FACTOR),
  };
}

export function printReport(res: Results) {
  const out: string[] = [];
  const say = (s = '') => out.push(s);
  const engines = (Object.keys(res.engines) as Engine[]).filter((e) => res.engines[e]);
  const E = (e: Engine) => res.engines[e]!;
  const n = res.devices.toLocaleString('en-US');

  say(`# Bench ${res.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC${res.quick ? ' (BENCH_QUICK: short phases, not for the record)' : ''}`);
  say();
  say(`Machine: ${res.machine}; load average at the end ${res.loadAfter?.map((x) => x.toFixed(2)).join(' / ') ?? '-'}.`);
  say(
    `Engines: ${engines.map((e) => `${ENGINE_LABEL[e]} ${E(e).version ?? ''}`.trim()).join('; ')}. Servers: the built server (\`node dist/main.js\`) as a child process; this process generates the load.`,
  );

  say();
  say('## 1. Seeding at scale');
  say(
    table(
      ['engine', 'demo devices', 'inserted (generate_series, one INSERT ... SELECT)', 'insert', 'VACUUM ANALYZE', 'rows/s'],
      engines.map((e) => {
        const s = E(e).seed;
        return [SHORT[e], int(E(e).demoDevices ?? Number.NaN), s ? int(s.inserted) : '-', s ? ms(s.ms) : '-', s ? ms(s.analyzeMs) : '-', s ? int(s.inserted / (s.ms / 1000)) : '-'];
      }),
    ),
  );
  say();
  say(
    table(
      ['engine', `inspections inserted (generate_series, ${INSPECTION_SEED_PARTS} INSERT ... SELECT at once)`, 'insert', 'VACUUM ANALYZE', 'rows/s', 'distinct headlines copied'],
      engines.map((e) => {
        const s = E(e).inspectionSeed;
        return [SHORT[e], s ? int(s.inserted) : '-', s ? ms(s.ms) : '-', s ? ms(s.analyzeMs) : '-', s ? int(s.inserted / (s.ms / 1000)) : '-', s ? int(s.headlines) : '-'];
      }),
    ),
  );
  say();
  say(
    'Inspections spread over the devices of institutions with people, a person and (four in five) a doctor of that institution, measured over the last 12 months; readings and analysis copied from the demo inspections, one per distinct headline (worst level, top risk).',
  );

  const withList = engines.filter((e) => E(e).listDemo || E(e).listScale);
  if (withList.length) {
    say();
    say(`## 2. Device list: HTTP (one client) next to its raw SQL, p50 / p95 of ${res.phases.listIterations} runs`);
    say(
      `HTTP: the built server (session check, validation, its statements, JSON, br); after a case's first call its total comes from the count cache, so it sends the page alone (nothing for a page past a known end). Raw SQL: the whole answer's statements with no cache (the page with its capped count), captured from the service and run directly. Before any is measured, every case is called ${WARM_UP_HTTP} times over HTTP and ${WARM_UP} times raw. Ratio: HTTP p95 / raw p95.`,
    );
    say();
    say(`### Demo size (${int(E(withList[0]!).demoDevices ?? Number.NaN)} devices)`);
    say(listTable(withList, res, (e) => e.listDemo, false));
    say();
    say(`### ${n} devices`);
    say(listTable(withList, res, (e) => e.listScale, true));
  }

  const withInspections = engines.filter((e) => E(e).inspectionList);
  if (withInspections.length) {
    say();
    say(`## 2b. Inspection list at ${int(res.inspections)} inspections: HTTP (one client) next to its raw SQL, p50 / p95 of ${res.phases.listIterations} runs`);
    say('admin: the platform (grade 0); clinic3: a grade-3 clinic (its subtree). Measured as the device list above.');
    say();
    say(listTable(withInspections, res, (e) => e.inspectionList, true));
    say();
    say(table(['', ...withInspections.map((e) => SHORT[e])], [['server RSS after the inspection list cases', ...withInspections.map((e) => mb(E(e).inspectionRss ?? Number.NaN))]]));
  }

  if (res.hello || engines.some((e) => E(e).noop)) {
    say();
    say(`## 3. Throughput, 10 connections, two load generators (${res.phases.throughputSeconds} s each after a warm-up)`);
    say(
      `autocannon: a fast HTTP client that saturates the server (on 2 cores it takes one, the server the other). node:http: 10 keep-alive clients in a closed loop, reading each answer whole: the kind of client whose hello-world figure (16,899 req/s) the speed issue quotes. Each ratio is to the hello-world measured by the same generator. The no-op and the device list are measured in ${res.phases.rounds} rounds of ${res.phases.roundSeconds} s, each right after the hello-world (kept running): the row shows the round of the median ratio, and the ratio of each round in brackets. The hello-world's row is its first run, before the engines.`,
    );
    say();
    const row = (name: string, a?: Throughput, b?: Throughput) => {
      const cells = (t: Throughput | undefined, h: number | undefined) => (t ? [int(t.rps), `${t.p50} / ${t.p99} ms`, ratioText(t, h), int(t.failures)] : ['-', '-', '-', '-']);
      return [name, ...cells(a, res.hello?.rps), ...cells(b, res.helloHttp?.rps)];
    };
    say(
      table(
        ['', 'autocannon req/s', 'p50 / p99', 'x hello-world', 'failures', 'node:http req/s', 'p50 / p99', 'x hello-world', 'failures'],
        [
          row('bare Fastify hello-world', res.hello, res.helloHttp),
          ...engines.map((e) => row(`signed-in no-op (get_institution_info), ${SHORT[e]}`, E(e).noop, E(e).noopHttp)),
          ...engines.map((e) => row(`device list page 1 (admin, demo data), ${SHORT[e]}`, E(e).list, E(e).listHttp)),
          ...engines.flatMap((e) => (E(e).floor ? [row(`${FLOOR_SAME}, ${SHORT[e]}`, E(e).floor), row(`${FLOOR_LEAST}, ${SHORT[e]}`, E(e).floorLeast)] : [])),
        ],
      ),
    );
    if (engines.some((e) => E(e).floor)) {
      say();
      say(
        "The device list's floor (bench/floor-server.mjs, autocannon only): the same page from a bare Fastify route on the same database, with no session, grant, security header, metric, log, validation or count. \"same answer\": the server's statement, node-postgres's rows, the same envelope and brotli; \"least work\": PostgreSQL writes the rows' JSON (json_agg) and Node sends it in the envelope uncompressed. Both were checked to answer the server's page before they were measured. They show what any server that reads this page from the database at every call reaches on this box: a target above the least work's ratio is out of reach here without keeping answers.",
      );
    }
    const cpuRows = [
      ['bare Fastify hello-world', res.hello],
      ...engines.map((e) => [`signed-in no-op, ${SHORT[e]}`, E(e).noop] as const),
      ...engines.map((e) => [`device list page 1, ${SHORT[e]}`, E(e).list] as const),
      ...engines.flatMap((e) => [[`${FLOOR_SAME}, ${SHORT[e]}`, E(e).floor] as const, [`${FLOOR_LEAST}, ${SHORT[e]}`, E(e).floorLeast] as const]).filter(([, t]) => t),
    ] as const;
    if (cpuRows.some(([, t]) => t?.cpu)) {
      say();
      say(
        "CPU per request during the autocannon runs above (lib/cpu.ts: each process's user + system time over the run, divided by its requests; \"machine\" is every core's busy time, the loopback's kernel work included). The ceiling is the rate at which that cost keeps every core busy: a run near it is bound by the box, not by one process.",
      );
      say();
      const us = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? `${int(x)} us` : '-');
      say(
        table(
          ['', 'server (Node)', 'PostgreSQL', 'load generator', 'machine', 'ceiling req/s', 'measured req/s'],
          cpuRows.map(([name, t]) => [name, us(t?.cpu?.server), us(t?.cpu?.database), us(t?.cpu?.generator), us(t?.cpu?.machine), int(t?.cpu?.ceiling ?? Number.NaN), int(t?.rps ?? Number.NaN)]),
        ),
      );
    }
  }

  const sessionCols = engines.flatMap((e) => E(e).sessions.map((s) => ({ e, s })));
  if (sessionCols.length) {
    say();
    say(`## 4. Concurrent sessions, ${res.phases.sessionsMs / 1000} s each, no think time`);
    say(
      'Each session signs in first (all at once: the burst), then loops: 70% device list pages (page 1-5, any sort, some filters), 25% who-am-I (agent1: the no-op; admin: get_member), 5% a new sign-in. Half admin, half agent1, each session on a loopback address of its own. Latencies are of good answers; 503s (the bounded queue) and timeouts (no answer in 10 s) apart from other errors.',
    );
    const lat = (s: SessionsResult, label: string) => p50p95(s.load.rec.of(label));
    const rows: [string, (s: SessionsResult) => string][] = [
      ['good answers/s', (s) => int(s.load.rps)],
      ['sign-in burst at start, p50 / p95', (s) => p50p95(s.burst)],
      ['503s in the burst (tried again after Retry-After)', (s) => int(s.burstBusy)],
      ['sign-in, p50 / p95', (s) => lat(s, 'sign-in')],
      ['device list, p50 / p95', (s) => lat(s, 'device list')],
      ['no-op, p50 / p95', (s) => lat(s, 'no-op')],
      ['get_member, p50 / p95', (s) => lat(s, 'get_member')],
      ['errors', (s) => int(s.load.rec.errors)],
      ['503 (busy)', (s) => int(s.load.rec.busy)],
      ['timeouts', (s) => int(s.load.rec.timeouts)],
      ['event-loop delay p99 / max', (s) => `${ms(s.loopP99)} / ${ms(s.loopMax)}`],
      ['server RSS after', (s) => mb(s.rssAfter)],
    ];
    say(
      table(
        ['', ...sessionCols.map(({ e, s }) => `${SHORT[e]}, ${s.sessions}`)],
        rows.map(([name, f]) => [name, ...sessionCols.map(({ s }) => f(s))]),
      ),
    );
    const samples = sessionCols.flatMap(({ e, s }) => s.load.rec.errorSamples.map((x) => `${SHORT[e]} ${s.sessions}: ${x}`));
    if (samples.length) say(`\nError samples: ${samples.slice(0, 6).join('; ')}`);
  }

  say();
  say('## Server memory (Node process RSS; the embedded PostgreSQL runs in processes of its own)');
  say(
    table(
      ['', ...engines.map((e) => SHORT[e]), 'bare Fastify'],
      [
        ['idle (started, two sign-ins)', ...engines.map((e) => mb(E(e).idleRss ?? Number.NaN)), res.helloRss ? mb(res.helloRss) : '-'],
        ...[50, 200].map((k) => [`after ${k} sessions`, ...engines.map((e) => mb(E(e).sessions.find((s) => s.sessions === k)?.rssAfter ?? Number.NaN)), '-']),
      ],
    ),
  );

  if (res.cold) {
    say();
    say(`## 5. Cold start to the first answer (built server, embedded default; median of ${res.cold.existing.length}, runs)`);
    say(table(['empty folder (initdb, migrations, menus, demo data)', 'existing data'], [[runsText(res.cold.empty), runsText(res.cold.existing)]]));
  }

  if (res.web) {
    say();
    say('## 6. First paint, slow 4G (562.5 ms, 1.26 Mbit/s down, 608 kbit/s up; CPU 1x), empty cache');
    const w = res.web;
    const row = (name: string, p: PageLoad) => [
      name,
      ms(p.fcp),
      ms(p.lcp),
      p.firstRow ? ms(p.firstRow) : '-',
      String(p.earlyCalls),
      `${kb(p.js.wire)} (${p.js.encodings.join(', ')})`,
      String(p.js.files),
      `${kb(p.js.plain)} / ${kb(p.js.gzip)} / ${kb(p.js.brotli)}`,
    ];
    say(
      table(
        ['page', 'first contentful paint', 'largest contentful paint', 'first device row', 'API calls before the boot code', 'JS on the wire', 'JS files', 'plain / gzip / br on disk'],
        [row('/login', w.login), row('/dashboard/index (signed in earlier, cache emptied)', w.home), row('/dashboard/index (the cookie alone, storage empty)', w.homeCold)],
      ),
    );
    say(
      '\n"Signed in earlier": the user signed in on the login page (not measured), then opens the home page after a release (cache emptied, storage kept); its first calls leave with the HTML (early calls). "The cookie alone": a session cookie in a browser with nothing stored, as this bench measured before the early calls.',
    );
    say(`Screenshots: ${w.login.screenshot}, ${w.home.screenshot}, ${w.homeCold.screenshot}`);
  }

  // 7. Targets.
  /** A call's ratio to the hello-world: its paired rounds' median, else against the run's first hello-world. */
  const ratioOf = (x: Throughput, h: number | undefined) => x.paired?.ratio ?? (h ? x.rps / h : Number.NaN);
  const t: [string, string, boolean | undefined][] = [];
  if (res.web) {
    t.push(['login page largest paint on slow 4G <= 2,800 ms', ms(res.web.login.lcp), res.web.login.lcp <= 2800]);
    const home = Math.max(res.web.home.lcp, res.web.home.firstRow ?? 0);
    const cold = Math.max(res.web.homeCold.lcp, res.web.homeCold.firstRow ?? 0);
    t.push([
      'home page with its device rows on slow 4G <= 6,000 ms (signed in earlier, cache emptied)',
      `${ms(home)} (rows at ${ms(res.web.home.firstRow ?? Number.NaN)}, LCP ${ms(res.web.home.lcp)}); the cookie alone ${ms(cold)}`,
      home <= 6000,
    ]);
    const most = Math.max(res.web.login.js.wire, res.web.home.js.wire);
    t.push(['any page <= 450 KB compressed JS', `${kb(most)} (login ${kb(res.web.login.js.wire)}, home ${kb(res.web.home.js.wire)})`, most <= 450 * 1024]);
  }
  for (const e of engines) {
    const need = e === 'embedded' ? 0.05 : 0.1;
    for (const [gen, h, noop, list] of [
      ['autocannon', res.hello?.rps, E(e).noop, E(e).list],
      ['node:http', res.helloHttp?.rps, E(e).noopHttp, E(e).listHttp],
    ] as const) {
      const text = (x: Throughput) => `${ratioFine(ratioOf(x, h))} (${int(x.rps)} / ${int(x.paired?.helloRps ?? h ?? Number.NaN)}${x.paired ? `; rounds ${roundsText(x.paired)}` : ''})`;
      if (noop) t.push([`signed-in no-op >= 0.5x hello-world (${SHORT[e]}, ${gen})`, text(noop), ratioOf(noop, h) >= 0.5]);
      if (list) t.push([`device list at demo size >= ${need}x hello-world (${SHORT[e]}, ${gen})`, text(list), ratioOf(list, h) >= need]);
    }
  }
  for (const e of engines) {
    const v = listVerdict(E(e).listScale);
    if (v) t.push([`every list p95 <= ${LIST_FACTOR}x its raw SQL at ${n} (${SHORT[e]})`, v.text, v.ok]);
  }
  for (const e of engines) {
    const v = listVerdict(E(e).inspectionList);
    if (v) t.push([`inspections list p95 <= ${LIST_FACTOR}x raw SQL at ${int(res.inspections)} (${SHORT[e]})`, v.text, v.ok]);
    const rss = E(e).inspectionRss;
    if (rss) t.push([`server RSS <= 300 MB after the inspection list (${SHORT[e]})`, mb(rss), rss <= RSS_MAX]);
  }
  const s50 = E('embedded' as Engine)?.sessions.find((s) => s.sessions === 50);
  if (s50) {
    const signIn = pct(s50.load.rec.of('sign-in'), 95);
    const list = pct(s50.load.rec.of('device list'), 95);
    const bad = s50.load.rec.errors + s50.load.rec.busy + s50.load.rec.timeouts;
    t.push(['embedded, 50 sessions: sign-in p95 <= 1 s', ms(signIn), signIn <= 1000]);
    t.push(['embedded, 50 sessions: device list p95 <= 300 ms', ms(list), list <= 300]);
    t.push(['embedded, 50 sessions: event-loop delay p99 <= 50 ms', ms(s50.loopP99), s50.loopP99 <= 50]);
    t.push(['embedded, 50 sessions: 0 errors (503s and timeouts included)', `${bad} (errors ${s50.load.rec.errors}, 503 ${s50.load.rec.busy}, timeouts ${s50.load.rec.timeouts})`, bad === 0]);
  }
  const s200 = E('embedded' as Engine)?.sessions.find((s) => s.sessions === 200);
  if (s200)
    t.push(['embedded, 200 sessions: 0 timeouts (503s counted)', `${s200.load.rec.timeouts} timeouts, ${s200.load.rec.busy} 503s, ${s200.load.rec.errors} other errors`, s200.load.rec.timeouts === 0]);
  const idle = res.engines.embedded?.idleRss;
  if (idle) t.push(['server memory idle on the embedded default <= 250 MB', mb(idle), idle <= 250 * 2 ** 20]);
  if (res.cold) t.push(['cold start with existing data <= 1,500 ms', `${ms(median(res.cold.existing))} (median)`, median(res.cold.existing) <= 1500]);
  const statsEngines = engines.filter((e) => E(e).stats?.length);
  if (statsEngines.length) {
    say();
    say(`## 2c. Stats pages at ${n} devices, ${int(res.inspections)} inspections, ${int(res.payments)} payments (one call per page, every figure)`);
    say(
      table(
        ['engine', 'payments inserted', 'insert', 'VACUUM ANALYZE'],
        statsEngines.map((e) => {
          const s = E(e).paymentSeed;
          return [SHORT[e], s ? int(s.inserted) : '-', s ? ms(s.ms) : '-', s ? ms(s.analyzeMs) : '-'];
        }),
      ),
    );
    say();
    const names = E(statsEngines[0]!).stats!.map((r) => r.name);
    say(
      table(
        ['call', 'caller', ...statsEngines.flatMap((e) => [`${SHORT[e]} p50 / p95`, `<= ${STATS_TARGET_MS} ms`])],
        names.map((name) => {
          const first = E(statsEngines[0]!).stats!.find((r) => r.name === name)!;
          return [
            name,
            first.caller,
            ...statsEngines.flatMap((e) => {
              const r = E(e).stats!.find((x) => x.name === name);
              return r ? [p50p95(r.ms), mark(pct(r.ms, 95) <= STATS_TARGET_MS)] : ['-', '-'];
            }),
          ];
        }),
      ),
    );
  }
  const statsE = E('embedded' as Engine)?.stats;
  if (statsE?.length) {
    const worst = statsWorst(statsE);
    const within = statsE.filter((r) => pct(r.ms, 95) <= STATS_TARGET_MS).length;
    t.push([
      `embedded: every stats call p95 <= ${STATS_TARGET_MS} ms at scale`,
      `${within} of ${statsE.length}; worst ${ms(pct(worst.ms, 95))} (${worst.name}, ${worst.caller})`,
      within === statsE.length,
    ]);
  }
  say();
  say('## 7. Targets of the issue');
  say(
    table(
      ['target', 'measured', ''],
      t.map(([name, value, ok]) => [name, value, ok === undefined ? '-' : mark(ok)]),
    ),
  );
  say(`\n${t.filter(([, , ok]) => ok).length} of ${t.length} targets met.`);
  for (const e of engines) {
    const { list, floor, floorLeast } = E(e);
    if (!list || !floor || !floorLeast) continue;
    const h = res.hello?.rps;
    say(
      `\nFor scale, not a target: the device list's floor with autocannon (part 3), ${SHORT[e]}: ${ratioFine(ratioOf(floor, h))} with the same answer, ${ratioFine(ratioOf(floorLeast, h))} with the least work, against the server's ${ratioFine(ratioOf(list, h))}.`,
    );
  }

  for (const e of engines)
    for (const [what, v] of [
      [`list cases over ${LIST_FACTOR}x at ${n}`, listVerdict(E(e).listScale)],
      [`inspection list cases over ${LIST_FACTOR}x at ${int(res.inspections)}`, listVerdict(E(e).inspectionList)],
    ] as const) {
      if (!v?.misses.length) continue;
      say();
      say(`## Plans of the ${what}, ${SHORT[e]}`);
      for (const m of v.misses) {
        say(`\n### ${m.k} (${ratio(m.q)})`);
        say('```');
        say(m.r.plan ?? '(no plan)');
        say('```');
      }
    }
  // A sequential scan of the inspections table in any inspection list case: its plan, whatever the ratio.
  for (const e of engines) {
    const scans = [...(E(e).inspectionList?.entries() ?? [])].filter(([, r]) => /Seq Scan on inspections/.test(r.plan ?? ''));
    if (!scans.length) continue;
    say();
    say(`## Inspection list cases with a sequential scan of inspections, ${SHORT[e]}`);
    for (const [k, r] of scans) {
      say(`\n### ${k}`);
      say('```');
      say(r.plan ?? '');
      say('```');
    }
  }
  console.log(out.join('\n'));
}

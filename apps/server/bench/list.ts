/**
 * Part 2: the device list, every filter and sort its page offers, for the platform admin and for a
 * grade-1 institution (agent1, its subtree): latency over HTTP (one client, the built server: session
 * check, validation, its statements, JSON, compression) next to the raw SQL of the same answer (the
 * statements the service sends for it with no cache, captured through drizzle's logger, then run directly
 * on a pool the way the service runs them). The raw SQL is what the whole answer costs the database: the
 * page with its capped count. Over HTTP the device list takes a total it counted before from its count
 * cache (db/count-cache.ts), so after its first call a case sends the page alone, or nothing for a page
 * past a known end. HTTP and raw runs alternate, so the machine's noise falls on both alike.
 */
import { equipmentListQuery, inspectionListQuery } from '@app/contract';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../src/db/client';
import * as schema from '../src/db/schema';
import type { Auth } from '../src/http/access';
import { readParams } from '../src/lib/params';
import { list as listDevices } from '../src/modules/equipment/service';
import { list as listInspections } from '../src/modules/inspections/list';
import { type Client, isOk } from './lib/load';

export type Caller = 'admin' | 'agent1' | 'agent2' | 'clinic3';

/** A list endpoint the cases run against: its path, the service call behind it, the table its own statements name. */
export interface ListTarget {
  path: string;
  run: (db: Db, auth: Auth, query: Record<string, string>) => Promise<unknown>;
  table: RegExp;
}

export const DEVICE_LIST: ListTarget = {
  path: '/adminapi/equipment/list',
  run: (db, auth, query) => listDevices(db, auth, equipmentListQuery.parse(query)),
  table: /"devices"/,
};

export const INSPECTION_LIST: ListTarget = {
  path: '/adminapi/inspection/list',
  run: (db, auth, query) => listInspections(db, auth, inspectionListQuery.parse(query)),
  table: /"inspections"/,
};

/**
 * The inspection list (issue 12) for the platform admin and a grade-3 clinic (clinic3): the default
 * page, the last 30 days, a risk level, and page 200 (deep, within the 10,000 the count caps at).
 */
export function inspectionCases(): ListCase[] {
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  const forCaller = (caller: Caller): ListCase[] => [
    { name: 'newest first (default), page 1', caller, query: {} },
    { name: 'last 30 days', caller, query: { date_from: day(-30), date_to: day(0) } },
    { name: 'risk = high', caller, query: { risk: 'high' } },
    { name: 'risk = low, last 30 days', caller, query: { risk: 'low', date_from: day(-30), date_to: day(0) } },
    { name: 'newest first, page 200', caller, query: { page: '200' } },
  ];
  return [...forCaller('admin'), ...forCaller('clinic3')];
}

export interface ListCase {
  name: string;
  caller: Caller;
  query: Record<string, string>;
}

/** Every sort column the page's table offers (both directions), the default order, and every filter. */
export function listCases(opts: { clinicId: number }): ListCase[] {
  const today = new Date();
  const day = (d: number) => new Date(today.getTime() + d * 86_400_000).toISOString().slice(0, 10);
  const sorts = ['serial', 'name', 'status', 'total_inspections', 'activated_at', 'expires_at', 'last_seen_at'];
  const forCaller = (caller: Caller): ListCase[] => [
    { name: 'newest first (default), page 1', caller, query: {} },
    ...sorts.flatMap((s) => [
      { name: `by ${s} ascending`, caller, query: { sort: s, order: 'ascend' } },
      { name: `by ${s} descending`, caller, query: { sort: s, order: 'descend' } },
    ]),
    // COUNT_CAP (10,000) / 20 rows: the deepest page the pager offers.
    { name: 'newest first, page 500 (deepest)', caller, query: { page: '500' } },
    { name: 'by expires_at ascending, page 500', caller, query: { page: '500', sort: 'expires_at', order: 'ascend' } },
    { name: 'keyword, serial digits', caller, query: { keyword: '0012345' } },
    { name: 'keyword, common word (therapy)', caller, query: { keyword: 'therapy' } },
    { name: 'keyword, no match', caller, query: { keyword: 'zzqx' } },
    { name: 'status = active', caller, query: { status: 'active' } },
    { name: 'status = disabled, by last_seen_at', caller, query: { status: 'disabled', sort: 'last_seen_at', order: 'descend' } },
    { name: 'one institution (a clinic)', caller, query: { institution_id: String(opts.clinicId) } },
    { name: 'expires within the next 90 days', caller, query: { expires_from: day(0), expires_to: day(90), sort: 'expires_at', order: 'ascend' } },
    { name: 'expiring (within expiring_days)', caller, query: { expiring: '1' } },
  ];
  return [...forCaller('admin'), ...forCaller('agent1')];
}

export interface CaseResult {
  http: number[];
  raw: number[];
  /** What the list answered: its total ("10000+" when capped). */
  total: string;
  /** The page statement, to EXPLAIN when the case is slow. */
  statements: Statement[];
  /** EXPLAIN ANALYZE of the statements (filled in at scale). */
  plan?: string;
}

interface Statement {
  query: string;
  params: unknown[];
}

/**
 * Measures every case: `iterations` alternating HTTP and raw runs after a warm-up of each.
 * `rawUrl` is the database the server uses (the bench's own connections to it).
 */
export async function measureList(opts: {
  client: Client;
  keys: Partial<Record<Caller, string>>;
  rawUrl: string;
  cases: ListCase[];
  iterations: number;
  /** Default: the device list. */
  target?: ListTarget;
}): Promise<Map<string, CaseResult>> {
  const target = opts.target ?? DEVICE_LIST;
  const pool = new pg.Pool({ connectionString: opts.rawUrl, max: 4 });
  let captured: Statement[] = [];
  const capturing = drizzle(pool, { schema, logger: { logQuery: (query, params) => captured.push({ query, params }) } }) as unknown as Db;
  try {
    const params = await readParams(capturing);
    const institution = async (username: 'agent1' | 'agent2' | 'clinic3', grade: 1 | 2 | 3): Promise<Auth> => {
      const [row] = await capturing.select().from(schema.institutions).where(eq(schema.institutions.username, username));
      if (!row) throw new Error(`the demo institution ${username} is missing`);
      return {
        sessionId: 0,
        kind: 'institution',
        restricted: false,
        viewer: { isAdmin: false, grade },
        institution: { id: row.id, grade, path: row.path, termExpiresAt: null, username, name: row.name, avatar: row.avatar, contactName: row.contactName },
        params,
      };
    };
    const auth: Record<Caller, Auth> = {
      admin: { sessionId: 0, kind: 'admin', restricted: false, viewer: { isAdmin: true, grade: 0 }, admin: { id: 1, roleId: 1, isSuper: true, viewRoleId: null, username: 'admin' }, params },
      agent1: await institution('agent1', 1),
      agent2: await institution('agent2', 2),
      clinic3: await institution('clinic3', 3),
    };
    const out = new Map<string, CaseResult>();
    // Warm-up: every case over HTTP and raw before any is measured. The server was started just before
    // (its code not yet compiled by the JIT, its pooled connections' catalog caches empty) and the first
    // cases measured paid for it in their p95 (docs/benchmarks.md); its cold start is measured on its own
    // (part 5). A server's p95 settles after about 3,000 answers: WARM_UP_HTTP calls of each case.
    for (const c of opts.cases) {
      const path = `${target.path}?${new URLSearchParams(c.query)}`;
      captured = [];
      await target.run(capturing, auth[c.caller], c.query);
      for (let i = 0; i < WARM_UP_HTTP; i++) {
        await opts.client.get(path, { authorization: `Bearer ${opts.keys[c.caller]}` });
        if (i < WARM_UP) for (const s of captured) await pool.query(s.query, s.params);
      }
    }
    for (const c of opts.cases) {
      const path = `${target.path}?${new URLSearchParams(c.query)}`;
      const headers = { authorization: `Bearer ${opts.keys[c.caller]}` };
      captured = [];
      await target.run(capturing, auth[c.caller], c.query);
      // The access check answered the parameters with the session; the rest is the handler's.
      const statements = captured.filter((s) => !/system_params/.test(s.query));
      const before = statements.filter((s) => !target.table.test(s.query));
      const together = statements.filter((s) => target.table.test(s.query));
      const raw = async () => {
        for (const s of before) await pool.query(s.query, s.params);
        await Promise.all(together.map((s) => pool.query(s.query, s.params)));
      };
      const http = async () => {
        const a = await opts.client.get(path, headers);
        if (!isOk(a)) throw new Error(`${c.caller} ${path}: ${a.status} ${JSON.stringify(a.body).slice(0, 300)}`);
        return a;
      };
      const first = (await http()).body as { datas: { total: number; capped: boolean } };
      await raw();
      const r: CaseResult = { http: [], raw: [], total: `${first.datas.total}${first.datas.capped ? '+' : ''}`, statements: together };
      for (let i = 0; i < opts.iterations; i++) {
        r.http.push((await http()).ms);
        const s = performance.now();
        await raw();
        r.raw.push(performance.now() - s);
      }
      out.set(caseKey(c), r);
    }
    return out;
  } finally {
    await pool.end();
  }
}

/** Calls of each case before the measured ones: raw, and over HTTP (more: the server's JIT, see above). */
export const WARM_UP = 30;
export const WARM_UP_HTTP = 100;

export const caseKey = (c: ListCase) => `${c.caller}: ${c.name}`;

/** EXPLAIN ANALYZE of a case's statements (the page, then the count), for the ones that miss. */
export async function explain(rawUrl: string, statements: Statement[]): Promise<string> {
  const client = new pg.Client({ connectionString: rawUrl });
  await client.connect();
  try {
    const parts: string[] = [];
    for (const s of statements) {
      const { rows } = await client.query(`explain (analyze, costs off, summary on) ${s.query}`, s.params);
      parts.push(rows.map((r: Record<string, string>) => Object.values(r)[0]).join('\n'));
    }
    return parts.join('\n--\n');
  } finally {
    await client.end();
  }
}

/**
 * The two engines the bench runs on, each with the demo data and then grown to the bench size:
 * - `embedded`: the default, the cluster in DATA_DIR/postgres that the server starts itself. The bench
 *   starts it once to seed (and stops it), then the server starts it again; raw SQL reaches the same
 *   cluster over its Unix socket while the server runs.
 * - `postgres`: a database of its own on the PostgreSQL server of BENCH_PG_URL (default
 *   postgres://root@127.0.0.1:5432/test), created here and dropped at the end.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, openPostgres } from '../../src/db/client';
import { startEmbedded } from '../../src/db/embedded';
import { seedDemoIfEmpty, syncMenus } from '../../src/seed';

export type Engine = 'embedded' | 'postgres';
export const ENGINE_LABEL: Record<Engine, string> = { embedded: 'embedded PostgreSQL 18 (default)', postgres: 'PostgreSQL server' };

export interface BenchDatabase {
  engine: Engine;
  /** What the spawned server needs to use this database. */
  serverEnv: Record<string, string>;
  /** A connection string the bench uses while the server runs (raw SQL). */
  url: string;
  /** Opens the database for the bench itself (seeding); for the embedded one, starts its cluster too. */
  open(): Promise<Database>;
  /** Removes everything (the data folder, or the database). */
  destroy(): Promise<void>;
}

/** The embedded cluster in a fresh data folder (the server's own layout: DATA_DIR/postgres). */
export function embeddedDatabase(): BenchDatabase {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  fs.chmodSync(dataDir, 0o755); // the embedded PostgreSQL's user (when started by root) passes through it
  let url = '';
  return {
    engine: 'embedded',
    serverEnv: { DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: '1' },
    get url() {
      return url;
    },
    async open() {
      const cluster = await startEmbedded({ dir: path.join(dataDir, 'postgres') });
      url = cluster.url;
      const database = await openPostgres(cluster.url);
      return {
        ...database,
        close: async () => {
          await database.close();
          await cluster.stop();
        },
      };
    },
    async destroy() {
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A database of its own on a PostgreSQL server. */
export async function serverDatabase(serverUrl: string): Promise<BenchDatabase> {
  const name = `bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  return {
    engine: 'postgres',
    serverEnv: { DATABASE_URL: url, SEED_DEMO: '0' },
    url,
    open: () => openPostgres(url),
    async destroy() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Migrations, menus and the demo data, as the server does on its first start. */
export async function prepare(database: Database) {
  await database.migrate();
  await syncMenus(database.db);
  await seedDemoIfEmpty(database.db);
}

/**
 * Grows the device table to `total` rows in one INSERT ... SELECT over generate_series, then VACUUM ANALYZE
 * (the steady state autovacuum keeps a table in: measured right after a bulk insert, autovacuum would be
 * catching up on it in the middle of the cases).
 * One device in ten in platform stock (never activated: the nullable columns are null), the others
 * spread over every institution with hashed (not aligned) values. Arithmetic on the series is bigint:
 * `g * 7919` in int4 overflows past g = 271,000 ("integer out of range" at a million rows).
 * Inspections are seeded apart (growInspections) once the devices are grown.
 */
export async function growDevices(database: Database, total: number): Promise<{ inserted: number; ms: number; analyzeMs: number }> {
  const db = database.db;
  const rows = (r: unknown) => (r as { rows: Record<string, unknown>[] }).rows;
  const have = Number(rows(await db.execute(sql`select count(*)::int as n from devices`))[0]!.n);
  const from = Number(rows(await db.execute(sql`select coalesce(max(id), 0)::int as n from devices`))[0]!.n) + 1;
  const count = Math.max(0, total - have);
  const started = performance.now();
  if (count > 0)
    await db.execute(sql`
      with inst as (select array_agg(id order by id) as ids, count(*)::bigint as n from institutions),
      s as (select g::bigint as g, (g::bigint % 10 = 0) as stock from generate_series(${from}::int, ${from + count - 1}::int) g)
      insert into devices (serial, model, name, institution_id, status, activated_at, expires_at, remaining_uses, total_inspections, last_seen_at, created_at)
      select 'BX' || lpad(s.g::text, 8, '0'),
             (array['BE-100','BE-200','BE-300 Pro'])[1 + s.g % 3],
             case when s.stock then 'Stock unit ' || s.g else (array['Front desk','Room A','Room B','Mobile unit','Therapy bay','Reception'])[1 + (s.g * 31) % 6] || ' ' || s.g end,
             case when s.stock then null else inst.ids[1 + (s.g * 2654435761) % inst.n] end,
             case when s.stock then 'inactive' else (array['active','active','active','active','active','active','active','active','disabled','inactive'])[1 + (s.g * 17) % 10] end,
             case when s.stock then null else now() - ((s.g * 7877) % (700 * 86400)) * interval '1 second' end,
             case when s.stock then null else now() + ((s.g * 7919) % (730 * 86400) - 200 * 86400) * interval '1 second' end,
             case when s.stock or s.g % 3 <> 0 then null else (s.g * 13) % 300 end,
             case when s.stock then 0 else ((s.g * 104729) % 3000)::int end,
             case when s.stock then null else now() - ((s.g * 97) % (14 * 86400)) * interval '1 second' end,
             now() - ((s.g * 6151) % (900 * 86400)) * interval '1 second'
      from s, inst`);
  const ms = performance.now() - started;
  const a = performance.now();
  await db.execute(sql`vacuum analyze`);
  return { inserted: count, ms, analyzeMs: performance.now() - a };
}

/**
 * The inspections' seeding runs this many statements at once (growInspections). One statement keeps one
 * PostgreSQL backend busy on one core; two inserted 5,400-5,600 rows a second against 3,300-3,800 for one
 * (PostgreSQL 15 on 2 cores, 150,000 rows a run, runs alternated; 2026-11-28).
 */
export const INSPECTION_SEED_PARTS = 2;

/**
 * Grows the inspections table to `total` rows by INSERT ... SELECT over generate_series, then VACUUM ANALYZE.
 * Each row goes to a hashed pick among the devices owned by an institution with people (its owner is the
 * row's institution), a person of that institution, a doctor of it (one row in five none, and none where
 * it has no doctor), measured at a time spread over the last 12 months. Readings and analysis are copied
 * from the demo inspections (the device API's real analyses), one per distinct headline (worst level, top
 * risk), so the generated headline columns carry a realistic mix; numbers are unique (`BI` and the series).
 * The series is cut in INSPECTION_SEED_PARTS slices, inserted at once on connections of their own. A row
 * depends only on its number in the series, so the rows are those one statement would write; only their ids
 * interleave.
 */
export async function growInspections(database: Database, total: number): Promise<{ inserted: number; ms: number; analyzeMs: number; headlines: number }> {
  const db = database.db;
  const rows = (r: unknown) => (r as { rows: Record<string, unknown>[] }).rows;
  const have = Number(rows(await db.execute(sql`select count(*)::int as n from inspections`))[0]!.n);
  const headlines = Number(rows(await db.execute(sql`select count(distinct (worst_level, top_risk))::int as n from inspections where analysis is not null`))[0]!.n);
  if (!headlines) throw new Error('no demo inspection with an analysis to copy');
  const count = Math.max(0, total - have);
  const started = performance.now();
  const slices = Array.from({ length: INSPECTION_SEED_PARTS }, (_, i) => ({ from: 1 + Math.floor((count * i) / INSPECTION_SEED_PARTS), to: Math.floor((count * (i + 1)) / INSPECTION_SEED_PARTS) }));
  await Promise.all(
    slices
      .filter((r) => r.from <= r.to)
      .map(({ from, to }) =>
        db.execute(sql`
      with src as (
        select array_agg(readings order by worst_level, top_risk) as readings, array_agg(analysis order by worst_level, top_risk) as analyses, count(*)::bigint as n
        from (select distinct on (worst_level, top_risk) readings, analysis, worst_level, top_risk from inspections where analysis is not null order by worst_level, top_risk, id) x),
      dev as (
        select array_agg(d.id order by d.id) as ids, array_agg(d.institution_id order by d.id) as insts, count(*)::bigint as n
        from devices d where d.institution_id in (select institution_id from end_users where deleted_at is null)),
      people as (select institution_id, array_agg(id order by id) as ids, count(*)::bigint as n from end_users where deleted_at is null group by institution_id),
      staff as (select institution_id, array_agg(id order by id) as ids, count(*)::bigint as n from doctors where deleted_at is null group by institution_id),
      s as (
        select g::bigint as g, dev.ids[1 + (g::bigint * 2654435761) % dev.n] as device_id, dev.insts[1 + (g::bigint * 2654435761) % dev.n] as institution_id
        from generate_series(${from}::int, ${to}::int) g, dev)
      insert into inspections (device_id, institution_id, inspection_no, measured_at, doctor_id, end_user_id, readings, analysis, remaining_uses, created_at)
      select s.device_id, s.institution_id, 'BI' || lpad((${have} + s.g)::text, 9, '0'),
             now() - ((s.g * 7877) % (365 * 86400)) * interval '1 second',
             case when staff.n is null or s.g % 5 = 0 then null else staff.ids[1 + (s.g * 31) % staff.n] end,
             people.ids[1 + (s.g * 104729) % people.n],
             src.readings[1 + (s.g * 13) % src.n], src.analyses[1 + (s.g * 13) % src.n],
             case when s.g % 3 = 0 then (s.g * 17) % 300 else null end,
             now() - ((s.g * 7877) % (365 * 86400)) * interval '1 second' + interval '2 seconds'
      from s join people on people.institution_id = s.institution_id left join staff on staff.institution_id = s.institution_id cross join src`),
      ),
  );
  const ms = performance.now() - started;
  const a = performance.now();
  await db.execute(sql`vacuum analyze inspections`);
  return { inserted: count, ms, analyzeMs: performance.now() - a, headlines };
}

/**
 * Months of payments (stats bench): `total` device payments over the last 180 days on the devices
 * institutions hold, each with its commission lines (grade-1 root and grade-2 ancestor of the paying
 * institution, half-up per line at the package's rates) and the ledger rows that credit them: one
 * INSERT ... SELECT. Balances (finance_accounts) are not touched: the bench reads, it never pays out.
 */
export async function growPayments(database: Database, total: number): Promise<{ inserted: number; ms: number; analyzeMs: number }> {
  const db = database.db;
  const rows = (r: unknown) => (r as { rows: Record<string, unknown>[] }).rows;
  const have = Number(rows(await db.execute(sql`select count(*)::int as n from device_payments`))[0]!.n);
  const count = Math.max(0, total - have);
  const started = performance.now();
  if (count > 0)
    await db.execute(sql`
      with dev as (
        select array_agg(d.id order by d.id) as ids, array_agg(d.institution_id order by d.id) as insts, count(*)::bigint as n
        from devices d where d.institution_id is not null),
      pk as (
        select array_agg(id order by id) as ids, array_agg(price_cents order by id) as prices, array_agg(commission_rate_l1_bp order by id) as r1,
               array_agg(commission_rate_l2_bp order by id) as r2, count(*)::bigint as n from packages where price_cents > 0),
      s as (
        select g::bigint as g, dev.ids[1 + (g::bigint * 2654435761) % dev.n] as device_id, dev.insts[1 + (g::bigint * 2654435761) % dev.n] as inst,
               (1 + (g::bigint * 31) % pk.n)::int as p
        from generate_series(1, ${count}::int) g, dev, pk),
      x as (
        select s.g, s.device_id, s.inst, pk.ids[s.p] as package_id, pk.prices[s.p]::bigint as amount,
               split_part(i.path, '/', 2)::int as l1, a2.id as l2, pk.r1[s.p] as r1, pk.r2[s.p] as r2,
               now() - ((s.g * 7877) % (180 * 86400)) * interval '1 second' as at
        from s cross join pk join institutions i on i.id = s.inst
        left join institutions a2 on a2.id = nullif(split_part(i.path, '/', 3), '')::int and a2.grade = 2),
      lines as (
        select x.*, (x.amount * x.r1 + 5000) / 10000 as c1, case when x.l2 is null then 0 else (x.amount * x.r2 + 5000) / 10000 end as c2 from x),
      ins as (
        insert into device_payments (device_id, institution_id, package_id, order_no, amount_cents, channel, paid_at, status,
                                     l1_institution_id, l1_cents, l2_institution_id, l2_cents, platform_cents, created_at)
        select device_id, inst, package_id, 'BP' || lpad((${have} + g)::text, 9, '0'), amount, 'wechat', at, 'paid',
               l1, c1, l2, c2, amount - c1 - c2, at
        from lines
        returning id, paid_at, l1_institution_id, l1_cents, l2_institution_id, l2_cents)
      insert into ledger_entries (institution_id, kind, amount_cents, balance_after_cents, ref_type, ref_id, created_at)
      select inst, 'commission', amt, sum(amt) over (partition by inst order by at, id), 'payment', id, at from (
        select id, paid_at as at, l1_institution_id as inst, l1_cents as amt from ins where l1_cents > 0
        union all
        select id, paid_at, l2_institution_id, l2_cents from ins where l2_institution_id is not null and l2_cents > 0) c`);
  const ms = performance.now() - started;
  const a = performance.now();
  await db.execute(sql`vacuum analyze device_payments, ledger_entries`);
  return { inserted: count, ms, analyzeMs: performance.now() - a };
}

/**
 * Puts what the seeding wrote on disk before anything is measured: a CHECKPOINT (PostgreSQL's dirty
 * buffers), then `sync` (the kernel's dirty pages), so that no write-back of a few GB can land in the cases.
 * It takes 150-350 ms here (VACUUM ANALYZE had written most): the early cases' p95 tails it was added for
 * were the server's warm-up (list.ts WARM_UP_HTTP). Answers how long it took. CHECKPOINT needs a superuser
 * or pg_checkpoint; without, only `sync` runs.
 */
export async function settleWrites(database: Database): Promise<number> {
  const started = performance.now();
  await database.db.execute(sql`checkpoint`).catch(() => undefined);
  spawnSync('sync');
  return performance.now() - started;
}

import { autoGranularity, type FinanceStatsAnswer, type FinanceStatsQuery, type StatPoint, type StatsAnswer, type StatsGranularity, type StatsQuery } from '@app/contract';
import { eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../db/client';
import { devicePayments, devices, distributionRecords, endUsers, financeAccounts, inspections, institutions, ledgerEntries, packages, payouts } from '../../db/schema';
import type { Auth } from '../../http/access';
import { badRequest, forbidden } from '../../lib/errors';
import { readParams } from '../../lib/params';
import type { ParamValues } from '@app/contract';
import { REGION_TABLE } from '../../lib/regions';
import { createTestApp, type TestApp } from '../../test/harness';
import { post, recordDevicePayment } from '../finance';
import { institutionSubtreeIds, isInSubtree } from '../institutions';
import { finance } from './finance';
import { distribution, equipment } from './service';
import { seededRandom } from '../../lib/random';
import { rowsOf } from '../../lib/list';
import { DAY } from '../../lib/time';

/*
 * The stats roll-ups (migrations 0012-0013, kept by statement triggers). After random writes of every
 * kind the triggers follow (devices changing status, activation and owner, deleted; inspections in bulk
 * and one by one, moved in time, between institutions and devices, deleted, and updated in columns the
 * roll-ups do not count; payments recorded, inserted in bulk with refunded ones among them, refunded,
 * paid again, moved in time and package, deleted; payouts and back-dated ledger lines):
 * - each roll-up table equals a fresh aggregate of the rows;
 * - the service's answers equal those of the raw rows: the service's code as it was before the roll-ups
 *   (commit 217400c), kept below as the reference, for every preset ending today, ranges ending yesterday
 *   and in the future, custom ranges in the past; for the platform admin, grade 1 and grade 2 callers,
 *   finance for targets picked by an admin and by grade 1, and the platform's own;
 * - both would fail on a roll-up left behind (a trigger disabled for one UPDATE);
 * - both hold under concurrent writers on several connections.
 */

let t: TestApp;
let admin: string;

/** Seeded (lib/random.ts): a failing run can be replayed with STATS_SEED. */
const SEED = Number(process.env.STATS_SEED ?? Date.now() % 1_000_000);
const rng = seededRandom(SEED);

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const now = Date.now();
const today = dayOf(now);
const monthStart = (monthsBack: number) => {
  const d = new Date(now);
  return dayOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - monthsBack, 1));
};

/** Presets as the web computes them for a UTC reader, a range ending yesterday, one ending in the future, custom past ranges. */
const RANGES: { name: string; q: StatsQuery }[] = [
  { name: 'today', q: { from: today, to: today } },
  { name: '7 days', q: { from: dayOf(now - 6 * DAY), to: today } },
  { name: '30 days', q: { from: dayOf(now - 29 * DAY), to: today } },
  { name: 'this month', q: { from: monthStart(0), to: today } },
  { name: '12 months', q: { from: monthStart(11), to: today } },
  { name: '12 months by day', q: { from: monthStart(11), to: today, granularity: 'day' } },
  { name: '30 days ending yesterday (a reader west of UTC)', q: { from: dayOf(now - 30 * DAY), to: dayOf(now - DAY) } },
  { name: 'ending in 20 days', q: { from: dayOf(now - 10 * DAY), to: dayOf(now + 20 * DAY) } },
  { name: 'custom past, by day', q: { from: dayOf(now - 200 * DAY), to: dayOf(now - 150 * DAY) } },
  { name: 'custom past, by month', q: { from: dayOf(now - 420 * DAY), to: dayOf(now - 35 * DAY) } },
  { name: 'one past day', q: { from: dayOf(now - 3 * DAY), to: dayOf(now - 3 * DAY) } },
];

interface Inst {
  id: number;
  path: string;
  grade: number;
  username: string;
}
let insts: Inst[];
let auths: { name: string; auth: Auth }[];

/** A caller as the access check builds it (the fields the stats service reads). */
function authOf(i: Inst | null, params: ParamValues): Auth {
  if (!i) return { sessionId: 0, kind: 'admin', restricted: false, viewer: { isAdmin: true, grade: 0 }, params, admin: { id: 1, roleId: 1, isSuper: true, viewRoleId: null, username: 'admin' } };
  const grade = i.grade as 1 | 2 | 3;
  return {
    sessionId: 0,
    kind: 'institution',
    restricted: false,
    viewer: { isAdmin: false, grade },
    params,
    institution: { id: i.id, grade, path: i.path, termExpiresAt: null, username: i.username, name: '', avatar: '', contactName: '' },
  };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
  insts = await t.db.select({ id: institutions.id, path: institutions.path, grade: institutions.grade, username: institutions.username }).from(institutions).orderBy(institutions.id);
  const byName = (u: string) => insts.find((i) => i.username === u)!;
  const params = await readParams(t.db);
  auths = [
    { name: 'admin', auth: authOf(null, params) },
    { name: 'agent1 (grade 1)', auth: authOf(byName('agent1'), params) },
    { name: 'agent2 (grade 2)', auth: authOf(byName('agent2'), params) },
    { name: 'agent1b (grade 1)', auth: authOf(byName('agent1b'), params) },
  ];
});
afterAll(async () => {
  await t?.close();
});

// ---------------------------------------------------------------------------------------------
// Random writes
// ---------------------------------------------------------------------------------------------

let serial = 0;
const tag = `R${SEED}`;

/** Devices held by institutions with people (an inspection needs a person of its institution). */
async function makeDevices(count: number) {
  const people = await t.db.select({ id: endUsers.id, institutionId: endUsers.institutionId }).from(endUsers);
  const owners = [...new Set(people.map((p) => p.institutionId))];
  const rows = await t.db
    .insert(devices)
    .values(
      Array.from({ length: count }, () => ({
        serial: `${tag}-D${++serial}`,
        institutionId: rng.pick(owners),
        status: rng.pick(['active', 'active', 'inactive', 'disabled'] as const),
        activatedAt: rng.next() < 0.8 ? new Date(now - rng.int(0, 420 * DAY)) : null,
        remainingUses: 1000,
      })),
    )
    .returning({ id: devices.id, institutionId: devices.institutionId });
  return { devices: rows.map((d) => ({ id: d.id, institutionId: d.institutionId! })), people };
}

/** `count` inspections in one INSERT: the device's owner (or, one in five, another institution), measured from 420 days ago to 20 days ahead. */
function inspectionRows(count: number, devs: { id: number; institutionId: number }[], people: { id: number; institutionId: number }[]) {
  return Array.from({ length: count }, () => {
    const d = rng.pick(devs);
    const institutionId = rng.next() < 0.2 ? rng.pick(people).institutionId : d.institutionId;
    const ahead = rng.next() < 0.05;
    const measuredAt = new Date(ahead ? now + rng.int(0, 20 * DAY) : now - rng.int(0, 420 * DAY));
    return { deviceId: d.id, institutionId, inspectionNo: `${tag}-I${++serial}`, measuredAt, endUserId: rng.pick(people).id, readings: {} };
  });
}

async function randomWrites() {
  const { devices: devs, people } = await makeDevices(30);
  // Devices: status and activation changes, moves (to stock too), uses spent (no roll-up changes), deletes; on devices of their own.
  const spare = (await makeDevices(12)).devices.map((d) => d.id);
  const someD = (n: number) =>
    sql.join(
      Array.from({ length: n }, () => sql`${rng.pick(spare)}`),
      sql`, `,
    );
  await t.db.execute(sql`update devices set status = case when status = 'active' then 'disabled' else 'active' end where id in (${someD(4)})`);
  await t.db.execute(sql`update devices set activated_at = now() - interval '3 days' where id in (${someD(3)})`);
  await t.db.execute(sql`update devices set activated_at = null where id in (${someD(1)})`);
  await t.db.execute(sql`update devices set institution_id = null, status = 'inactive' where id in (${someD(2)})`);
  await t.db.execute(sql`update devices set institution_id = ${rng.pick(insts).id} where id in (${someD(2)})`);
  await t.db.execute(sql`update devices set remaining_uses = remaining_uses - 1, last_seen_at = now() where id in (${someD(6)})`);
  await t.db.execute(sql`delete from devices where id in (${someD(2)})`);
  await t.db.execute(sql`delete from devices where id = ${rng.pick(spare)}`);
  // Inspections: bulk statements and single rows, devices moving between institutions in between.
  for (let round = 0; round < 4; round++) {
    await t.db.insert(inspections).values(inspectionRows(rng.int(30, 80), devs, people));
    for (let i = 0; i < 8; i++) await t.db.insert(inspections).values(inspectionRows(1, devs, people));
    for (let i = 0; i < 4; i++) {
      const d = rng.pick(devs);
      d.institutionId = rng.pick(people).institutionId;
      await t.db.update(devices).set({ institutionId: d.institutionId }).where(eq(devices.id, d.id));
    }
  }
  const ours = sql`${inspections.inspectionNo} like ${`${tag}-%`}`;
  const ids = (await t.db.select({ id: inspections.id }).from(inspections).where(ours)).map((r) => r.id);
  const some = (n: number) =>
    sql.join(
      Array.from({ length: n }, () => sql`${rng.pick(ids)}`),
      sql`, `,
    );
  // Updates: in time (several rows in one statement, some across days), across institutions and devices, and one that changes no key.
  await t.db.execute(sql`update inspections set measured_at = measured_at - interval '40 days' + interval '7 hours' where id in (${some(12)})`);
  await t.db.execute(sql`update inspections set measured_at = now() + interval '3 days' where id in (${some(2)})`);
  await t.db.execute(sql`update inspections set institution_id = ${rng.pick(people).institutionId} where id in (${some(5)})`);
  await t.db.execute(sql`update inspections set device_id = ${rng.pick(devs).id} where id in (${some(4)})`);
  await t.db.execute(sql`update inspections set analysis_version = analysis_version + 1 where id in (${some(10)})`);
  // Deletes: several rows, then one (the application never deletes inspections; the roll-ups follow all the same).
  await t.db.execute(sql`delete from inspections where id in (${some(8)})`);
  await t.db.execute(sql`delete from inspections where id = ${rng.pick(ids)}`);

  // Payments as the device API records them (commission lines, ledger credits dated with the payment).
  const pkgs = await t.db.select({ id: packages.id, price: packages.priceCents }).from(packages).where(sql`${packages.deletedAt} is null and ${packages.priceCents} > 0`);
  const paid: number[] = [];
  for (let i = 0; i < 40; i++) {
    const d = rng.pick(devs);
    const pkg = rng.pick(pkgs);
    const at = new Date(now - rng.int(0, 400 * DAY));
    const r = await t.db.transaction((tx) =>
      recordDevicePayment(tx, { deviceId: d.id, packageId: pkg.id, orderNo: `${tag}-P${++serial}`, amountCents: pkg.price, channel: 'cash', paidAt: at }, { at }),
    );
    paid.push(r.recordId);
  }
  // A bulk insert with refunded rows among paid ones, lines on any institution (or none).
  const line = () => (rng.next() < 0.3 ? null : rng.pick(insts).id);
  await t.db.insert(devicePayments).values(
    Array.from({ length: 25 }, () => {
      const d = rng.pick(devs);
      const pkg = rng.pick(pkgs);
      const [l1, l2] = [line(), line()];
      const l1Cents = l1 ? Math.floor(pkg.price / 10) : 0;
      const l2Cents = l2 ? Math.floor(pkg.price / 20) : 0;
      const status = rng.next() < 0.3 ? ('refunded' as const) : ('paid' as const);
      const paidAt = new Date(now - rng.int(-2 * DAY, 400 * DAY));
      return {
        deviceId: d.id,
        institutionId: d.institutionId,
        packageId: pkg.id,
        orderNo: `${tag}-B${++serial}`,
        amountCents: pkg.price,
        channel: 'wechat',
        paidAt,
        status,
        l1InstitutionId: l1,
        l1Cents,
        l2InstitutionId: l2,
        l2Cents,
        platformCents: pkg.price - l1Cents - l2Cents,
      };
    }),
  );
  // Refunds through the API (paid -> refunded, with the lines reversed).
  for (let i = 0; i < 6; i++) await t.call('POST', '/device_payment/refund', { key: admin, body: { id: rng.pick(paid), reason: 'Test' } });
  const mine = sql`${devicePayments.orderNo} like ${`${tag}-%`}`;
  const payIds = (await t.db.select({ id: devicePayments.id }).from(devicePayments).where(mine)).map((r) => r.id);
  const someP = (n: number) =>
    sql.join(
      Array.from({ length: n }, () => sql`${rng.pick(payIds)}`),
      sql`, `,
    );
  // Updates the application does not do, followed all the same: a refunded payment paid again, moved in time, another package; deletes.
  await t.db.execute(sql`update device_payments set status = 'paid' where id in (select id from device_payments where status = 'refunded' and order_no like ${`${tag}-%`} limit 2)`);
  await t.db.execute(sql`update device_payments set paid_at = paid_at - interval '33 days' where id in (${someP(5)})`);
  await t.db.execute(sql`update device_payments set package_id = ${rng.pick(pkgs).id} where id in (${someP(2)})`);
  await t.db.execute(sql`update device_payments set channel = 'card' where id in (${someP(3)})`);
  await t.db.execute(sql`delete from device_payments where id in (${someP(3)})`);

  // The ledger: payouts filed through the API (holds), and back-dated adjustments.
  for (const who of ['agent1', 'agent2']) {
    const key = (await t.login(who, 'institution')).key;
    await t.call('POST', '/payout/apply', { key, body: { amount_cents: 10_000 + rng.int(0, 5000), bank: 'ICBC', account_name: 'Li Na', account_no: '6222 0210 0000 1234' } });
  }
  for (let i = 0; i < 10; i++) {
    const inst = rng.pick(insts);
    await t.db.transaction((tx) => post(tx, inst.id, rng.int(1, 50_000), 'adjustment', { type: 'manual', id: 0 }, new Date(now - rng.int(0, 400 * DAY))));
  }
}

// ---------------------------------------------------------------------------------------------
// The reference: the service's queries before the roll-ups, over the raw rows
// ---------------------------------------------------------------------------------------------

const raw = (() => {
  const num = (v: unknown) => Number(v ?? 0);
  interface Range {
    echo: { from: string; to: string; granularity: StatsGranularity };
    start: Date;
    end: Date;
    unit: StatsGranularity;
  }
  const rangeOf = (q: { from: string; to: string; granularity?: StatsGranularity }): Range => {
    const granularity = q.granularity ?? autoGranularity(q.from, q.to);
    const start = new Date(`${q.from}T00:00:00Z`);
    const end = new Date(new Date(`${q.to}T00:00:00Z`).getTime() + DAY);
    return { echo: { from: q.from, to: q.to, granularity }, start, end, unit: granularity };
  };
  const scope = (auth: Auth, column: SQL | { getSQL(): SQL }) => (auth.kind === 'institution' ? sql`${column} in ${institutionSubtreeIds(auth.institution.path)}` : sql`true`);
  const inRange = (column: SQL | { getSQL(): SQL }, r: Range) => sql`${column} >= ${r.start} and ${column} < ${r.end}`;
  async function timeSeriesOf(db: Tx, r: Range, source: SQL, column: SQL | { getSQL(): SQL }, measures: SQL[]): Promise<StatPoint[][]> {
    const unit = sql.raw(`'${r.unit}'`);
    const step = sql.raw(r.unit === 'day' ? `interval '1 day'` : `interval '1 month'`);
    const fmt = sql.raw(r.unit === 'day' ? `'YYYY-MM-DD'` : `'YYYY-MM'`);
    const values = sql.join(
      measures.map((m, i) => sql`${m} as ${sql.raw(`v${i}`)}`),
      sql`, `,
    );
    const picks = sql.join(
      measures.map((_, i) => sql.raw(`coalesce(v.v${i}, 0) as v${i}`)),
      sql`, `,
    );
    const rows = rowsOf<Record<string, string | number>>(
      await db.execute(sql`with v as (
          select date_trunc(${unit}, ${column} at time zone 'UTC') as b, ${values} ${source} and ${inRange(column, r)} group by 1)
        select to_char(b.b, ${fmt}) as key, ${picks}
        from generate_series(date_trunc(${unit}, ${r.start}::timestamptz at time zone 'UTC'), ${r.end}::timestamptz at time zone 'UTC' - interval '1 second', ${step}) as b(b)
        left join v on v.b = b.b order by b.b`),
    );
    return measures.map((_, i) => rows.map((x) => ({ key: String(x.key), value: num(x[`v${i}`]) })));
  }
  const timeSeries = async (db: Tx, r: Range, source: SQL, column: SQL | { getSQL(): SQL }, measure: SQL = sql`count(*)`) => (await timeSeriesOf(db, r, source, column, [measure]))[0]!;
  function categories(rows: { key: string | number | null; value: unknown }[], order: readonly string[]): StatPoint[] {
    const by = new Map(rows.map((x) => [String(x.key ?? 'unknown'), num(x.value)]));
    const extra = [...by.keys()].filter((k) => !order.includes(k));
    return [...order, ...extra].map((key) => ({ key, value: by.get(key) ?? 0 }));
  }
  const PROVINCES = new Map(REGION_TABLE.tree.map(([code, name]) => [code, name]));
  const regionPoints = (rows: { key: string | null; value: unknown }[]): StatPoint[] =>
    rows.map((x) => (x.key ? { key: x.key, label: PROVINCES.get(x.key) ?? x.key, value: num(x.value) } : { key: 'unknown', value: num(x.value) }));
  const namedPoints = (rows: { key: number | string | null; label: string | null; value: unknown }[]): StatPoint[] =>
    rows.map((x) => ({ key: String(x.key ?? 'unknown'), ...(x.label != null ? { label: x.label } : {}), value: num(x.value) }));
  const total = (points: StatPoint[]) => points.reduce((s, p) => s + p.value, 0);
  async function expiringWindow(_db: Tx, auth: Auth) {
    const days = auth.params.expiring_days;
    const at = new Date();
    return { now: at, soon: new Date(at.getTime() + days * DAY) };
  }
  const TOP = sql.raw(String(10));

  async function equipmentRaw(db: Tx, auth: Auth, q: StatsQuery): Promise<StatsAnswer<'equipment'>> {
    const r = rangeOf(q);
    const clock = await expiringWindow(db, auth);
    const deviceScope = scope(auth, devices.institutionId);
    const inspectionScope = scope(auth, inspections.institutionId);
    const [status, expiring, activations, inspected, active] = await Promise.all([
      db.execute(sql`select ${devices.status} as key, count(*) as value from ${devices} where ${deviceScope} group by 1`),
      db.execute(sql`select count(*) as n from ${devices} where ${deviceScope} and ${devices.expiresAt} >= ${clock.now} and ${devices.expiresAt} <= ${clock.soon}`),
      timeSeries(db, r, sql`from ${devices} where ${deviceScope}`, devices.activatedAt),
      timeSeries(db, r, sql`from ${inspections} where ${inspectionScope}`, inspections.measuredAt),
      db.execute(sql`with pairs as (
          select distinct ${inspections.institutionId} as institution_id, ${inspections.deviceId} as device_id
          from ${inspections} where ${inspectionScope} and ${inRange(inspections.measuredAt, r)}),
        top_inst as (
          select p.institution_id as key, i.name as label, count(*) as value from pairs p join ${institutions} i on i.id = p.institution_id
          group by 1, 2 order by 3 desc, 1 limit ${TOP}),
        top_region as (
          select i.province as key, count(distinct p.device_id) as value from pairs p join ${institutions} i on i.id = p.institution_id
          group by 1 order by 2 desc, 1 limit ${TOP})
        select 'total' as part, null::text as key, null::text as label, (select count(distinct device_id) from pairs) as value
        union all select 'inst', key::text, label, value from top_inst
        union all select 'region', key, null, value from top_region`),
    ]);
    const activeRows = rowsOf<{ part: string; key: string | null; label: string | null; value: string }>(active);
    const byStatus = categories(rowsOf(status), ['active', 'inactive', 'disabled']);
    return {
      range: r.echo,
      kpis: {
        devices: total(byStatus),
        activeDevices: num(activeRows.find((x) => x.part === 'total')?.value),
        activations: total(activations),
        inspections: total(inspected),
        expiringSoon: num(rowsOf<{ n: string }>(expiring)[0]?.n),
        // Not a roll-up: read from the devices as the service does (seen within device_online_minutes).
        onlineDevices: num(
          rowsOf<{ n: string }>(
            await db.execute(sql`select count(*) as n from ${devices} where ${deviceScope} and ${devices.lastSeenAt} >= ${new Date(clock.now.getTime() - auth.params.device_online_minutes * 60_000)}`),
          )[0]?.n,
        ),
      },
      series: {
        byStatus,
        activations,
        inspections: inspected,
        topInstitutions: namedPoints(activeRows.filter((x) => x.part === 'inst')),
        topRegions: regionPoints(activeRows.filter((x) => x.part === 'region')),
      },
    };
  }

  async function financeTarget(db: Tx, auth: Auth, requested: number | undefined) {
    let id = requested;
    if (auth.kind === 'institution') {
      const own = auth.institution!;
      if (id && id !== own.id && !(await isInSubtree(db, own.path, id))) throw forbidden();
      id ??= own.id;
    }
    if (!id) return null;
    const [row] = rowsOf<{ id: number; path: string; grade: number; name: string }>(
      await db.execute(
        sql`select ${institutions.id} as id, ${institutions.path} as path, ${institutions.grade} as grade, ${institutions.name} as name from ${institutions} where ${institutions.id} = ${id}`,
      ),
    );
    if (!row) throw badRequest('statsInstitutionMissing');
    return row;
  }

  async function financeRaw(db: Tx, auth: Auth, q: FinanceStatsQuery): Promise<FinanceStatsAnswer> {
    const r = rangeOf(q);
    const target = await financeTarget(db, auth, q.institution_id);
    const rootPath = target?.path ?? '/';
    const p = devicePayments;
    const paidScope = target ? sql`${p.institutionId} in ${institutionSubtreeIds(target.path)} and ${p.status} = 'paid'` : sql`${p.status} = 'paid'`;
    const share = target
      ? sql`(case when ${p.l1InstitutionId} = ${target.id} then ${p.l1Cents} else 0 end + case when ${p.l2InstitutionId} = ${target.id} then ${p.l2Cents} else 0 end)`
      : sql`${p.platformCents}`;
    const ledgerScope = target ? sql`${ledgerEntries.institutionId} = ${target.id}` : sql`true`;
    const payoutScope = target ? sql`${payouts.institutionId} = ${target.id}` : sql`true`;
    const accountScope = target ? sql`${financeAccounts.institutionId} = ${target.id}` : sql`true`;
    const [[income, commission], byPackage, byChild, payoutRows, kpiRows, balanceRows] = await Promise.all([
      timeSeriesOf(db, r, sql`from ${p} where ${paidScope}`, p.paidAt, [sql`sum(${p.amountCents})`, sql`sum(${share})`]),
      db.execute(sql`select x.package_id as key, pk.name as label, x.value from (
          select ${p.packageId} as package_id, sum(${share}) as value from ${p} where ${paidScope} and ${inRange(p.paidAt, r)} group by 1) x
        join ${packages} pk on pk.id = x.package_id where x.value > 0 order by x.value desc, 1 limit ${TOP}`),
      db.execute(sql`with x as (
          select nullif(split_part(substr(i.path, ${rootPath.length + 1}), '/', 1), '')::int as child, sum(${share}) as value
          from ${p} join ${institutions} i on i.id = ${p.institutionId} where ${paidScope} and ${inRange(p.paidAt, r)} group by 1)
        select coalesce(x.child, ${target?.id ?? null}::int) as key, c.name as label, x.value from x left join ${institutions} c on c.id = coalesce(x.child, ${target?.id ?? null}::int)
        where x.value > 0 order by x.value desc, 1 limit ${TOP}`),
      db.execute(sql`select ${payouts.status} as key, sum(${payouts.amountCents}) as value from ${payouts} where ${payoutScope} and ${inRange(payouts.createdAt, r)} group by 1`),
      db.execute(sql`select
          (select coalesce(sum(${financeAccounts.balanceCents}), 0) from ${financeAccounts} where ${accountScope}) as balance,
          (select coalesce(sum(${payouts.amountCents}), 0) from ${payouts} where ${payoutScope} and ${payouts.status} = 'pending') as pending,
          (select coalesce(sum(${payouts.amountCents}), 0) from ${payouts} where ${payoutScope} and ${payouts.status} = 'paid' and ${inRange(payouts.decidedAt, r)}) as paid,
          (select coalesce(sum(${ledgerEntries.amountCents}), 0) from ${ledgerEntries} where ${ledgerScope} and ${ledgerEntries.createdAt} < ${r.start}) as opening`),
      timeSeries(db, r, sql`from ${ledgerEntries} where ${ledgerScope}`, ledgerEntries.createdAt, sql`sum(${ledgerEntries.amountCents})`),
    ]);
    const k = rowsOf<{ balance: string; pending: string; paid: string; opening: string }>(kpiRows)[0];
    let running = num(k?.opening);
    const balance = balanceRows.map((b) => {
      running += b.value;
      return { key: b.key, value: running };
    });
    return {
      range: r.echo,
      institution: target ? { id: target.id, name: target.name, grade: target.grade } : null,
      kpis: { income: total(income!), commission: total(commission!), balance: num(k?.balance), pendingPayouts: num(k?.pending), paidPayouts: num(k?.paid) },
      series: {
        income: income!,
        commission: commission!,
        byPackage: namedPoints(rowsOf(byPackage)),
        byChild: namedPoints(rowsOf(byChild)),
        payouts: categories(rowsOf(payoutRows), ['pending', 'paid', 'rejected', 'cancelled']),
        balance,
      },
    };
  }
  async function distributionRaw(db: Tx, auth: Auth, q: StatsQuery): Promise<StatsAnswer<'distribution'>> {
    const r = rangeOf(q);
    const recordScope = auth.kind === 'institution' ? sql`(${scope(auth, distributionRecords.toInstitutionId)} or ${scope(auth, distributionRecords.fromInstitutionId)})` : sql`true`;
    const [moved, counts, stock, byInst, byRegion] = await Promise.all([
      timeSeries(db, r, sql`from ${distributionRecords} where ${recordScope}`, distributionRecords.createdAt, sql`sum(${distributionRecords.deviceCount})`),
      db.execute(sql`select count(*) as n from ${distributionRecords} where ${recordScope} and ${inRange(distributionRecords.createdAt, r)}`),
      db.execute(
        auth.kind === 'institution'
          ? sql`select 'distributed' as key, count(*) as value from ${devices} where ${scope(auth, devices.institutionId)}`
          : sql`select case when ${devices.institutionId} is null then 'stock' else 'distributed' end as key, count(*) as value from ${devices} group by 1`,
      ),
      db.execute(sql`select i.id as key, i.name as label, sum(d.device_count) as value
        from ${distributionRecords} d join ${institutions} i on i.id = d.to_institution_id
        where ${scope(auth, sql`d.to_institution_id`)} and ${inRange(sql`d.created_at`, r)} group by 1, 2 order by 3 desc, 1 limit ${TOP}`),
      db.execute(sql`select i.province as key, sum(d.device_count) as value
        from ${distributionRecords} d join ${institutions} i on i.id = d.to_institution_id
        where ${scope(auth, sql`d.to_institution_id`)} and ${inRange(sql`d.created_at`, r)} group by 1 order by 2 desc, 1 limit ${TOP}`),
    ]);
    const stockPoints = categories(rowsOf(stock), ['stock', 'distributed']);
    return {
      range: r.echo,
      kpis: {
        moved: total(moved),
        records: num(rowsOf<{ n: string }>(counts)[0]?.n),
        inStock: stockPoints.find((p) => p.key === 'stock')?.value ?? 0,
        distributed: stockPoints.find((p) => p.key === 'distributed')?.value ?? 0,
      },
      series: { moved, stock: stockPoints, byInstitution: namedPoints(rowsOf(byInst)), byRegion: regionPoints(rowsOf(byRegion)) },
    };
  }
  return { equipment: equipmentRaw, distribution: distributionRaw, finance: financeRaw };
})();

// ---------------------------------------------------------------------------------------------
// Comparisons
// ---------------------------------------------------------------------------------------------

/** Every range, every caller: equipment, distribution, then finance for the caller's own (admins: the platform) and for targets picked by admins and grade 1. */
async function differences(): Promise<string[]> {
  const out: string[] = [];
  const same = (what: string, a: unknown, b: unknown) => {
    try {
      expect(a).toEqual(b);
    } catch (e) {
      out.push(`${what} (STATS_SEED=${SEED}): ${(e as Error).message.slice(0, 1500)}`);
    }
  };
  const byName = (u: string) => insts.find((i) => i.username === u)!;
  for (const { name: range, q } of RANGES) {
    for (const { name, auth } of auths) {
      same(`equipment, ${range}, ${name}`, await equipment(t.db, auth, q), await raw.equipment(t.db, auth, q));
      same(`distribution, ${range}, ${name}`, await distribution(t.db, auth, q), await raw.distribution(t.db, auth, q));
      same(`finance, ${range}, ${name}`, await finance(t.db, auth, q), await raw.finance(t.db, auth, q));
    }
    const picks: [string, number][] = [
      ['admin', byName('agent1').id],
      ['admin', byName('agent2').id],
      ['admin', byName('clinic3').id],
      ['agent1 (grade 1)', byName('agent2').id],
    ];
    for (const [who, target] of picks) {
      const auth = auths.find((a) => a.name === who)!.auth;
      const fq = { ...q, institution_id: target };
      same(`finance, ${range}, ${who} picking ${target}`, await finance(t.db, auth, fq), await raw.finance(t.db, auth, fq));
    }
  }
  return out;
}

/** The roll-up tables against a fresh aggregate of the rows (rows whose count fell to zero aside): the differences, both ways. */
async function rollupDrift(): Promise<Record<string, unknown[]>> {
  const checks: Record<string, SQL> = {
    inspections_daily: sql`(select day, institution_id, n from stats_inspections_daily where n <> 0
        except all select (measured_at at time zone 'UTC')::date, institution_id, count(*) from inspections group by 1, 2)
      union all (select (measured_at at time zone 'UTC')::date, institution_id, count(*) from inspections group by 1, 2
        except all select day, institution_id, n from stats_inspections_daily where n <> 0)`,
    inspection_pairs: sql`(select institution_id, device_id, last_at from stats_inspection_pairs
        except all select institution_id, device_id, max(measured_at) from inspections group by 1, 2)
      union all (select institution_id, device_id, max(measured_at) from inspections group by 1, 2
        except all select institution_id, device_id, last_at from stats_inspection_pairs)`,
    devices: sql`(select institution_id, status, n from stats_devices where n <> 0
        except all select institution_id, status, count(*) from devices group by 1, 2)
      union all (select institution_id, status, count(*) from devices group by 1, 2
        except all select institution_id, status, n from stats_devices where n <> 0)`,
    activations_daily: sql`(select day, institution_id, n from stats_activations_daily where n <> 0
        except all select (activated_at at time zone 'UTC')::date, institution_id, count(*) from devices where activated_at is not null group by 1, 2)
      union all (select (activated_at at time zone 'UTC')::date, institution_id, count(*) from devices where activated_at is not null group by 1, 2
        except all select day, institution_id, n from stats_activations_daily where n <> 0)`,
    inspection_pair_days: sql`(select day, institution_id, n from stats_inspection_pair_days where n <> 0
        except all select (last_at at time zone 'UTC')::date, institution_id, count(*) from (select institution_id, max(measured_at) as last_at from inspections group by device_id, institution_id) p group by 1, 2)
      union all (select (last_at at time zone 'UTC')::date, institution_id, count(*) from (select institution_id, max(measured_at) as last_at from inspections group by device_id, institution_id) p group by 1, 2
        except all select day, institution_id, n from stats_inspection_pair_days where n <> 0)`,
    inspection_devices: sql`(select device_id, pairs from stats_inspection_devices where pairs <> 0
        except all select device_id, count(distinct institution_id)::int from inspections group by 1)
      union all (select device_id, count(distinct institution_id)::int from inspections group by 1
        except all select device_id, pairs from stats_inspection_devices where pairs <> 0)`,
    payments_daily: sql`(select day, institution_id, package_id, l1_institution_id, l2_institution_id, n, amount_cents, l1_cents, l2_cents, platform_cents
        from stats_payments_daily where n <> 0 or amount_cents <> 0 or l1_cents <> 0 or l2_cents <> 0 or platform_cents <> 0
        except all select (paid_at at time zone 'UTC')::date, institution_id, package_id, l1_institution_id, l2_institution_id,
          count(*), sum(amount_cents), sum(l1_cents), sum(l2_cents), sum(platform_cents) from device_payments where status = 'paid' group by 1, 2, 3, 4, 5)
      union all (select (paid_at at time zone 'UTC')::date, institution_id, package_id, l1_institution_id, l2_institution_id,
          count(*), sum(amount_cents), sum(l1_cents), sum(l2_cents), sum(platform_cents) from device_payments where status = 'paid' group by 1, 2, 3, 4, 5
        except all select day, institution_id, package_id, l1_institution_id, l2_institution_id, n, amount_cents, l1_cents, l2_cents, platform_cents
        from stats_payments_daily where n <> 0 or amount_cents <> 0 or l1_cents <> 0 or l2_cents <> 0 or platform_cents <> 0)`,
    ledger_daily: sql`(select institution_id, day, amount_cents, n from stats_ledger_daily
        except all select institution_id, (created_at at time zone 'UTC')::date, sum(amount_cents), count(*) from ledger_entries group by 1, 2)
      union all (select institution_id, (created_at at time zone 'UTC')::date, sum(amount_cents), count(*) from ledger_entries group by 1, 2
        except all select institution_id, day, amount_cents, n from stats_ledger_daily)`,
  };
  const out: Record<string, unknown[]> = {};
  for (const [name, q] of Object.entries(checks)) {
    const rows = rowsOf(await t.db.execute(q));
    if (rows.length) out[name] = rows.slice(0, 5);
  }
  return out;
}

describe('stats roll-ups', () => {
  it('the demo data (migrated, then seeded through the triggers) matches its roll-ups', async () => {
    expect(await rollupDrift()).toEqual({});
    expect(Number(rowsOf<{ n: string }>(await t.db.execute(sql`select count(*) as n from stats_inspection_pairs`))[0]!.n)).toBeGreaterThan(0);
  });

  it(`after random writes (STATS_SEED=${SEED}), every page, range and caller answers as the raw rows do`, async () => {
    await randomWrites();
    expect(await rollupDrift()).toEqual({});
    const future = rowsOf<{ n: string }>(await t.db.execute(sql`select count(*) as n from inspections where measured_at >= now() + interval '1 day'`))[0]!;
    expect(Number(future.n), 'some inspections are measured in the future').toBeGreaterThan(0);
    expect(await differences()).toEqual([]);
  }, 120_000);

  it('would see a roll-up the triggers left behind (an UPDATE missed), and stats_rollups_rebuild() repairs it', async () => {
    const { devices: devs, people } = await makeDevices(1);
    const [row] = await t.db
      .insert(inspections)
      .values(inspectionRows(1, devs, people).map((r) => ({ ...r, institutionId: devs[0]!.institutionId, measuredAt: new Date(now - DAY) })))
      .returning({ id: inspections.id });
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`alter table inspections disable trigger stats_inspections_update`);
      await tx.execute(sql`update inspections set measured_at = measured_at - interval '100 days' where id = ${row!.id}`);
      await tx.execute(sql`alter table inspections enable trigger stats_inspections_update`);
    });
    expect(Object.keys(await rollupDrift())).toEqual(['inspections_daily', 'inspection_pairs', 'inspection_pair_days']); // the device's only inspection: its pair's latest too
    const found = await differences();
    expect(found.some((d) => d.startsWith('equipment, 7 days, admin'))).toBe(true);
    await t.db.execute(sql`select stats_rollups_rebuild()`);
    expect(await rollupDrift()).toEqual({});
    expect(await differences()).toEqual([]);
  }, 120_000);

  // Every server test runs on a multi-connection PostgreSQL (the embedded cluster, or DATABASE_URL's server:
  // test/global-setup.ts sets DATABASE_URL in the workers either way), so this runs in every run.
  it.skipIf(!process.env.DATABASE_URL)(
    'keeps the roll-ups right under concurrent writers (inserts, bulk inserts, payments, refunds) on several connections',
    async () => {
      const { devices: devs, people } = await makeDevices(6);
      const pkgs = await t.db.select({ id: packages.id, price: packages.priceCents }).from(packages).where(sql`${packages.deletedAt} is null and ${packages.priceCents} > 0`);
      // Many transactions at once on the same few keys: the same days, institutions, devices and packages.
      const sameDay = new Date(now - 2 * DAY);
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < 40; i++) {
        const rows = inspectionRows(i % 4 === 0 ? 25 : 1, devs.slice(0, 3), people).map((r) => (i % 2 ? { ...r, measuredAt: sameDay } : r));
        writes.push(t.db.transaction(async (tx) => tx.insert(inspections).values(rows)));
      }
      const payments: Promise<{ recordId: number }>[] = [];
      for (let i = 0; i < 30; i++) {
        const pkg = pkgs[i % 2]!;
        payments.push(
          t.db.transaction((tx) =>
            recordDevicePayment(tx, { deviceId: devs[i % 6]!.id, packageId: pkg.id, orderNo: `${tag}-C${++serial}`, amountCents: pkg.price, channel: 'cash', paidAt: sameDay }, { at: sameDay }),
          ),
        );
      }
      await Promise.all([...writes, ...payments]);
      const recorded = await Promise.all(payments);
      const connections = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database()`))[0]!;
      expect(connections.n, 'the writers ran on several connections').toBeGreaterThan(1);
      // Refunds at once, each twice (exactly one of each pair goes through).
      await Promise.all(recorded.slice(0, 8).flatMap((r) => [0, 1].map(() => t.call('POST', '/device_payment/refund', { key: admin, body: { id: r.recordId, reason: 'Twice' } }))));
      expect(await rollupDrift()).toEqual({});
      expect(await differences()).toEqual([]);
    },
    120_000,
  );
});

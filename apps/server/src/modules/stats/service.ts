import { sql, type SQL } from 'drizzle-orm';
import {
  canOpenRouteNamed,
  type L10n,
  type Lang,
  pickText,
  STATS_COLUMNS,
  STATS_KEY_LABELS,
  STATS_MONEY,
  STATS_PAGES,
  STATS_TABLES,
  type StatPoint,
  type StatsAnswer,
  type StatsExportQuery,
  type StatsPage,
  type StatsQuery,
} from '@app/contract';
import type { Tx } from '../../db/client';
import {
  branchApplications,
  devices,
  distributionRecords,
  inspections,
  institutions,
  statsActivationsDaily,
  statsDevices,
  statsInspectionDevices,
  statsInspectionPairDays,
  statsInspectionPairs,
  statsInspectionsDaily,
} from '../../db/schema';
import type { Auth } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { forbidden } from '../../lib/errors';
import { type ExportColumn, sendExport } from '../../lib/export';
import { rowsOf } from '../../lib/list';
import { DAY } from '../../lib/time';

/*
 * The stats dashboards: every figure of a page in one call, each an aggregate in SQL scoped to the
 * caller's subtree (admins: everything). Days are UTC days: the platform keeps no time zone of its own.
 * Time series come back with every bucket of the range (zeros included), so charts have no gaps.
 * Devices, inspections, paid payments and the ledger are read from their roll-ups (db/schema/stats.ts,
 * kept by triggers) wherever those give the very answer the rows give; see each figure.
 * What each figure means: docs/decisions.md, "Stats".
 */

import { TOP, categories, daysInRange, expiringWindow, inRange, namedPoints, num, rangeOf, regionPoints, scope, timeSeries, total, type Range } from './figures';
import { finance } from './finance';

// ---------------------------------------------------------------------------------------------
// Equipment
// ---------------------------------------------------------------------------------------------

/**
 * Active devices, top institutions and top regions: all three come from the range's distinct (institution,
 * device) pairs with an inspection measured in the range. Rows `part` 'total' | 'inst' | 'region'.
 */
function activeFigures(auth: Auth, r: Range): SQL {
  return r.end.getTime() <= Date.now() - DAY ? activeFromRows(auth, r) : activeFromRollups(auth, r);
}

/** From the range's inspections (an index-only scan): a range that ended more than a day ago. */
function activeFromRows(auth: Auth, r: Range): SQL {
  return sql`with pairs as (
      select distinct ${inspections.institutionId} as institution_id, ${inspections.deviceId} as device_id
      from ${inspections} where ${scope(auth, inspections.institutionId)} and ${inRange(inspections.measuredAt, r)}),
    top_inst as (
      select p.institution_id as key, i.name as label, count(*) as value from pairs p join ${institutions} i on i.id = p.institution_id
      group by 1, 2 order by 3 desc, 1 limit ${TOP}),
    top_region as (
      select i.province as key, count(distinct p.device_id) as value from pairs p join ${institutions} i on i.id = p.institution_id
      group by 1 order by 2 desc, 1 limit ${TOP})
    select 'total' as part, null::text as key, null::text as label, (select count(distinct device_id) from pairs) as value
    union all select 'inst', key::text, label, value from top_inst
    union all select 'region', key, null, value from top_region`;
}

/**
 * From the roll-ups, for a range that ends less than a day ago or later (every preset, in any time zone).
 * A pair was inspected in the range when its latest inspection lies in the range, or lies at or after the
 * range's end (the last hours, or measured ahead: found among the inspections from the end on, few) and an
 * inspection of it lies in the range. The first kind is counted per institution from the histogram of the
 * pairs' latest days; a device inspected at one institution only is one pair, so a count of pairs is a
 * count of devices, and the few devices with pairs at several institutions are counted once each by
 * taking their extra active pairs away. A range that ended earlier would find most pairs in the second
 * kind: it reads the rows instead (slower over long past ranges at full size: docs/benchmarks.md).
 */
function activeFromRollups(auth: Auth, r: Range): SQL {
  const p = statsInspectionPairs;
  const days = statsInspectionPairDays;
  const multi = statsInspectionDevices;
  return sql`with late as (
      select distinct x.institution_id, x.device_id from ${inspections} x
      where x.measured_at >= ${r.end} and ${scope(auth, sql`x.institution_id`)} and exists (
        select 1 from ${inspections} i where i.device_id = x.device_id and i.institution_id = x.institution_id and ${inRange(sql`i.measured_at`, r)})),
    per_inst as (
      select institution_id, sum(n) as n from (
        select ${days.institutionId} as institution_id, ${days.n} as n from ${days} where ${scope(auth, days.institutionId)} and ${daysInRange(days.day, r)}
        union all select institution_id, 1 from late) c
      group by 1 having sum(n) > 0),
    multi as (
      select ${p.institutionId} as institution_id, ${p.deviceId} as device_id from ${multi} join ${p} on ${p.deviceId} = ${multi.deviceId}
      where ${multi.pairs} > 1 and ${scope(auth, p.institutionId)} and ${p.lastAt} >= ${r.start} and ${p.lastAt} < ${r.end}
      union all select l.institution_id, l.device_id from late l join ${multi} on ${multi.deviceId} = l.device_id and ${multi.pairs} > 1),
    multi_region as (
      select i.province, m.device_id, count(*) as k from multi m join ${institutions} i on i.id = m.institution_id group by 1, 2),
    top_inst as (
      select c.institution_id as key, i.name as label, c.n as value from per_inst c join ${institutions} i on i.id = c.institution_id
      order by 3 desc, 1 limit ${TOP}),
    top_region as (
      select x.key, x.n - coalesce((select sum(m.k - 1) from multi_region m where m.province is not distinct from x.key), 0) as value
      from (select i.province as key, sum(c.n) as n from per_inst c join ${institutions} i on i.id = c.institution_id group by 1) x
      order by 2 desc, 1 limit ${TOP})
    select 'total' as part, null::text as key, null::text as label,
      (select coalesce(sum(n), 0) from per_inst) - (select coalesce(sum(k - 1), 0) from (select device_id, count(*) as k from multi group by 1) d) as value
    union all select 'inst', key::text, label, value from top_inst
    union all select 'region', key, null, value from top_region`;
}

/** GET /stats/equipment: devices by status, activations, inspections, active devices and the top institutions and regions. */
export async function equipment(db: Tx, auth: Auth, q: StatsQuery): Promise<StatsAnswer<'equipment'>> {
  const r = rangeOf(q);
  const clock = await expiringWindow(db, auth);
  const deviceScope = scope(auth, devices.institutionId);
  const owned = statsDevices;
  const activated = statsActivationsDaily;
  const daily = statsInspectionsDaily;
  // Devices by status and activations per UTC day from their roll-ups (per owner); any range is whole days.
  // Online now: seen within device_online_minutes (trust-api.md, "Device version and presence").
  const onlineSince = new Date(clock.now.getTime() - auth.params.device_online_minutes * 60_000);
  const [status, expiring, activations, inspected, active, online] = await Promise.all([
    db.execute(sql`select ${owned.status} as key, sum(${owned.n}) as value from ${owned} where ${scope(auth, owned.institutionId)} group by 1 having sum(${owned.n}) <> 0`),
    db.execute(sql`select count(*) as n from ${devices} where ${deviceScope} and ${devices.expiresAt} >= ${clock.now} and ${devices.expiresAt} <= ${clock.soon}`),
    timeSeries(db, r, sql`from ${activated} where ${scope(auth, activated.institutionId)}`, { day: activated.day }, sql`sum(${activated.n})`),
    timeSeries(db, r, sql`from ${daily} where ${scope(auth, daily.institutionId)}`, { day: daily.day }, sql`sum(${daily.n})`),
    db.execute(activeFigures(auth, r)),
    db.execute(sql`select count(*) as n from ${devices} where ${deviceScope} and ${devices.lastSeenAt} >= ${onlineSince}`),
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
      onlineDevices: num(rowsOf<{ n: string }>(online)[0]?.n),
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

// ---------------------------------------------------------------------------------------------
// Distribution
// ---------------------------------------------------------------------------------------------

/** GET /stats/distribution: devices moved per bucket, stock vs distributed, and where the range's moves went. */
export async function distribution(db: Tx, auth: Auth, q: StatsQuery): Promise<StatsAnswer<'distribution'>> {
  const r = rangeOf(q);
  // A move is the caller's when it comes from or goes to its subtree (admins: every move).
  const recordScope = auth.kind === 'institution' ? sql`(${scope(auth, distributionRecords.toInstitutionId)} or ${scope(auth, distributionRecords.fromInstitutionId)})` : sql`true`;
  const [moved, counts, stock, byInst, byRegion] = await Promise.all([
    timeSeries(db, r, sql`from ${distributionRecords} where ${recordScope}`, distributionRecords.createdAt, sql`sum(${distributionRecords.deviceCount})`),
    db.execute(sql`select count(*) as n from ${distributionRecords} where ${recordScope} and ${inRange(distributionRecords.createdAt, r)}`),
    // Devices held now, from the devices' roll-up (per owner; null: stock).
    db.execute(
      auth.kind === 'institution'
        ? sql`select 'distributed' as key, coalesce(sum(${statsDevices.n}), 0) as value from ${statsDevices} where ${scope(auth, statsDevices.institutionId)}`
        : sql`select case when ${statsDevices.institutionId} is null then 'stock' else 'distributed' end as key, sum(${statsDevices.n}) as value
          from ${statsDevices} group by 1 having sum(${statsDevices.n}) <> 0`,
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

// ---------------------------------------------------------------------------------------------
// Institutions
// ---------------------------------------------------------------------------------------------

/** GET /stats/institution: institutions by grade, region, status and term, new ones per bucket, branch applications by state. */
export async function institution(db: Tx, auth: Auth, q: StatsQuery): Promise<StatsAnswer<'institution'>> {
  const r = rangeOf(q);
  const clock = await expiringWindow(db, auth);
  const instScope = scope(auth, institutions.id);
  const [counts, byRegion, created, apps] = await Promise.all([
    db.execute(sql`select 'grade' || ${institutions.grade} as grade, case when ${institutions.status} = 1 then 'enabled' else 'disabled' end as status,
        case when ${institutions.termExpiresAt} is null then 'noTerm' when ${institutions.termExpiresAt} <= ${clock.now} then 'overdue'
             when ${institutions.termExpiresAt} <= ${clock.soon} then 'expiring' else 'ok' end as term, count(*) as value
      from ${institutions} where ${instScope} group by 1, 2, 3`),
    db.execute(sql`select ${institutions.province} as key, count(*) as value from ${institutions} where ${instScope} group by 1 order by 2 desc, 1 limit ${TOP}`),
    timeSeries(db, r, sql`from ${institutions} where ${instScope}`, institutions.createdAt),
    db.execute(sql`select ${branchApplications.state} as key, count(*) filter (where ${inRange(branchApplications.createdAt, r)}) as value,
        count(*) filter (where ${branchApplications.state} = 'pending') as pending
      from ${branchApplications} where ${scope(auth, branchApplications.applicantId)} group by 1`),
  ]);
  const rows = rowsOf<{ grade: string; status: string; term: string; value: string }>(counts);
  const sumBy = (field: 'grade' | 'status' | 'term') => {
    const m = new Map<string, number>();
    for (const x of rows) m.set(x[field], (m.get(x[field]) ?? 0) + num(x.value));
    return [...m].map(([key, value]) => ({ key, value }));
  };
  const term = categories(sumBy('term'), ['ok', 'expiring', 'overdue', 'noTerm']);
  const appRows = rowsOf<{ key: string; value: string; pending: string }>(apps);
  return {
    range: r.echo,
    kpis: {
      institutions: rows.reduce((s, x) => s + num(x.value), 0),
      newInRange: total(created),
      overdue: term.find((p) => p.key === 'overdue')!.value,
      expiring: term.find((p) => p.key === 'expiring')!.value,
      pendingApplications: appRows.reduce((s, x) => s + num(x.pending), 0),
    },
    series: {
      byGrade: categories(sumBy('grade'), ['grade1', 'grade2', 'grade3']),
      byRegion: regionPoints(rowsOf(byRegion)),
      byStatus: categories(sumBy('status'), ['enabled', 'disabled']),
      newPerPeriod: created,
      term,
      applications: categories(appRows, ['pending', 'approved', 'rejected']),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Export
// ---------------------------------------------------------------------------------------------

const PAGE_CALLS = { equipment, distribution, institution, finance } as const;

/** A point's key as a reader sees it: its label, the category's name, or the key itself (dates, codes). */
export function keyText(point: StatPoint, lang: Lang): string {
  if (point.label) return point.label;
  const known: L10n | undefined = STATS_KEY_LABELS[point.key];
  return known ? pickText(known, lang) : point.key;
}

/** GET /stats/export: one table of a page as CSV or XLSX, in the caller's language; money in yuan. */
export async function exportTable(db: Tx, auth: Auth, q: StatsExportQuery, ctx: Ctx) {
  const page: StatsPage = q.page;
  if (!canOpenRouteNamed(STATS_PAGES[page].route, auth.viewer)) throw forbidden();
  const answer = (await PAGE_CALLS[page](db, auth, q)) as StatsAnswer<StatsPage>;
  const points = (answer.series as Record<string, StatPoint[]>)[q.table] ?? [];
  const def = (STATS_TABLES[page] as Record<string, { title: L10n; key: keyof typeof STATS_COLUMNS | 'bucket'; value: keyof typeof STATS_COLUMNS }>)[q.table]!;
  const lang = ctx.lang;
  const keyColumn = def.key === 'bucket' ? (answer.range.granularity === 'day' ? 'date' : 'month') : def.key;
  const money = STATS_MONEY.series.includes(`${page}.${q.table}`);
  const columns: ExportColumn<StatPoint>[] = [
    { title: pickText(STATS_COLUMNS[keyColumn], lang), value: (p) => keyText(p, lang), width: 24 },
    { title: pickText(STATS_COLUMNS[def.value], lang), value: (p) => (money ? p.value / 100 : p.value), width: 16 },
  ];
  return sendExport(ctx.reply, {
    format: q.format,
    filename: `stats-${page}-${q.table}-${q.from}-${q.to}`,
    sheet: pickText(def.title, lang),
    columns,
    rows: points,
  });
}

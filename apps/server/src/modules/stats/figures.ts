import { sql, type SQL } from 'drizzle-orm';
import { autoGranularity, type StatPoint, type StatsGranularity, type StatsRangeEcho } from '@app/contract';
import type { Tx } from '../../db/client';
import type { Auth } from '../../http/access';
import { rowsOf } from '../../lib/list';
import { REGION_TABLE } from '../../lib/regions';
import { institutionSubtreeIds } from '../institutions';
import { DAY } from '../../lib/time';

/* What every stats page shares: the range and its buckets, the caller's scope, series and points from rows. */

export const num = (v: unknown) => Number(v ?? 0);

/** A range as the queries use it: instants [start, end) and the bucket unit. */
export interface Range {
  echo: StatsRangeEcho;
  start: Date;
  end: Date;
  unit: StatsGranularity;
}

export function rangeOf(q: { from: string; to: string; granularity?: StatsGranularity }): Range {
  const granularity = q.granularity ?? autoGranularity(q.from, q.to);
  const start = new Date(`${q.from}T00:00:00Z`);
  const end = new Date(new Date(`${q.to}T00:00:00Z`).getTime() + DAY);
  return { echo: { from: q.from, to: q.to, granularity }, start, end, unit: granularity };
}

/** A condition putting an institution column in the caller's subtree (true for admins). */
export function scope(auth: Auth, column: SQL | { getSQL(): SQL }): SQL {
  return auth.kind === 'institution' ? sql`${column} in ${institutionSubtreeIds(auth.institution.path)}` : sql`true`;
}

export const inRange = (column: SQL | { getSQL(): SQL }, r: Range) => sql`${column} >= ${r.start} and ${column} < ${r.end}`;
/** The same range over a roll-up's UTC `day` column: the range's bounds are UTC midnights, so it is exact. */
export const daysInRange = (column: SQL | { getSQL(): SQL }, r: Range) => sql`${column} >= ${dayOf(r.start)}::date and ${column} < ${dayOf(r.end)}::date`;
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Where a series' rows sit in time: an instant column (`timestamptz`), or the UTC `day` column (`date`) of
 * a roll-up. Both give the same buckets: a day lies in one month, and the range is whole UTC days.
 */
type TimeColumn = SQL | { getSQL(): SQL } | { day: SQL | { getSQL(): SQL } };
function bucketsOf(column: TimeColumn, r: Range, unit: SQL) {
  if ('day' in column) return { bucket: sql`date_trunc(${unit}, ${column.day}::timestamp)`, where: daysInRange(column.day, r) };
  return { bucket: sql`date_trunc(${unit}, ${column} at time zone 'UTC')`, where: inRange(column, r) };
}

/**
 * Values per bucket of the range (zeros included), one series per measure, from one scan: each measure
 * aggregated over `source` (a `from ... where ...` fragment whose rows carry `column`), the range
 * condition added here.
 */
export async function timeSeriesOf(db: Tx, r: Range, source: SQL, column: TimeColumn, measures: SQL[]): Promise<StatPoint[][]> {
  const unit = sql.raw(`'${r.unit}'`);
  const { bucket, where } = bucketsOf(column, r, unit);
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
        select ${bucket} as b, ${values} ${source} and ${where} group by 1)
      select to_char(b.b, ${fmt}) as key, ${picks}
      from generate_series(date_trunc(${unit}, ${r.start}::timestamptz at time zone 'UTC'), ${r.end}::timestamptz at time zone 'UTC' - interval '1 second', ${step}) as b(b)
      left join v on v.b = b.b order by b.b`),
  );
  return measures.map((_, i) => rows.map((x) => ({ key: String(x.key), value: num(x[`v${i}`]) })));
}

/** One series per bucket: `measure` (default: a row count) over `source`. */
export const timeSeries = async (db: Tx, r: Range, source: SQL, column: TimeColumn, measure: SQL = sql`count(*)`) => (await timeSeriesOf(db, r, source, column, [measure]))[0]!;

/** Category counts as points, in the order given (missing categories answer 0). */
export function categories(rows: { key: string | number | null; value: unknown }[], order: readonly string[]): StatPoint[] {
  const by = new Map(rows.map((x) => [String(x.key ?? 'unknown'), num(x.value)]));
  const extra = [...by.keys()].filter((k) => !order.includes(k));
  return [...order, ...extra].map((key) => ({ key, value: by.get(key) ?? 0 }));
}

const PROVINCES = new Map(REGION_TABLE.tree.map(([code, name]) => [code, name]));
/** Points keyed by province code, labelled with its name (null province: "unknown"). */
export const regionPoints = (rows: { key: string | null; value: unknown }[]): StatPoint[] =>
  rows.map((x) => (x.key ? { key: x.key, label: PROVINCES.get(x.key) ?? x.key, value: num(x.value) } : { key: 'unknown', value: num(x.value) }));
export const namedPoints = (rows: { key: number | string | null; label: string | null; value: unknown }[]): StatPoint[] =>
  rows.map((x) => {
    const key = String(x.key ?? 'unknown');
    const value = num(x.value);
    return x.label != null ? { key, label: x.label, value } : { key, value };
  });
export const total = (points: StatPoint[]) => points.reduce((s, p) => s + p.value, 0);

export async function expiringWindow(_db: Tx, auth: Auth) {
  const days = auth.params.expiring_days;
  const now = new Date();
  return { now, soon: new Date(now.getTime() + days * DAY) };
}

export const TOP = sql.raw(String(10));

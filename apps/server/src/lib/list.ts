import { and, asc, desc, eq, sql, SQL, type AnyColumn } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
import { COUNT_CAP, type ListResult, type MessageKey } from '@app/contract';
import type { Tx } from '../db/client';
import { fieldError } from './form';
import { together } from '../db/together';

/**
 * The count's LIMIT, written into the SQL rather than bound: a constant, and a statement whose only
 * parameters were its count's cap could not keep one plan (see `pageWindow`).
 */
const COUNT_LIMIT = sql.raw(String(COUNT_CAP + 1));

/** Escapes LIKE wildcards in user text. */
export const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Counts the rows of a FROM/WHERE fragment, stopping at COUNT_CAP + 1: paging a large table never
 * counts all of it. `capped` tells the client that there are at least COUNT_CAP rows.
 */
export async function cappedCount(db: Tx, fromWhere: SQL): Promise<{ total: number; capped: boolean }> {
  const rows = rowsOf<{ n: number | string }>(await db.execute(sql`select count(*)::int as n from (select 1 ${fromWhere} limit ${COUNT_LIMIT}) s`));
  return capped(Number(rows[0]?.n ?? 0));
}

/** The rows of a `db.execute` result, whichever shape the driver gives it. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows?: T[] }).rows ?? (result as T[]);

const capped = (n: number) => (n > COUNT_CAP ? { total: COUNT_CAP, capped: true } : { total: n, capped: false });

/**
 * The capped count of a FROM/WHERE fragment as a column of the page's own statement: the page and its count
 * in one round trip (PostgreSQL runs the uncorrelated subquery once). Read it back with `countOfPage`.
 */
export const cappedCountColumn = (fromWhere: SQL) => sql<number>`(select count(*)::int from (select 1 ${fromWhere} limit ${COUNT_LIMIT}) s)`.mapWith(Number);

/**
 * The count a page carries in its `cappedCountColumn`; a page with no row carries none: 0 on the first page,
 * else (a page past the end) counted by a statement of its own, over `fromWhere()` (values written in).
 */
export async function countOfPage(db: Tx, rows: readonly { total: number }[], q: { page: number; limit: number }, fromWhere: () => SQL | Promise<SQL>): Promise<{ total: number; capped: boolean }> {
  if (rows.length) return capped(rows[0]!.total);
  return offsetOf(q) === 0 ? capped(0) : cappedCount(db, await fromWhere());
}

/**
 * A timestamp column as the API answers it: ISO 8601 in UTC with milliseconds, what `Date.toISOString()`
 * prints. The driver hands drizzle PostgreSQL's own text of a timestamptz; `isoOfPgText` rewrites it, so a
 * list's rows pass through Node with no Date parsed and printed again per cell.
 */
export const isoText = <C extends AnyColumn>(column: C) => sql`${column}`.mapWith(isoOfPgText) as SQL<C['_']['notNull'] extends true ? string : string | null>;

/**
 * PostgreSQL's text of a timestamptz in a UTC session ("2026-11-25 04:48:23.315123+00", fractions of 0-6
 * digits) as `toISOString()` prints it, by slicing: milliseconds truncated, as Date does. Any other text
 * (another session time zone) goes through Date. (drizzle maps a null to null without calling this.)
 */
export function isoOfPgText(text: string): string {
  const n = text.length;
  if (n >= 22 && text.endsWith('+00') && text.charCodeAt(10) === 32 /* space */) {
    const fraction = text.charCodeAt(19) === 46 /* . */ ? `${text.slice(20, n - 3)}00`.slice(0, 3) : '000';
    return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
  }
  return new Date(text).toISOString();
}

export const offsetOf = (q: { page: number; limit: number }) => (q.page - 1) * q.limit;

/**
 * The LIMIT and OFFSET of a shaped list statement's page, and what they add to its shape key. The first page
 * of a list whose values filter nothing (the platform's whole list: the list's landing call, the one made
 * most) has its size written in and no OFFSET, so its named statement has no parameter left (the count's
 * cap is written in too) and PostgreSQL keeps one plan for it. With `LIMIT $n OFFSET $m` it plans at every
 * call: the generic plan is costed for 10% of the table and never chosen. Planning was 0.3-0.6 ms of a device
 * list page and 1.1 of the inspection list's 2.2 ms at a million rows (docs/benchmarks.md). Other pages and
 * filtered lists bind both: their values can change the best plan. The size (1-200, checked by the contract)
 * is in the shape key; the call's values carry `limit` and `offset` either way (unused ones are ignored).
 */
export function pageWindow(q: { page: number; limit: number }, unfiltered: boolean) {
  const first = unfiltered && offsetOf(q) === 0;
  return {
    key: first ? `|first ${q.limit}` : '',
    apply: <Q extends PgSelect>(query: Q): Q =>
      (first ? query.limit(sql.raw(String(Math.trunc(q.limit))) as unknown as number) : query.limit(sql.placeholder('limit')).offset(sql.placeholder('offset'))) as Q,
  };
}

/**
 * A list's order as a key: its sort columns (one direction) and then the id, the tiebreak that makes
 * the order total. Lists page it with OFFSET (`orderOf`); exports walk it by keyset (`keyAfter`).
 */
export interface SortKey {
  columns: readonly (AnyColumn | SQL)[];
  id: AnyColumn;
  ascending: boolean;
}

const isNullable = (column: AnyColumn | SQL) => !(column instanceof SQL) && !(column as AnyColumn).notNull;

/**
 * The sort key of a list query: the requested column (from the module's whitelist, already enforced by
 * the contract schema), else the fallback, descending unless `ascend` is asked for.
 */
export function sortKey<K extends string>(columns: Record<K, AnyColumn | SQL>, q: { sort?: K; order?: 'ascend' | 'descend' }, fallback: K, id: AnyColumn): SortKey {
  return { columns: [columns[q.sort ?? fallback]], id, ascending: q.sort ? q.order === 'ascend' : false };
}

/**
 * ORDER BY of a sort key: each column, then the id for a stable order across pages. Nullable columns
 * put empty values last both ways; NOT NULL columns sort plainly so a single btree index serves both
 * directions.
 */
export function orderOf(key: SortKey): SQL[] {
  const dir = key.ascending ? sql` asc` : sql` desc`;
  return [...key.columns.map((c) => sql`${c}${dir}${isNullable(c) ? sql` nulls last` : sql``}`), key.ascending ? asc(key.id) : desc(key.id)];
}

/** ORDER BY for a list query (see sortKey and orderOf). */
export function sortBy<K extends string>(columns: Record<K, AnyColumn | SQL>, q: { sort?: K; order?: 'ascend' | 'descend' }, fallback: K, id: AnyColumn): SQL[] {
  return orderOf(sortKey(columns, q, fallback, id));
}

/**
 * The rows after row `lastId` in `key`'s order (keyset pagination): the key's values are read back from
 * the row itself in the database (a subquery), so timestamps compare at full precision. The key's
 * columns must belong to the id's table; NOT NULL keys compare as one row value, a single nullable key
 * also takes the empty values that sort last.
 */
export function keyAfter(key: SortKey, lastId: number): SQL {
  const op = key.ascending ? sql`>` : sql`<`;
  const table = (key.id as AnyPgColumn).table;
  const columns = key.columns.filter((c) => c !== key.id);
  if (columns.some((c) => c instanceof SQL || (c as AnyPgColumn).table !== table)) throw new Error("keyAfter: sort columns must be columns of the id's table");
  if (!columns.length) return sql`${key.id} ${op} ${lastId}`;
  const own = (cols: SQL) => sql`(select ${cols} from ${table} where ${key.id} = ${lastId})`;
  const tuple = sql.join([...columns, key.id], sql`, `);
  const rowAfter = sql`(${tuple}) ${op} ${own(tuple)}`;
  const nullable = columns.filter(isNullable);
  if (!nullable.length) return rowAfter;
  if (columns.length > 1) throw new Error('keyAfter: a nullable sort column must be the only one');
  const column = columns[0]!;
  // Empty values sort last: after a set value every empty one follows; after an empty one, the empty ones with a later id.
  return sql`coalesce(${rowAfter}, ${column} is null and (${own(sql`${column}`)} is not null or ${key.id} ${op} ${lastId}))`;
}

/** How many rows an export reads per query. */
export const KEYSET_BATCH = 1000;

/**
 * Every row of a filtered list in its order, read in batches of `batch` by keyset (no OFFSET, no
 * connection held between batches), at most `max`. `fetch(where, order, limit)` is the list's own
 * row query, so an export shows what the list shows. Stops reading when the consumer stops.
 */
export async function* keysetRows<R extends { id: number }>(
  fetch: (where: SQL | undefined, order: SQL[], limit: number) => Promise<R[]>,
  where: SQL | undefined,
  key: SortKey,
  { batch = KEYSET_BATCH, max = Number.POSITIVE_INFINITY }: { batch?: number; max?: number } = {},
): AsyncGenerator<R> {
  const order = orderOf(key);
  let last: number | null = null;
  let sent = 0;
  while (sent < max) {
    const limit = Math.min(batch, max - sent);
    const rows = await fetch(last == null ? where : and(where, keyAfter(key, last)), order, limit);
    for (const row of rows) yield row;
    sent += rows.length;
    if (rows.length < limit) return;
    last = rows[rows.length - 1]!.id;
  }
}

/**
 * One page of a list: `rows(limit, offset)` and the capped count of `fromWhere` (a FROM/WHERE fragment,
 * see cappedCount), run together (db/together.ts).
 */
export async function pagedList<T>(db: Tx, q: { page: number; limit: number }, fromWhere: SQL, rows: (limit: number, offset: number) => Promise<T[]>): Promise<ListResult<T>> {
  const [list, count] = await together(db, [() => rows(q.limit, offsetOf(q)), () => cappedCount(db, fromWhere)]);
  return { list, ...count };
}

/** The referenced row must exist (a picker value): otherwise a FieldError on `field`. */
export async function assertExists(db: Tx, table: PgTable & { id: AnyPgColumn }, id: number, field: string, key: MessageKey) {
  const [row] = await db
    .select({ id: table.id })
    .from(table as PgTable)
    .where(eq(table.id, id))
    .limit(1);
  if (!row) throw fieldError(field, key);
}

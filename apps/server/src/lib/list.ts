import { asc, desc, eq, sql, SQL, type AnyColumn } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { COUNT_CAP, type ListResult, type MessageKey } from '@app/contract';
import type { Tx } from '../db/client';
import { fieldError } from './form';

/** Escapes LIKE wildcards in user text. */
export const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Counts the rows of a FROM/WHERE fragment, stopping at COUNT_CAP + 1: paging a large table never
 * counts all of it. `capped` tells the client that there are at least COUNT_CAP rows.
 */
export async function cappedCount(db: Tx, fromWhere: SQL): Promise<{ total: number; capped: boolean }> {
  const result = await db.execute<{ n: number | string }>(sql`select count(*)::int as n from (select 1 ${fromWhere} limit ${COUNT_CAP + 1}) s`);
  const rows = (result as unknown as { rows: { n: number | string }[] }).rows ?? (result as unknown as { n: number }[]);
  const n = Number(rows[0]?.n ?? 0);
  return n > COUNT_CAP ? { total: COUNT_CAP, capped: true } : { total: n, capped: false };
}

export const offsetOf = (q: { page: number; limit: number }) => (q.page - 1) * q.limit;

/**
 * ORDER BY for a list query: the requested column (from the module's whitelist, already enforced by
 * the contract schema), then the id for a stable order across pages. Nullable columns put empty values
 * last both ways; NOT NULL columns sort plainly so a single btree index serves both directions.
 */
export function sortBy<K extends string>(columns: Record<K, AnyColumn | SQL>, q: { sort?: K; order?: 'ascend' | 'descend' }, fallback: K, id: AnyColumn): SQL[] {
  const column = columns[q.sort ?? fallback];
  const ascending = q.sort ? q.order === 'ascend' : false;
  const notNull = !(column instanceof SQL) && (column as AnyColumn).notNull;
  const nulls = notNull ? sql`` : sql` nulls last`;
  return [ascending ? sql`${column} asc${nulls}` : sql`${column} desc${nulls}`, ascending ? asc(id) : desc(id)];
}

/**
 * One page of a list: `rows(limit, offset)` and the capped count of `fromWhere` (a FROM/WHERE fragment,
 * see cappedCount), run together.
 */
export async function pagedList<T>(db: Tx, q: { page: number; limit: number }, fromWhere: SQL, rows: (limit: number, offset: number) => Promise<T[]>): Promise<ListResult<T>> {
  const [list, count] = await Promise.all([rows(q.limit, offsetOf(q)), cappedCount(db, fromWhere)]);
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

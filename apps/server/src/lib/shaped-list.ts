import { sql, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { ListResult } from '@app/contract';
import type { Tx } from '../db/client';
import { countCacheOf } from '../db/count-cache';
import { type Bound, type Buildable, ShapedStatements } from '../db/shaped';
import { cappedCountColumn, countOfPage, offsetOf, pageWindow } from './list';

/*
 * The machinery of a large list (devices, inspections) behind one call: the module says what its filters
 * are and how its page is selected; `ShapedList.page` does the rest, the same way for every such list:
 *
 * - the statement is built once per shape (db/shaped.ts): the filters bound by name, the module's own shape
 *   parts (its order, a join a filter needs) and the paging window (`pageWindow`) make the key;
 * - the page and its capped count travel in one statement (one round trip, `cappedCountColumn`), and a page
 *   past the end is counted by a statement of its own with the values written in (`countOfPage`);
 * - with `keep`, the total of a filter set is kept in the count cache (db/count-cache.ts) while no write
 *   could change it, and the next pages are read without counting again;
 * - the whole list with no filter (the landing call) gets a named statement whose plan PostgreSQL may keep.
 */

/** Cuts a page out of an ordered query: LIMIT and OFFSET (bound) or, for the first unfiltered page, a written-in LIMIT. */
export type PageCut = <Q extends PgSelect>(query: Q) => Q;

export interface ShapedPage {
  q: { page: number; limit: number };
  /** The filters, their values bound by `bound.bind` (undefined: the whole list). */
  where: SQL | undefined;
  bound: Bound;
  /** What else changes the statement's text: the order, a join that a filter needs. */
  shape: string;
  /** FROM and WHERE of the count, with the values bound (see `cappedCountColumn`). */
  countFrom: SQL;
  /** The same with the values written in, for the rare count of a page past the end. */
  countFromInline: () => SQL | Promise<SQL>;
  /**
   * The page's query, filtered and ordered, cut by `cut`; with `total` (the capped count column) as a column
   * named `total` when one is given.
   */
  select: (db: Tx, cut: PageCut, total: SQL<number> | undefined) => Buildable<unknown>;
  /**
   * Keep the total of this filter set in the count cache under `key` (the filters' values that a write
   * could change the total of; not the clock), until `until()` (ms) when the clock alone can change it.
   */
  keep?: { key: string; now: number; until?: () => Promise<number> };
}

/** The statements of one large list, one per shape: its page with the capped count, and its page alone. */
export class ShapedList<Row extends object> {
  private readonly withCount = new ShapedStatements<(Row & { total: number })[]>();
  private readonly alone = new ShapedStatements<Row[]>();

  async page(db: Tx, p: ShapedPage): Promise<ListResult<Row>> {
    const paging = pageWindow(p.q, p.where === undefined);
    const shapeKey = `${p.bound.shape()}|${p.shape}${paging.key}`;
    const run = Object.assign({}, p.bound.values, { limit: p.q.limit, offset: offsetOf(p.q) });
    // With no filter (the platform's whole list) the values change no plan: PostgreSQL may keep one.
    const opts = { named: p.where === undefined };

    const counts = p.keep ? countCacheOf(db) : undefined;
    const kept = p.keep && counts?.get(p.keep.key);
    const known = p.keep && kept && (kept.until === undefined || p.keep.now < kept.until) ? { total: kept.total, capped: kept.capped } : undefined;
    if (known) {
      // A page at or past the end of an exact total holds no row: answered without a query.
      if (!known.capped && run.offset >= known.total) return { list: [], ...known };
      const list = await this.alone.get(db, shapeKey, (db) => p.select(db, paging.apply, undefined) as Buildable<Row[]>, opts).execute(run);
      return { list, ...known };
    }

    const stamp = counts?.stamp();
    const rows = await this.withCount.get(db, shapeKey, (db) => p.select(db, paging.apply, cappedCountColumn(p.countFrom)) as Buildable<(Row & { total: number })[]>, opts).execute(run);
    const count = await countOfPage(db, rows, p.q, p.countFromInline);
    if (p.keep && counts && stamp !== undefined) counts.set(p.keep.key, p.keep.until ? Object.assign({}, count, { until: await p.keep.until() }) : count, stamp);
    return { list: rows.map(withoutTotal), ...count };
  }
}

/** A list row without the count its statement carries. */
export function withoutTotal<Row extends object>(row: Row & { total: number }): Row {
  const { total: _, ...rest } = row;
  return rest as unknown as Row;
}

/** The `total` column a page's query carries when it counts nothing (an export's batches). */
export const NO_TOTAL = sql<number>`0`;

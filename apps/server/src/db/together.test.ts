import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/harness';
import type { Database, Tx } from './client';
import { together } from './together';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase({ empty: true });
});
afterAll(async () => {
  await database?.close();
});

/** Three queries that note when each starts and ends; each sleeps so that overlapping would show. */
function traced(db: Tx, events: string[]) {
  return [1, 2, 3].map((n) => async () => {
    events.push(`start ${n}`);
    const result = await db.execute<{ n: number }>(sql`select ${n}::int as n, pg_sleep(0.05)`);
    events.push(`end ${n}`);
    return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
  });
}

describe('together', () => {
  it('runs the queries at once on the pool, answers in their order', async () => {
    const events: string[] = [];
    expect(await together(database.db, traced(database.db, events))).toEqual([1, 2, 3]);
    expect(events.slice(0, 3)).toEqual(['start 1', 'start 2', 'start 3']);
  });

  it('runs them one after another in a transaction (one connection), with nothing queued on it', async () => {
    const events: string[] = [];
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const out = await database.db.transaction((tx) => together(tx, traced(tx, events)));
      expect(out).toEqual([1, 2, 3]);
    } finally {
      process.off('warning', onWarning);
    }
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    expect(warnings).toEqual([]);
  });
});

import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Tx } from './client';

type Thunks = readonly (() => PromiseLike<unknown>)[];

/**
 * Runs independent queries: at once on the pool (each on a connection of its own), one after another in
 * a transaction. A transaction is one connection, where node-postgres only queues a query sent while
 * another runs (no time is saved) and warns that pg 9 will refuse it.
 * `const [a, b] = await together(db, [() => db.select()..., () => db.select()...])`.
 */
export async function together<T extends Thunks>(db: Tx, queries: readonly [...T]): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  type Out = { -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> };
  if (!(db instanceof PgTransaction)) return (await Promise.all(queries.map((q) => q()))) as Out;
  const out: unknown[] = [];
  for (const q of queries) out.push(await q());
  return out as Out;
}

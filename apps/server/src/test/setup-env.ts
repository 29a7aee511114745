import { afterAll, expect, inject } from 'vitest';
import { ShapedStatements } from '../db/shaped';

/**
 * Every server test file runs on the database server of the run (test/global-setup.ts): tests that start
 * server processes or open connections of their own find it in DATABASE_URL, as in production.
 */
process.env.DATABASE_URL = inject('testDatabase').url;

/** Lists whose SQL is built once per shape check, at every call, that their shape names all that varies (db/shaped.ts). */
ShapedStatements.verify = true;

/*
 * node-postgres queues a query sent on a connection that is still running others, and warns (once per
 * process) that pg 9 will refuse it: independent queries that may run in a transaction go through
 * db/together.ts. The warning fails the file that caused it (or, the warning being once per process, the
 * next file of the same worker to end).
 */
const watch = globalThis as { pgQueueWarnings?: string[] };
if (!watch.pgQueueWarnings) {
  const seen: string[] = [];
  watch.pgQueueWarnings = seen;
  process.on('warning', (w) => {
    if (/already executing a query/.test(w.message)) seen.push(w.message);
  });
}
afterAll(() => {
  expect(watch.pgQueueWarnings, 'queries sent at once on one connection (use db/together.ts)').toEqual([]);
});

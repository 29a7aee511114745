import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { formatMessage } from '@app/contract';
import { requestLang } from './lang';

/*
 * The bounded queue in front of the database. The pool has POOL_SIZE connections; queries beyond them
 * wait in the pool's queue. When that queue already holds `dbQueueLimit` queries, a new API request is
 * answered at once with HTTP 503, `Retry-After: 1` and the envelope code 503 ("busy, try again"), instead
 * of joining a queue it would time out in. A query that still waits 10 s for a connection (the pool's
 * connectionTimeoutMillis) ends its request the same way (envelope.ts, `isPoolTimeout`).
 */
export const RETRY_AFTER_SECONDS = 1;

export default fp(async function busyPlugin(app: FastifyInstance) {
  const pool = (app.db as unknown as { $client?: unknown }).$client;
  if (!(pool instanceof pg.Pool)) return;
  const limit = app.config.dbQueueLimit;
  app.addHook('onRequest', (request, reply, done) => {
    if (pool.waitingCount < limit || !/^\/(adminapi|deviceapi)\//.test(request.url)) return done();
    const lang = requestLang(request.headers['accept-language']);
    // Answered here: a callback hook that sends does not call done.
    reply
      .status(503)
      .header('retry-after', String(RETRY_AFTER_SECONDS))
      .send({ code: 503, datas: { error: formatMessage('busy', lang) } });
  });
});

/** node-postgres' error for a query that waited connectionTimeoutMillis for a pooled connection. */
export function isPoolTimeout(err: unknown): boolean {
  return err instanceof Error && /timeout exceeded when trying to connect/i.test(err.message);
}

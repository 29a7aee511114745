import type { PoolClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { type Database, POOL_SIZE } from '../db/client';
import { openTestDatabase } from '../test/harness';

/** The bounded queue (http/busy.ts): past `dbQueueLimit` waiting queries, 503 at once with Retry-After. */
describe('a full database queue', () => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase();
    app = await buildApp({ ...loadConfig({}), logLevel: 'silent', webDist: undefined, dbQueueLimit: 2 }, database.db);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const publicParams = (lang = 'en') => app.inject({ method: 'GET', url: '/adminapi/params/public', headers: { 'accept-language': lang } });

  it('answers 503 with Retry-After once the queue holds the limit, and the queued requests still finish', async () => {
    // Every pooled connection busy: what comes next waits in the pool's queue.
    const held: PoolClient[] = await Promise.all(Array.from({ length: POOL_SIZE }, () => database.pool.connect()));
    let released = false;
    try {
      const queued = [publicParams(), publicParams()];
      for (let i = 0; i < 200 && database.pool.waitingCount < 2; i++) await new Promise((r) => setTimeout(r, 5));
      expect(database.pool.waitingCount).toBe(2);

      const refused = await publicParams('zh');
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json()).toEqual({ code: 503, datas: { error: '服务器繁忙，请稍后再试' } });
      // Static and health answers need no database and are not refused.
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

      for (const c of held) c.release();
      released = true;
      for (const res of await Promise.all(queued)) expect(res.json()).toMatchObject({ code: 200 });
      expect((await publicParams()).json()).toMatchObject({ code: 200 });
    } finally {
      if (!released) for (const c of held) c.release();
    }
  });
});

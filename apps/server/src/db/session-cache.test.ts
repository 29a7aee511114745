import { sql } from 'drizzle-orm';
import { setImmediate as yieldLoop } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createTestApp, type TestApp } from '../test/harness';
import { openPostgres, sessionCacheWanted } from './client';
import { countQueries } from '../test/query-counter';
import { AUTH_LISTENER, NotifiedCache, sessionCacheOf } from './session-cache';
import { countCacheOf } from './count-cache';

describe('NotifiedCache', () => {
  const live = () => {
    const cache = new NotifiedCache<string>(1_000, 3);
    cache.setLive(true);
    return cache;
  };

  it('answers what was set until its time is up', () => {
    const cache = live();
    cache.set('a', 'row a', cache.stamp(), 10_000);
    expect(cache.get('a', 10_999)).toBe('row a');
    expect(cache.get('a', 11_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps no row read across a flush, and a notice flushes once per transaction', () => {
    const cache = live();
    const stamp = cache.stamp();
    cache.notice('100');
    cache.set('a', 'read before the change', stamp);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', 'read after', cache.stamp());
    // The same transaction's notice heard on another connection: no second flush.
    cache.notice('100');
    expect(cache.get('a')).toBe('read after');
    cache.notice('101');
    expect(cache.get('a')).toBeUndefined();
  });

  it('is off (answers nothing, keeps nothing) until its listener is live, and starts empty each time', () => {
    const cache = new NotifiedCache<string>();
    cache.set('a', 'row', cache.stamp());
    expect(cache.get('a')).toBeUndefined();
    cache.setLive(true);
    cache.set('a', 'row', cache.stamp());
    expect(cache.get('a')).toBe('row');
    cache.setLive(false);
    expect(cache.get('a')).toBeUndefined();
    cache.setLive(true);
    expect(cache.get('a')).toBeUndefined();
  });

  it('holds at most maxEntries, dropping the oldest', () => {
    const cache = live();
    for (const k of ['a', 'b', 'c', 'd']) cache.set(k, k, cache.stamp());
    expect(cache.size).toBe(3);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('d')).toBe('d');
  });
});

describe('the session cache on a live database', () => {
  let t: TestApp;
  let cache: NotifiedCache<unknown>;
  let counter: ReturnType<typeof countQueries>;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp();
    cache = sessionCacheOf(t.db)!;
    counter = countQueries(t.db);
    url = (t.db as unknown as { $client: { options: { connectionString: string } } }).$client.options.connectionString;
  }, 60_000);
  afterAll(() => t?.close());

  const noop = (key: string) => t.call('GET', '/institution/get_institution_info', { key });
  /** A call answered from memory: no statement reached the database. */
  const answeredFromMemory = async (key: string) => {
    let code = 0;
    const queries = await counter.during(async () => {
      code = (await noop(key)).code;
    });
    return code === 200 && queries.length === 0;
  };

  it("another process's change (its own connection, as psql or a second server) ends a cached session once its notice arrives", async () => {
    const { key } = await t.login('agent2', 'institution');
    expect((await noop(key)).code).toBe(200);
    expect(await answeredFromMemory(key)).toBe(true);
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query('update institutions set status = 0 where username = $1', ['agent2']);
      // Delivered a moment after the commit, on the listener's connection: polled, not slept on.
      await expect.poll(async () => (await noop(key)).code, { timeout: 5_000, interval: 5 }).toBe(999);
    } finally {
      await other.query('update institutions set status = 1 where username = $1', ['agent2']);
      await other.end();
    }
  });

  it('a write through this process is seen by the very next call, with no wait (its notice arrives before the commit returns)', async () => {
    const { key } = await t.login('clinic3', 'institution');
    expect((await noop(key)).code).toBe(200);
    expect(await answeredFromMemory(key)).toBe(true);
    // clinic3's one session (this file's database signs it in nowhere else).
    await t.db.execute(sql`update sessions set expires_at = now() - interval '1 second' where subject_kind = 'institution' and subject_id = (select id from institutions where username = 'clinic3')`);
    expect((await noop(key)).code).toBe(999);
  });

  it('columns no access check reads (last seen, last sign-in) do not flush it', async () => {
    const { key } = await t.login('admin');
    expect((await t.call('GET', '/member/get_member', { key })).code).toBe(200);
    expect(cache.size).toBeGreaterThan(0);
    const before = cache.stamp();
    await t.db.execute(sql`update sessions set last_seen_at = now() where subject_kind = 'admin'`);
    await t.db.execute(sql`update admin_users set last_login_at = now() where username = 'admin'`);
    expect(cache.stamp()).toBe(before);
    await t.db.execute(sql`update admin_users set status = status where username = 'admin'`);
    expect(cache.stamp()).toBeGreaterThan(before);
  });

  it('is off while its listener is lost (every call reads the database) and on again once it is back', async () => {
    const { key } = await t.login('agent2', 'institution');
    expect((await noop(key)).code).toBe(200);
    expect(await answeredFromMemory(key)).toBe(true);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const ended = await admin.query('select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = $1 and datname = current_database()', [AUTH_LISTENER]);
      expect(ended.rows).toEqual([{ ok: true }]);
    } finally {
      await admin.end();
    }
    await expect.poll(() => cache.enabled, { timeout: 5_000, interval: 5 }).toBe(false);
    expect(await answeredFromMemory(key)).toBe(false);
    expect((await noop(key)).code).toBe(200);
    await expect.poll(() => cache.enabled, { timeout: 10_000, interval: 20 }).toBe(true);
    expect((await noop(key)).code).toBe(200);
    expect(await answeredFromMemory(key)).toBe(true);
  });

  it('under concurrent calls, no call that starts after a sign-out has answered is let in (multi-connection database)', async () => {
    const { key } = await t.login('agent2', 'institution');
    expect((await noop(key)).code).toBe(200);
    const calls: { start: number; code: number }[] = [];
    let signedOutAt = Number.POSITIVE_INFINITY;
    let stop = false;
    const worker = async () => {
      while (!stop) {
        const start = performance.now();
        const { code } = await noop(key);
        calls.push({ start, code });
        // Calls answered from memory never wait on I/O: yield, or the timers and the sign-out never run.
        await yieldLoop();
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    // Let the workers run on the warm cache for a while, then sign out among them.
    await expect.poll(() => calls.filter((c) => c.code === 200).length, { timeout: 10_000, interval: 5 }).toBeGreaterThan(50);
    expect((await t.call('POST', '/login/logout', { key })).code).toBe(200);
    signedOutAt = performance.now();
    await expect.poll(() => calls.filter((c) => c.start > signedOutAt).length, { timeout: 10_000, interval: 5 }).toBeGreaterThan(50);
    stop = true;
    await Promise.all(workers);
    const after = calls.filter((c) => c.start > signedOutAt);
    expect(after.filter((c) => c.code !== 999)).toEqual([]);
    expect(calls.filter((c) => c.start < signedOutAt && c.code === 200).length).toBeGreaterThan(50);
  });
});

describe('SESSION_CACHE', () => {
  it('unset: on for the embedded database, off for DATABASE_URL; on, 1 or true and off, 0 or false decide; anything else stops the start with the name', () => {
    expect(loadConfig({}).sessionCache).toBeUndefined();
    expect(sessionCacheWanted({ sessionCache: undefined })).toBe(true);
    expect(sessionCacheWanted({ databaseUrl: 'postgres://db/app', sessionCache: undefined })).toBe(false);
    expect(sessionCacheWanted({ databaseUrl: 'postgres://db/app', sessionCache: true })).toBe(true);
    expect(sessionCacheWanted({ sessionCache: false })).toBe(false);
    for (const v of ['off', '0', 'false', 'OFF']) expect(loadConfig({ SESSION_CACHE: v }).sessionCache).toBe(false);
    for (const v of ['on', '1', 'true']) expect(loadConfig({ SESSION_CACHE: v }).sessionCache).toBe(true);
    expect(() => loadConfig({ SESSION_CACHE: 'sometimes' })).toThrow(/SESSION_CACHE="sometimes" is not allowed: on or off/);
  });

  it('off: no cache and no listening connection', async () => {
    const t = await createTestApp();
    try {
      const url = (t.db as unknown as { $client: { options: { connectionString: string } } }).$client.options.connectionString;
      const off = await openPostgres(url, { sessionCache: false });
      try {
        expect(sessionCacheOf(off.db)).toBeUndefined();
        expect(countCacheOf(off.db)).toBeUndefined();
        const channels = await off.pool.query('select pg_listening_channels() as c');
        expect(channels.rows).toEqual([]);
      } finally {
        await off.close();
      }
      // The harness's database (on) listens on its pooled connections.
      const on = await (t.db as unknown as { $client: pg.Pool }).$client.query('select pg_listening_channels() as c order by 1');
      expect(on.rows).toEqual([{ c: 'auth_changed' }, { c: 'list_counts_changed' }]);
    } finally {
      await t.close();
    }
  });
});

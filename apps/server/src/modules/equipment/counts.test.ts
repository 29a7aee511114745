import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { DeviceRow } from '@app/contract';
import { createTestApp, type TestApp } from '../../test/harness';
import { countQueries } from '../../test/query-counter';
import { countCacheOf } from '../../db/count-cache';
import { readParam } from '../../lib/params';

/**
 * The device list's count cache (db/count-cache.ts): a total is counted once per filter set and kept until
 * a write it could depend on notifies (migration 0015). Each check compares the list's total with a count
 * of the same rows made here in SQL.
 */
let t: TestApp;
let counter: ReturnType<typeof countQueries>;
let keys: Record<'admin' | 'agent1' | 'clinic3', string>;
let ids: Record<string, number>;
let url: string;

beforeAll(async () => {
  t = await createTestApp();
  counter = countQueries(t.db);
  keys = {
    admin: (await t.login('admin')).key,
    agent1: (await t.login('agent1', 'institution')).key,
    clinic3: (await t.login('clinic3', 'institution')).key,
  };
  const rows = ((await t.db.execute(sql`select id, username from institutions`)) as unknown as { rows: { id: number; username: string }[] }).rows;
  ids = Object.fromEntries(rows.map((r) => [r.username, r.id]));
  url = (t.db as unknown as { $client: { options: { connectionString: string } } }).$client.options.connectionString;
}, 60_000);
afterAll(() => t?.close());

type Caller = keyof typeof keys;
/** The rows of a statement run here. */
const rowsOf = async <R>(query: ReturnType<typeof sql>) => ((await t.db.execute(query)) as unknown as { rows: R[] }).rows;
/** A statement of the list's own that counts devices (not this file's SQL). */
const counts = (q: string) => /count\(\*\)/.test(q) && /"devices"/.test(q);
const list = async (caller: Caller, query: Record<string, unknown> = {}) => {
  const res = await t.call<{ list: DeviceRow[]; total: number; capped: boolean }>('GET', '/equipment/list', { key: keys[caller], query: { limit: 5, ...query } });
  expect(res.code, res.raw).toBe(200);
  return res.datas;
};

/** The devices a caller sees under a few filters, counted here in SQL (no cap: the test data is small). */
async function expected(caller: Caller, filter: { keyword?: string; status?: string; institution?: string }): Promise<number> {
  const scope = caller === 'admin' ? sql`true` : sql`institution_id in (select id from institutions where path like (select path from institutions where username = ${caller}) || '%')`;
  const kw = filter.keyword ? sql`lower(serial || ' ' || name || ' ' || model) like ${`%${filter.keyword}%`}` : sql`true`;
  const status = filter.status ? sql`status = ${filter.status}` : sql`true`;
  const institution = filter.institution ? sql`institution_id = ${ids[filter.institution]!}` : sql`true`;
  const [row] = await rowsOf<{ n: number }>(sql`select count(*)::int as n from devices where ${scope} and ${kw} and ${status} and ${institution}`);
  return row!.n;
}

/** Filter sets the checks walk: each caller's whole list and a few filters. */
const FILTERS: { caller: Caller; filter: { keyword?: string; status?: string; institution?: string } }[] = [
  { caller: 'admin', filter: {} },
  { caller: 'admin', filter: { status: 'active' } },
  { caller: 'admin', filter: { keyword: 'zz-count' } },
  { caller: 'admin', filter: { institution: 'clinic3' } },
  { caller: 'agent1', filter: {} },
  { caller: 'agent1', filter: { status: 'disabled' } },
  { caller: 'clinic3', filter: {} },
];
const queryOf = (f: (typeof FILTERS)[number]['filter']) => ({
  ...(f.keyword ? { keyword: f.keyword } : {}),
  ...(f.status ? { status: f.status } : {}),
  ...(f.institution ? { institution_id: ids[f.institution] } : {}),
});

/** Every filter set's total, read twice (the second from the cache once it is warm), against SQL. */
async function expectTotalsExact(label: string) {
  for (const { caller, filter } of FILTERS) {
    const want = await expected(caller, filter);
    for (const page of [1, 2]) expect((await list(caller, { ...queryOf(filter), page })).total, `${label}: ${caller} ${JSON.stringify(filter)} page ${page}`).toBe(want);
  }
}

const newSerial = (() => {
  let n = 0;
  return () => `ZZ-COUNT-${process.pid}-${++n}`;
})();

describe('the device list count cache', () => {
  it('counts a filter set once: its other pages and orders are answered by the page statement alone, with the same total', async () => {
    const first = await counter.during(() => list('agent1', { status: 'active', page: 1 }));
    expect(first.filter(counts)).toHaveLength(1);
    const again = await counter.during(async () => {
      const a = await list('agent1', { status: 'active', page: 2 });
      const b = await list('agent1', { status: 'active', sort: 'serial', order: 'descend' });
      expect(a.total).toBe(await expected('agent1', { status: 'active' }));
      expect(b.total).toBe(a.total);
    });
    expect(again.filter((q) => /from "devices"/.test(q))).toHaveLength(2);
    expect(again.filter(counts)).toEqual([]);
    // Another caller's or another filter's total is its own.
    const other = await counter.during(() => list('admin', { status: 'active', page: 2 }));
    expect(other.filter(counts)).toHaveLength(1);
  });

  it('a page at or past the end of a kept total, and a search that matched nothing, answer without a query', async () => {
    const total = (await list('clinic3', { status: 'active' })).total;
    expect(total).toBeGreaterThan(0);
    const last = Math.ceil(total / 5);
    const past = await counter.during(async () => {
      const a = await list('clinic3', { status: 'active', page: last + 1 });
      expect(a).toEqual({ list: [], total, capped: false });
    });
    expect(past.filter((q) => /"devices"/.test(q))).toEqual([]);
    // The last page is still read.
    const lastPage = await counter.during(async () => expect((await list('clinic3', { status: 'active', page: last })).list.length).toBe(total - (last - 1) * 5));
    expect(lastPage.filter((q) => /"devices"/.test(q))).toHaveLength(1);
    expect((await list('admin', { keyword: 'no-such-device-anywhere' })).total).toBe(0);
    const none = await counter.during(async () => expect(await list('admin', { keyword: 'no-such-device-anywhere', sort: 'name', order: 'ascend' })).toEqual({ list: [], total: 0, capped: false }));
    expect(none.filter((q) => /"devices"/.test(q))).toEqual([]);
    // Once a device matches, the search reads again.
    const serial = newSerial();
    await t.db.execute(sql`insert into devices (serial, model, name) values (${serial}, 'M', 'no-such-device-anywhere')`);
    try {
      expect((await list('admin', { keyword: 'no-such-device-anywhere' })).list.map((d) => d.serial)).toEqual([serial]);
    } finally {
      await t.db.execute(sql`delete from devices where serial = ${serial}`);
    }
  });

  it('every write a total depends on is seen by the very next list call', async () => {
    await expectTotalsExact('before');
    const serial = newSerial();
    // Added to stock, then under clinic3, renamed into the keyword, activated, disabled, deleted.
    await t.db.execute(sql`insert into devices (serial, model, name) values (${serial}, 'M', 'plain')`);
    await expectTotalsExact('added');
    await t.db.execute(sql`update devices set institution_id = ${ids.clinic3!} where serial = ${serial}`);
    await expectTotalsExact('distributed');
    await t.db.execute(sql`update devices set name = 'zz-count twin' where serial = ${serial}`);
    await expectTotalsExact('renamed');
    await t.db.execute(sql`update devices set status = 'active', expires_at = now() + interval '1 year' where serial = ${serial}`);
    await expectTotalsExact('activated');
    await t.db.execute(sql`update devices set status = 'disabled' where serial = ${serial}`);
    await expectTotalsExact('disabled');
    await t.db.execute(sql`delete from devices where serial = ${serial}`);
    await expectTotalsExact('deleted');
  });

  it('moving an institution to another parent moves its devices out of the old subtree totals', async () => {
    const agent1Before = await list('agent1');
    const clinic3Devices = await expected('clinic3', {});
    expect(clinic3Devices).toBeGreaterThan(0);
    // clinic3 (under agent2 < agent1) moved under agent1b, then back; paths written as the institutions module does.
    const move = (parent: string) =>
      t.db.execute(sql`update institutions set parent_id = p.id, path = p.path || ${ids.clinic3!}::text || '/' from institutions p where p.username = ${parent} and institutions.username = 'clinic3'`);
    const rows = await rowsOf<{ path: string }>(sql`select path from institutions where username = 'clinic3'`);
    try {
      await move('agent1b');
      expect((await list('agent1')).total).toBe(agent1Before.total - clinic3Devices);
      await expectTotalsExact('moved');
    } finally {
      await t.db.execute(sql`update institutions set parent_id = (select id from institutions where username = 'agent2'), path = ${rows[0]!.path} where username = 'clinic3'`);
    }
    expect((await list('agent1')).total).toBe(agent1Before.total);
  });

  it('columns no filter reads (what the device API writes at every call) keep the cached totals', async () => {
    const cache = countCacheOf(t.db)!;
    expect(cache.enabled).toBe(true);
    await list('admin');
    const before = cache.stamp();
    await t.db.execute(sql`update devices set last_seen_at = now(), total_inspections = total_inspections + 1, remaining_uses = remaining_uses where id in (select id from devices limit 3)`);
    expect(cache.stamp()).toBe(before);
    await t.db.execute(sql`update devices set remark = 'x' where false`);
    expect(cache.stamp()).toBe(before);
    await t.db.execute(sql`update devices set status = status where false`);
    expect(cache.stamp()).toBeGreaterThan(before);
  });

  it('the "expiring" filter: its total is kept until the clock moves a device into or out of the window, then counted again', async () => {
    const days = await readParam(t.db, 'expiring_days');
    const t0 = Date.now();
    const leaving = newSerial();
    const entering = newSerial();
    // The devices the list counts at the (faked) clock of the server, which runs in this process.
    const inWindow = async (at: number) =>
      (
        await rowsOf<{ n: number }>(sql`select count(*)::int as n from devices where expires_at >= ${new Date(at).toISOString()} and expires_at <= ${new Date(at + days * 86_400_000).toISOString()}`)
      )[0]!.n;
    vi.useFakeTimers({ toFake: ['Date'], now: t0 });
    try {
      // One leaves the window 20 s from now, the other enters it 40 s from now.
      await t.db.execute(sql`insert into devices (serial, model, name, expires_at) values
        (${leaving}, 'M', 'expiring', ${new Date(t0 + 20_000).toISOString()}),
        (${entering}, 'M', 'expiring', ${new Date(t0 + days * 86_400_000 + 40_000).toISOString()})`);
      const first = await counter.during(async () => expect((await list('admin', { expiring: 1 })).total).toBe(await inWindow(t0)));
      expect(first.filter(counts)).toHaveLength(1);
      vi.setSystemTime(t0 + 10_000);
      const kept = await counter.during(async () => expect((await list('admin', { expiring: 1, sort: 'serial', order: 'ascend' })).total).toBe(await inWindow(t0 + 10_000)));
      expect(kept.filter(counts)).toEqual([]);
      // 30 s: the first has left.
      vi.setSystemTime(t0 + 30_000);
      const left = await counter.during(async () => expect((await list('admin', { expiring: 1 })).total).toBe(await inWindow(t0 + 30_000)));
      expect(left.filter(counts)).toHaveLength(1);
      expect(await inWindow(t0 + 30_000)).toBe((await inWindow(t0)) - 1);
      // 50 s: the second has come in; then kept again.
      vi.setSystemTime(t0 + 50_000);
      const entered = await counter.during(async () => expect((await list('admin', { expiring: 1 })).total).toBe(await inWindow(t0 + 50_000)));
      expect(entered.filter(counts)).toHaveLength(1);
      expect(await inWindow(t0 + 50_000)).toBe(await inWindow(t0));
      const again = await counter.during(async () => expect((await list('admin', { expiring: 1, page: 2 })).total).toBe(await inWindow(t0 + 50_000)));
      expect(again.filter(counts)).toEqual([]);
    } finally {
      vi.useRealTimers();
      await t.db.execute(sql`delete from devices where serial in (${leaving}, ${entering})`);
    }
  });

  it("another process's write is seen once its notice arrives", async () => {
    const before = (await list('admin', { status: 'inactive' })).total;
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    const serial = newSerial();
    try {
      await other.query(`insert into devices (serial, model, name) values ($1, 'M', 'other process')`, [serial]);
      // Delivered a moment after the commit, on the listener's connection: polled, not slept on.
      await expect.poll(async () => (await list('admin', { status: 'inactive' })).total, { timeout: 5_000, interval: 5 }).toBe(before + 1);
    } finally {
      await other.query('delete from devices where serial = $1', [serial]);
      await other.end();
    }
    await expect.poll(async () => (await list('admin', { status: 'inactive' })).total, { timeout: 5_000, interval: 5 }).toBe(before);
  });

  it('concurrent writes and list calls: once the writes have returned, every total is exact (no count read before a write is kept after it)', async () => {
    const serials = Array.from({ length: 24 }, newSerial);
    // Each write on its own pooled connection, while list calls of every filter set count and read in parallel.
    const writes = serials.map(async (serial, i) => {
      await t.db.execute(
        sql`insert into devices (serial, model, name, institution_id, status) values (${serial}, 'M', 'zz-count burst', ${i % 2 ? ids.clinic3! : null}, ${i % 3 ? 'inactive' : 'active'})`,
      );
    });
    const reads = Array.from({ length: 3 }, () => Promise.all(FILTERS.map(({ caller, filter }) => list(caller, queryOf(filter)))));
    await Promise.all([...writes, ...reads]);
    try {
      await expectTotalsExact('after the burst');
    } finally {
      await t.db.execute(sql`delete from devices where serial like 'ZZ-COUNT-%'`);
    }
    await expectTotalsExact('after the cleanup');
  });
});

describe("the platform's first page", () => {
  it('is sent with its page size written in and no OFFSET (one plan kept), each size its own statement; later pages and filtered lists keep parameters', async () => {
    const ordered = (await list('admin', { limit: 30, sort: 'serial', order: 'ascend' })).list.map((d) => d.serial);
    expect(ordered.length).toBeGreaterThan(10);
    const statementOf = (seen: string[]) => seen.filter((q) => /from "devices"/.test(q) && !counts(q));
    const firstFive = await counter.during(async () => expect((await list('admin', { limit: 5, sort: 'serial', order: 'ascend' })).list.map((d) => d.serial)).toEqual(ordered.slice(0, 5)));
    // The count is cached from the first call above: the page is the one statement.
    expect(statementOf(firstFive)).toHaveLength(1);
    expect(statementOf(firstFive)[0]).toMatch(/ limit 5$/);
    const firstSeven = await counter.during(async () => expect((await list('admin', { limit: 7, sort: 'serial', order: 'ascend' })).list.map((d) => d.serial)).toEqual(ordered.slice(0, 7)));
    expect(statementOf(firstSeven)[0]).toMatch(/ limit 7$/);
    const second = await counter.during(async () => expect((await list('admin', { limit: 5, page: 2, sort: 'serial', order: 'ascend' })).list.map((d) => d.serial)).toEqual(ordered.slice(5, 10)));
    expect(statementOf(second)[0]).toMatch(/ limit \$\d+ offset \$\d+$/);
    const filtered = await counter.during(() => list('admin', { status: 'active' }));
    expect(filtered.filter((q) => /from "devices"/.test(q)).every((q) => / limit \$\d+ offset \$\d+$/.test(q))).toBe(true);
  });
});

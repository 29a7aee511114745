import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCacheOf } from '../db/session-cache';
import { hashKey } from '../lib/crypto';
import { createTestApp, type TestApp } from '../test/harness';
import { countQueries } from '../test/query-counter';

/** Statements reading what the access check needs: sessions, accounts, roles, menus, parameters, counters. */
const ACCESS_TABLES = /"(sessions|admin_users|roles|role_menus|menus|system_params|cache_versions)"/;
const touches = (q: string, table: string) => q.includes(`"${table}"`);

describe('queries per request', () => {
  let t: TestApp;
  let counter: ReturnType<typeof countQueries>;
  let admin: string;
  let auditor: string;
  let inst: string;

  beforeAll(async () => {
    t = await createTestApp();
    counter = countQueries(t.db);
    admin = (await t.login('admin')).key;
    auditor = (await t.login('auditor')).key;
    inst = (await t.login('agent2', 'institution')).key;
    // Warm: the first request of a process loads the grants and parameters.
    for (const key of [admin, auditor]) await t.call('GET', '/member/get_member', { key });
    await t.call('GET', '/institution/get_institution_info', { key: inst });
  }, 60_000);
  afterAll(() => t?.close());

  /** Empties the session cache: the next call of each key reads its session from the database. */
  const cold = () => sessionCacheOf(t.db)!.flush();

  it('a signed-in no-op (get_institution_info): no query once its session is cached; one when not (the access check, which also reads what it answers)', async () => {
    expect(sessionCacheOf(t.db)?.enabled).toBe(true);
    for (const warm of [false, true]) {
      if (!warm) cold();
      let answer: Record<string, unknown> = {};
      const queries = await counter.during(async () => {
        const res = await t.call('GET', '/institution/get_institution_info', { key: inst });
        expect(res.code).toBe(200);
        answer = res.datas as Record<string, unknown>;
      });
      if (warm) expect(queries).toEqual([]);
      else {
        expect(queries).toHaveLength(1);
        expect(queries[0]).toMatch(/"sessions"/);
        expect(queries[0]).toMatch(/"cache_versions"/);
      }
      expect(answer).toMatchObject({ username: 'agent2', name: expect.any(String), institution_grade: 2 });
      expect(String(answer.name).length).toBeGreaterThan(0);
    }
  });

  it('the device list: one statement for the page and its capped count, plus the access check when the session is not cached (none of roles, menus or parameters)', async () => {
    for (const key of [admin, auditor, inst]) {
      for (const warm of [false, true]) {
        if (!warm) cold();
        const queries = await counter.during(async () => expect((await t.call('GET', '/equipment/list', { key, query: { limit: 10 } })).code).toBe(200));
        const access = queries.filter((q) => ACCESS_TABLES.test(q));
        expect(access).toHaveLength(warm ? 0 : 1);
        if (!warm) expect(access[0]).toMatch(/"sessions"/);
        for (const table of ['roles', 'role_menus', 'menus', 'system_params']) expect(queries.filter((q) => touches(q, table))).toEqual([]);
        expect(queries).toHaveLength(warm ? 1 : 2);
      }
    }
  });

  it('get_member: the user, plus the access check when the session is not cached (roles and menus come from the grants cache)', async () => {
    for (const key of [admin, auditor]) {
      for (const warm of [false, true]) {
        if (!warm) cold();
        const queries = await counter.during(async () => expect((await t.call('GET', '/member/get_member', { key })).code).toBe(200));
        expect(queries.filter((q) => /"(sessions|cache_versions)"/.test(q))).toHaveLength(warm ? 0 : 1);
        for (const table of ['roles', 'role_menus', 'menus', 'system_params']) expect(queries.filter((q) => touches(q, table))).toEqual([]);
        expect(queries).toHaveLength(warm ? 1 : 2);
      }
    }
  });

  it('a read of health data (inspection detail, report, result): its own reads, then one insert of its audit row after them, no transaction (docs/decisions.md "Access audit")', async () => {
    const { id } = ((await t.db.execute(sql`select id from inspections order by id limit 1`)) as unknown as { rows: { id: number }[] }).rows[0]!;
    for (const path of ['/inspection/detail', '/inspection/report', '/inspection/result']) {
      await t.call('GET', path, { key: admin, query: { id } });
      const queries = await counter.during(async () => expect((await t.call('GET', path, { key: admin, query: { id } })).code).toBe(200));
      const inserts = queries.filter((q) => /^insert into "audit_log"/i.test(q));
      expect(inserts, path).toHaveLength(1);
      // The row is written once the answer is computed: the last statement.
      expect(queries.at(-1), path).toMatch(/^insert into "audit_log"/i);
      expect(
        queries.filter((q) => /^(begin|commit)/i.test(q)),
        path,
      ).toEqual([]);
      expect(
        queries.filter((q) => ACCESS_TABLES.test(q)),
        path,
      ).toEqual([]);
    }
  });

  it('a role edit is seen by the very next call, and the reload happens once', async () => {
    const member = (await t.call('GET', '/member/get_member', { key: auditor })).datas;
    const roleId = member.role.id as number;
    const detail = (await t.call('GET', '/role/detail', { key: admin, query: { id: roleId } })).datas;
    const tree = (await t.call('GET', '/menu/tree', { key: admin })).datas;
    const find = (nodes: any[], sign: string): any => nodes.map((n) => (n.sign === sign ? n : find(n.children ?? [], sign))).find(Boolean);
    const deviceList = find(tree, 'DeviceList');
    // The page with its buttons (a granted button would keep its page: the role editor grants the parents of what it holds).
    const dropped = [deviceList.id, ...(deviceList.children ?? []).map((c: { id: number }) => c.id)];
    expect((await t.call('POST', '/role/edit', { key: admin, body: { id: roleId, menu_ids: detail.menu_ids.filter((id: number) => !dropped.includes(id)) } })).code).toBe(200);
    const refused = await counter.during(async () => expect((await t.call('GET', '/equipment/list', { key: auditor, query: { limit: 5 } })).code).toBe(400));
    // The joined query, then the grants reloaded (roles, menus, role_menus) because the counter moved.
    expect(refused.some((q) => touches(q, 'roles'))).toBe(true);
    // Then both are in memory again: the session and the grants.
    const again = await counter.during(() => t.call('GET', '/equipment/list', { key: auditor, query: { limit: 5 } }));
    expect(again.filter((q) => ACCESS_TABLES.test(q))).toEqual([]);
    // get_member's tree follows too.
    const signs = JSON.stringify((await t.call('GET', '/member/get_member', { key: auditor })).datas.role_data);
    expect(signs).not.toContain('"DeviceList"');
    expect((await t.call('POST', '/role/edit', { key: admin, body: { id: roleId, menu_ids: detail.menu_ids } })).code).toBe(200);
    expect((await t.call('GET', '/equipment/list', { key: auditor, query: { limit: 5 } })).code).toBe(200);
  });

  it('a change written by another process (plain SQL on the tables) is seen by the very next call', async () => {
    const roleId = (await t.call('GET', '/member/get_member', { key: auditor })).datas.role.id as number;
    expect((await t.call('GET', '/equipment/list', { key: auditor, query: { limit: 5 } })).code).toBe(200);
    await t.db.execute(sql`update roles set status = false where id = ${roleId}`);
    expect((await t.call('GET', '/equipment/list', { key: auditor, query: { limit: 5 } })).code).toBe(400);
    await t.db.execute(sql`update roles set status = true where id = ${roleId}`);
    expect((await t.call('GET', '/equipment/list', { key: auditor, query: { limit: 5 } })).code).toBe(200);
  });

  it('a parameters save is seen by the very next call (idle time), and so is one written by another process', async () => {
    const { key } = await t.login('auditor');
    // 30 minutes idle: alive under the default 120.
    await t.db.execute(sql`update sessions set last_seen_at = now() - interval '30 minutes' where key_hash = ${hashKey(key)}`);
    expect((await t.call('GET', '/member/get_member', { key })).code).toBe(200);
    await t.db.execute(sql`update sessions set last_seen_at = now() - interval '30 minutes' where key_hash = ${hashKey(key)}`);
    expect((await t.call('POST', '/params/save', { key: admin, body: { values: { session_idle_minutes: 20 } } })).code).toBe(200);
    expect((await t.call('GET', '/member/get_member', { key })).code).toBe(999);
    // Another process puts it back: the next session idle for 30 minutes lives again.
    await t.db.execute(sql`update system_params set value = '120'::jsonb where key = 'session_idle_minutes'`);
    const second = (await t.login('auditor')).key;
    await t.db.execute(sql`update sessions set last_seen_at = now() - interval '30 minutes' where key_hash = ${hashKey(second)}`);
    expect((await t.call('GET', '/member/get_member', { key: second })).code).toBe(200);
  });

  it('the device list reads expiring_days from the cached parameters, and follows a save at once', async () => {
    const expiring = async () => (await t.call('GET', '/equipment/list', { key: admin, query: { limit: 1, expiring: 1 } })).datas.total as number;
    const inWindow = async (days: number) => {
      const result = (await t.db.execute(
        sql`select count(*)::int as n from devices where expires_at is not null and expires_at >= now() and expires_at <= now() + make_interval(days => ${days})`,
      )) as unknown as { rows: { n: number }[] };
      const [row] = result.rows;
      return row!.n;
    };
    expect(await expiring()).toBe(await inWindow(30));
    expect((await t.call('POST', '/params/save', { key: admin, body: { values: { expiring_days: 365 } } })).code).toBe(200);
    expect(await expiring()).toBe(await inWindow(365));
    expect(await inWindow(365)).toBeGreaterThan(await inWindow(30));
  });
});

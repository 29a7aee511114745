import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { COUNT_CAP, type DeviceRow, equipmentListQuery } from '@app/contract';
import { createTestApp, platformAuth, preparedBy, type TestApp } from '../../test/harness';
import { list as listService } from './service';
import { adminUsers, devices, institutions, roles } from '../../db/schema';

let t: TestApp;
let ids: Record<string, number>;
beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db.select({ id: institutions.id, username: institutions.username }).from(institutions);
  ids = Object.fromEntries(rows.map((r) => [r.username, r.id]));
});
afterAll(async () => {
  await t?.close();
});

async function list(username: string, kind: 'admin' | 'institution', query: Record<string, unknown> = {}) {
  const { key } = await t.login(username, kind);
  return t.call<{ list: DeviceRow[]; total: number; capped: boolean }>('GET', '/equipment/list', { key, query: { limit: 200, ...query } });
}

describe('device list scope', () => {
  it('admins see every device, stock included', async () => {
    const res = await list('admin', 'admin');
    const all = await t.db.select().from(devices);
    expect(res.code).toBe(200);
    expect(res.datas.total).toBe(all.length);
    expect(res.datas.capped).toBe(false);
    expect(res.datas.list.some((d) => d.institution_id === null)).toBe(true);
  });

  it('an institution sees its own subtree only', async () => {
    const agent2 = await list('agent2', 'institution');
    const allowed = new Set([ids.agent2, ids.clinic3, ids.overdue3]);
    expect(agent2.datas.total).toBeGreaterThan(0);
    expect(agent2.datas.list.every((d) => allowed.has(d.institution_id!))).toBe(true);
    const expected = (await t.db.select().from(devices)).filter((d) => allowed.has(d.institutionId!)).length;
    expect(agent2.datas.total).toBe(expected);

    const clinic = await list('clinic3', 'institution');
    expect(clinic.datas.list.every((d) => d.institution_id === ids.clinic3)).toBe(true);
    const other = await list('agent1b', 'institution');
    expect(other.datas.list.some((d) => allowed.has(d.institution_id!))).toBe(false);
  });

  it('filtering on an institution outside the caller subtree is refused', async () => {
    const res = await list('clinic3b', 'institution', { institution_id: ids.clinic3 });
    expect(res.code).toBe(400);
    const parent = await list('clinic3', 'institution', { institution_id: ids.agent2 });
    expect(parent.code).toBe(400);
    const own = await list('agent1', 'institution', { institution_id: ids.clinic3 });
    expect(own.code).toBe(200);
    expect(own.datas.list.every((d) => d.institution_id === ids.clinic3)).toBe(true);
  });

  it('an admin role without the device page is refused; the auditor role has it', async () => {
    expect((await list('auditor', 'admin')).code).toBe(200);
    const [role] = await t.db.insert(roles).values({ name: 'Nothing' }).returning();
    const [auditor] = await t.db.select().from(adminUsers).where(eq(adminUsers.username, 'auditor'));
    await t.db.update(adminUsers).set({ roleId: role!.id }).where(eq(adminUsers.id, auditor!.id));
    const res = await list('auditor', 'admin');
    expect(res.code).toBe(400);
    await t.db.update(adminUsers).set({ roleId: auditor!.roleId }).where(eq(adminUsers.id, auditor!.id));
  });
});

describe('device list filters, sorting and paging', () => {
  it('filters by status, keyword and institution', async () => {
    const active = await list('admin', 'admin', { status: 'active' });
    expect(active.datas.list.length).toBeGreaterThan(0);
    expect(active.datas.list.every((d) => d.status === 'active')).toBe(true);
    const one = await list('admin', 'admin', { keyword: 'be240005' });
    expect(one.datas.list.map((d) => d.serial)).toEqual(['BE240005']);
    const wildcard = await list('admin', 'admin', { keyword: '%' });
    expect(wildcard.datas.total).toBe(0);
  });

  it('expiring within 30 days and an expiry range', async () => {
    const res = await list('admin', 'admin', { expiring: '1' });
    const now = Date.now();
    expect(res.datas.list.length).toBeGreaterThan(0);
    for (const d of res.datas.list) {
      const at = Date.parse(d.expires_at!);
      expect(at).toBeGreaterThanOrEqual(now - 60_000);
      expect(at).toBeLessThanOrEqual(now + 30 * 86_400_000);
      expect(d.expiring).toBe(true);
    }
    const from = new Date(now).toISOString().slice(0, 10);
    const to = new Date(now + 60 * 86_400_000).toISOString().slice(0, 10);
    const range = await list('admin', 'admin', { expires_from: from, expires_to: to });
    for (const d of range.datas.list) {
      expect(d.expires_at! >= `${from}T00:00:00`).toBe(true);
      expect(d.expires_at!.slice(0, 10) <= to).toBe(true);
    }
  });

  it('sorts both ways with empty values last', async () => {
    const asc = await list('admin', 'admin', { sort: 'expires_at', order: 'ascend' });
    const dates = asc.datas.list.map((d) => d.expires_at);
    const firstNull = dates.indexOf(null);
    expect(firstNull).toBeGreaterThan(0);
    expect(dates.slice(firstNull).every((d) => d === null)).toBe(true);
    const present = dates.slice(0, firstNull) as string[];
    expect([...present].sort()).toEqual(present);
    const desc = await list('admin', 'admin', { sort: 'total_inspections', order: 'descend' });
    const counts = desc.datas.list.map((d) => d.total_inspections);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
  });

  it('pages without overlap or gaps', async () => {
    const { key } = await t.login('admin');
    const seen: number[] = [];
    for (let page = 1; page <= 4; page++) {
      const res = await t.call('GET', '/equipment/list', { key, query: { page, limit: 17, sort: 'serial', order: 'ascend' } });
      seen.push(...res.datas.list.map((d: DeviceRow) => d.id));
    }
    const total = (await t.db.select().from(devices)).length;
    expect(new Set(seen).size).toBe(Math.min(68, total));
  });

  it('every page carries the same total, a page past the end too; a filter that matches nothing counts 0', async () => {
    const { key } = await t.login('admin');
    const total = (await t.db.select().from(devices)).length;
    const lastPage = Math.ceil(total / 17);
    for (const page of [1, lastPage, lastPage + 1, lastPage + 5]) {
      const res = await t.call('GET', '/equipment/list', { key, query: { page, limit: 17 } });
      expect(res.datas).toMatchObject({ total, capped: false });
      expect(res.datas.list).toHaveLength(page < lastPage ? 17 : page === lastPage ? total - 17 * (lastPage - 1) : 0);
    }
    for (const page of [1, 2]) {
      const none = await t.call('GET', '/equipment/list', { key, query: { page, keyword: 'no-such-device-anywhere' } });
      expect(none.datas).toEqual({ list: [], total: 0, capped: false });
    }
  });

  it('refuses bad paging, unknown sort columns and odd values with 400', async () => {
    for (const query of [
      { limit: 1000 },
      { page: 0 },
      { sort: 'secret_hash' },
      { status: 'broken' },
      { expires_from: '2026-13-40' },
      { institution_id: 'x' },
      { institution_id: '0x10' },
      { institution_id: '1e0' },
      { institution_id: '0' },
    ]) {
      const res = await list('admin', 'admin', query);
      expect(res.code, JSON.stringify(query)).toBe(400);
      expect(typeof (res.datas as unknown as { error: string }).error).toBe('string');
    }
  });
});

describe('device list count cap', () => {
  it(`counts up to ${COUNT_CAP.toLocaleString('en-US')} and says so beyond, on every page`, async () => {
    const { key } = await t.login('admin');
    await t.db.execute(sql`insert into devices (serial, model) select 'CAP-' || g, 'cap' from generate_series(1, ${COUNT_CAP + 1}) g`);
    try {
      for (const page of [1, 3]) {
        const res = await t.call('GET', '/equipment/list', { key, query: { page, limit: 20, keyword: 'CAP-' } });
        expect(res.datas).toMatchObject({ total: COUNT_CAP, capped: true });
        expect(res.datas.list).toHaveLength(20);
      }
      const exact = await t.call('GET', '/equipment/list', { key, query: { limit: 20, keyword: 'CAP-999' } });
      expect(exact.datas).toMatchObject({ total: 11, capped: false });

      // The paging window: the last page a capped total shows (its first row within the first COUNT_CAP)
      // answers; the page after it is refused with a message in the caller's language, not run.
      for (const limit of [20, 200, 7]) {
        const last = Math.ceil(COUNT_CAP / limit);
        const lastPage = await t.call<{ list: DeviceRow[] }>('GET', '/equipment/list', { key, query: { page: last, limit, keyword: 'CAP-', sort: 'serial', order: 'ascend' } });
        expect(lastPage.code, `limit ${limit}`).toBe(200);
        expect(lastPage.datas.list.length).toBeGreaterThan(0);
        const beyond = await t.call<{ error: string; fields: Record<string, string> }>('GET', '/equipment/list', { key, query: { page: last + 1, limit, keyword: 'CAP-' } });
        expect(beyond.code).toBe(400);
        expect(beyond.datas.fields.page).toBe(`Only the first ${COUNT_CAP} rows can be paged through; narrow the filters or sort the other way`);
      }
      const zh = await t.call<{ error: string }>('GET', '/equipment/list', { key, lang: 'zh', query: { page: 1_000_000, limit: 200 } });
      expect(zh.code).toBe(400);
      expect(zh.datas.error).toContain(`只能翻阅前 ${COUNT_CAP} 条记录`);
      // Every list takes the same window (the contract's page query): the audit log, the ledger.
      for (const path of ['/audit/list', '/finance/list', '/activation_code/batches']) {
        const res = await t.call('GET', path, { key, query: { page: 501, limit: 20 } });
        expect([path, res.code]).toEqual([path, 400]);
      }
    } finally {
      await t.db.execute(sql`delete from devices where model = 'cap'`);
    }
  });
});

describe("the device list's statements", () => {
  it('the platform\'s first page is a named statement whose only parameters are the clock of its "expiring" and "online" columns (PostgreSQL keeps its plan); other pages bind their window', async () => {
    const auth = await platformAuth(t.db);
    const run = (query: Record<string, unknown>) => async (db: Parameters<typeof listService>[0]) => listService(db, auth, equipmentListQuery.parse(query));

    const first = await preparedBy(t, 'devices', run({ limit: 7 }));
    expect(first).toHaveLength(1);
    // The expiring window's two ends, and the moment a device last seen counts as online from.
    expect(first[0]!.types).toBe('{"timestamp with time zone","timestamp with time zone","timestamp with time zone"}');
    expect(first[0]!.statement).toMatch(/limit 10001\) s\)/);
    expect(first[0]!.statement).toMatch(/limit 7$/);

    const second = await preparedBy(t, 'devices', run({ limit: 7, page: 2 }));
    expect(second).toHaveLength(1);
    expect(second[0]!.statement).toMatch(/limit \$\d+ offset \$\d+$/);
    expect(await preparedBy(t, 'devices', run({ limit: 7, status: 'active' }))).toEqual([]);
  });
});

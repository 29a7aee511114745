import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREFERENCE_LIMITS } from '@app/contract';
import { auditLog, listColumns, listViews } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const prefs = (key: string, list = 'equipment.list') => t.call('GET', '/preference/list', { key, query: { list } });
const saveColumns = (key: string, columns: unknown, list = 'equipment.list', lang?: string) => t.call('POST', '/preference/columns', { key, body: { list, columns }, lang });
const addView = (key: string, body: Record<string, unknown>, lang?: string) => t.call('POST', '/preference/view_add', { key, body: { list: 'equipment.list', filters: {}, ...body }, lang });
const editView = (key: string, body: Record<string, unknown>) => t.call('POST', '/preference/view_edit', { key, body });
const deleteView = (key: string, id: number) => t.call('POST', '/preference/view_delete', { key, body: { id } });
const storedViews = () => t.db.select().from(listViews);
const storedColumns = () => t.db.select().from(listColumns);

const COLUMNS = [
  { key: 'status', visible: true },
  { key: 'serial', visible: true },
  { key: 'model', visible: false },
];

describe('column settings', () => {
  it('are kept per account: another sign-in of the same account reads them, other accounts do not', async () => {
    const first = await t.login('admin');
    const saved = await saveColumns(first.key, COLUMNS);
    expect(saved.code, saved.raw).toBe(200);
    // Another browser: a new session of the same account.
    const second = await t.login('admin');
    const got = await prefs(second.key);
    expect(got.code, got.raw).toBe(200);
    expect(got.datas).toMatchObject({ list: 'equipment.list', columns: COLUMNS, views: [] });
    // Another list of the same account, another account (an institution, another admin): untouched.
    expect((await prefs(second.key, 'packages.list')).datas.columns).toBeNull();
    const clinic = await t.login('clinic3', 'institution');
    expect((await prefs(clinic.key)).datas.columns).toBeNull();
    const other = await t.adminWith('columns_other', ['DeviceList']);
    expect((await prefs(other)).datas.columns).toBeNull();
    // The institution's own setting leaves the admin's as it was.
    expect((await saveColumns(clinic.key, [{ key: 'name', visible: true }])).code).toBe(200);
    expect((await prefs(clinic.key)).datas.columns).toEqual([{ key: 'name', visible: true }]);
    expect((await prefs(first.key)).datas.columns).toEqual(COLUMNS);
    // Null goes back to the page's own columns.
    expect((await saveColumns(clinic.key, null)).code).toBe(200);
    expect((await prefs(clinic.key)).datas.columns).toBeNull();
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, 'preferences.saveColumns'), eq(auditLog.actorName, 'admin')));
    expect(audit).toMatchObject({ recordType: 'list_columns', after: { list: 'equipment.list', order: ['status', 'serial', 'model'], hidden: ['model'] } });
  });

  it('refuses unknown columns, a column twice, none visible, an unknown list and malformed input: 400, nothing stored', async () => {
    const { key } = await t.login('agent2', 'institution');
    const before = JSON.stringify(await storedColumns());
    const cases: [unknown, string, RegExp][] = [
      [[{ key: 'password_hash', visible: true }], 'equipment.list', /no column “password_hash”/],
      [
        [
          { key: 'serial', visible: true },
          { key: 'serial', visible: false },
        ],
        'equipment.list',
        /given twice/,
      ],
      [[{ key: 'serial', visible: false }], 'equipment.list', /at least one column/],
      [COLUMNS, 'secrets.list', /no such list/],
      [[{ key: 'serial', visible: 'yes' }], 'equipment.list', /columns/],
      ['serial,name', 'equipment.list', /columns/],
      [Array.from({ length: 41 }, () => ({ key: 'serial', visible: true })), 'equipment.list', /columns/],
    ];
    for (const [columns, list, message] of cases) {
      const res = await saveColumns(key, columns, list);
      expect(res.code, res.raw).toBe(400);
      expect(res.datas.error, JSON.stringify(columns).slice(0, 80)).toMatch(message);
    }
    // In the caller's language.
    const zh = await saveColumns(key, [{ key: 'bogus', visible: true }], 'equipment.list', 'zh');
    expect(zh.datas.error).toContain('列表没有列“bogus”');
    expect(JSON.stringify(await storedColumns())).toBe(before);
  });

  it('a list the caller may not read is refused', async () => {
    const { key } = await t.login('clinic3', 'institution');
    const res = await saveColumns(key, [{ key: 'actor', visible: true }], 'audit.list');
    expect(res.code).toBe(400);
    expect(res.datas.error).toMatch(/permission|forbidden|not allowed/i);
    expect((await prefs(key, 'audit.list')).code).toBe(400);
    expect(await t.db.select().from(listColumns).where(eq(listColumns.list, 'audit.list'))).toHaveLength(0);
  });
});

describe('saved views', () => {
  it('are added, renamed, made default (one per list), deleted; another account sees none and cannot touch them', async () => {
    const { key } = await t.login('agent1', 'institution');
    const a = await addView(key, { name: 'Disabled', filters: { status: 'disabled', keyword: 'SIM' }, sort: 'serial', order: 'descend', is_default: true });
    expect(a.code, a.raw).toBe(200);
    const b = await addView(key, { name: 'Expiring', filters: { expiring: '1' } });
    expect(b.code, b.raw).toBe(200);
    const again = await t.login('agent1', 'institution');
    let views = (await prefs(again.key)).datas.views;
    expect(views.map((v: { name: string }) => v.name)).toEqual(['Disabled', 'Expiring']);
    expect(views[0]).toMatchObject({ filters: { status: 'disabled', keyword: 'SIM' }, sort: 'serial', order: 'descend', is_default: true });
    // The default moves: one per list.
    expect((await editView(key, { id: b.datas.id, is_default: true, name: 'Soon expiring' })).code).toBe(200);
    views = (await prefs(key)).datas.views;
    expect(views.filter((v: { is_default: boolean }) => v.is_default).map((v: { name: string }) => v.name)).toEqual(['Soon expiring']);
    // A name taken by another view of the list.
    const taken = await editView(key, { id: b.datas.id, name: 'Disabled' });
    expect(taken.code).toBe(400);
    expect(taken.datas.error).toMatch(/already exists/);
    // Another account: sees nothing, its edit and delete of these ids are "not found".
    const stranger = await t.login('agent1b', 'institution');
    expect((await prefs(stranger.key)).datas.views).toEqual([]);
    expect((await editView(stranger.key, { id: a.datas.id, name: 'Mine now' })).datas.error).toMatch(/does not exist/);
    expect((await deleteView(stranger.key, a.datas.id)).datas.error).toMatch(/does not exist/);
    expect((await prefs(key)).datas.views).toHaveLength(2);
    // Its owner deletes it.
    expect((await deleteView(key, a.datas.id)).code).toBe(200);
    expect((await prefs(key)).datas.views.map((v: { name: string }) => v.name)).toEqual(['Soon expiring']);
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.recordType, 'list_view'), eq(auditLog.recordId, a.datas.id)));
    // The stranger's refused edit and delete rolled back with their rows: the owner's add and delete remain.
    expect(rows.map((r) => r.endpoint).sort()).toEqual(['preferences.addView', 'preferences.deleteView']);
  });

  it('refuses what the list itself would refuse, and malformed views: 400, nothing stored', async () => {
    const { key } = await t.login('agent2', 'institution');
    const before = JSON.stringify(await storedViews());
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: 'x'.repeat(PREFERENCE_LIMITS.viewNameLength + 1) }, /name/],
      [{ name: '   ' }, /name/],
      [{ name: 'Unknown filter', filters: { owner_secret: '1' } }, /no filter “owner_secret”/],
      [{ name: 'Paging', filters: { page: '3' } }, /no filter “page”/],
      [{ name: 'Bad status', filters: { status: 'bogus' } }, /Filter “status” has an invalid value/],
      [{ name: 'Bad date', filters: { expires_from: 'yesterday' } }, /Filter “expires_from” has an invalid value/],
      [{ name: 'Bad sort', filters: {}, sort: 'secret_hash', order: 'ascend' }, /cannot be sorted by “secret_hash”/],
      [{ name: 'Bad order', filters: {}, sort: 'serial', order: 'sideways' }, /order/],
      [{ name: 'Array', filters: ['status'] }, /filters/],
      [{ name: 'Numbers', filters: { status: 1 } }, /filters/],
      [{ name: 'Long', filters: { keyword: 'k'.repeat(PREFERENCE_LIMITS.filterValueLength + 1) } }, /filters/],
      [{ name: 'Many', filters: Object.fromEntries(Array.from({ length: PREFERENCE_LIMITS.filtersPerView + 1 }, (_, i) => [`f${i}`, '1'])) }, /at most 20 filters/],
      [{ name: 'Unknown list', list: 'secrets.list' }, /no such list/],
    ];
    for (const [body, message] of cases) {
      const res = await addView(key, body);
      expect(res.code, res.raw).toBe(400);
      expect(res.datas.error, JSON.stringify(body).slice(0, 80)).toMatch(message);
    }
    const zh = await addView(key, { name: 'zh', filters: { status: 'bogus' } }, 'zh');
    expect(zh.datas.error).toContain('筛选条件“status”的值无效');
    expect(JSON.stringify(await storedViews())).toBe(before);
  });

  it('at most 20 views per list, under concurrent adds', async () => {
    const { key } = await t.login('agent1b', 'institution');
    const n = PREFERENCE_LIMITS.viewsPerList + 5;
    const results = await Promise.all(Array.from({ length: n }, (_, i) => addView(key, { name: `View ${i}`, filters: { keyword: String(i) }, is_default: true })));
    expect(results.filter((r) => r.code === 200)).toHaveLength(PREFERENCE_LIMITS.viewsPerList);
    const refused = results.filter((r) => r.code !== 200);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(r.datas.error).toMatch(/At most 20 views/);
    const views = (await prefs(key)).datas.views;
    expect(views).toHaveLength(PREFERENCE_LIMITS.viewsPerList);
    // Every add asked to be the default: exactly one is.
    expect(views.filter((v: { is_default: boolean }) => v.is_default)).toHaveLength(1);
  });
});

describe('the lists', () => {
  it('every list named in LIST_COLUMNS is a list endpoint whose query schema the views are checked against', async () => {
    const { ENDPOINTS, LIST_NAMES } = await import('@app/contract');
    for (const name of LIST_NAMES) {
      const endpoint = ENDPOINTS.find((e) => e.name === name);
      expect(endpoint?.method, name).toBe('GET');
      const shape = (endpoint!.input as unknown as { shape?: Record<string, unknown> }).shape;
      expect(shape && 'page' in shape && 'limit' in shape, name).toBe(true);
    }
  });
});

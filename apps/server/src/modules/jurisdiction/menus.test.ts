import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { flattenRoutes } from '@app/contract';
import { auditLog } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let admin: { key: string; id: number };
const flat = (nodes: any[]): any[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
const title = (en: string) => ({ zh: `中${en}`, en, es: '', ja: '' });

async function nodes() {
  return flat((await t.call('GET', '/menu/tree', { key: admin.key })).datas);
}
async function idOf(sign: string): Promise<number> {
  return (await nodes()).find((n) => n.sign === sign).id;
}
const add = (body: Record<string, unknown>) => t.call('POST', '/menu/add', { key: admin.key, body });
const edit = (body: Record<string, unknown>) => t.call('POST', '/menu/edit', { key: admin.key, body });
const del = (id: number) => t.call('POST', '/menu/del', { key: admin.key, body: { id } });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
});
afterAll(async () => {
  await t?.close();
});

describe('menu tree', () => {
  it('answers every node of the permission table as a tree, built-in nodes marked', async () => {
    const res = await t.call('GET', '/menu/tree', { key: admin.key });
    expect(res.code).toBe(200);
    const all = flat(res.datas);
    // Every route but the accounts' own (personal) pages, which are open to every session and no menu node.
    const expected = flattenRoutes()
      .filter((r) => !r.personal)
      .flatMap((r) => [r.name, ...(r.buttons ?? []).map((b) => b.key)]);
    expect(all.map((n) => n.sign).sort()).toEqual(expected.sort());
    expect(all.some((n) => n.sign === 'AccountSecurity')).toBe(false);
    expect(all.every((n) => n.builtin)).toBe(true);
    const jurisdiction = res.datas.find((n: any) => n.sign === 'Jurisdiction');
    expect(jurisdiction).toMatchObject({ type: 1, parent_id: null, hidden: 0 });
    const menuPage = jurisdiction.children.find((n: any) => n.sign === 'MenuManage');
    expect(menuPage).toMatchObject({ type: 2, parent_id: jurisdiction.id });
    expect(menuPage.children.map((n: any) => n.sign)).toEqual(['menu:add', 'menu:edit', 'menu:delete']);
    expect(menuPage.title).toEqual({ zh: '菜单管理', en: 'Menus', es: 'Menús', ja: 'メニュー' });
  });

  it('detail answers one node; unknown ids are refused', async () => {
    const id = await idOf('DeviceList');
    const res = await t.call('GET', '/menu/detail', { key: admin.key, query: { id } });
    expect(res.datas).toMatchObject({ id, sign: 'DeviceList', type: 2, builtin: true, children: [] });
    expect((await t.call('GET', '/menu/detail', { key: admin.key, query: { id: 99999 } })).datas.error).toBe('The record does not exist');
  });
});

describe('custom nodes', () => {
  it('adds a directory, a page under it and a button under the page', async () => {
    const dir = await add({ type: 1, sign: 'Reports', title: title('Reports'), icon: 'chart', sort: 500 });
    expect(dir.code).toBe(200);
    expect(dir.datas).toMatchObject({ type: 1, parent_id: null, sign: 'Reports', builtin: false, hidden: 0, sort: 500, icon: 'chart' });
    expect(dir.datas.title).toEqual({ zh: '中Reports', en: 'Reports', es: '', ja: '' });
    const page = await add({ type: 2, parent_id: dir.datas.id, sign: 'MonthlyReport', title: title('Monthly') });
    expect(page.code).toBe(200);
    const button = await add({ type: 3, parent_id: page.datas.id, sign: 'report:export', title: title('Export'), hidden: 1 });
    expect(button.datas).toMatchObject({ type: 3, parent_id: page.datas.id, hidden: 1, icon: null, sort: 0 });
    const tree = await t.call('GET', '/menu/tree', { key: admin.key });
    const reports = tree.datas.find((n: any) => n.sign === 'Reports');
    expect(reports.children[0].children[0].sign).toBe('report:export');
  });

  it('requires zh and en titles and a well-formed sign', async () => {
    const res = await add({ type: 1, sign: 'NoTitle', title: { zh: '中', en: ' ' } });
    expect(res.code).toBe(400);
    expect(Object.keys(res.datas.fields)).toContain('title.en');
    const sign = await add({ type: 1, sign: 'bad sign!', title: title('x') });
    expect(sign.code).toBe(400);
    expect(sign.datas.fields.sign).toBeTruthy();
    const type = await add({ type: 4, sign: 'Four', title: title('x') });
    expect(type.datas.fields.type).toBeTruthy();
  });

  it('refuses a sign that is taken, built-in signs included', async () => {
    const res = await add({ type: 1, sign: 'DeviceList', title: title('Dup') });
    expect(res.code).toBe(400);
    expect(res.datas.error).toBe('DeviceList already exists');
    expect(res.datas.fields).toEqual({ sign: 'DeviceList already exists' });
    expect((await add({ type: 1, sign: 'Reports', title: title('Dup') })).code).toBe(400);
  });

  it('enforces the structure: buttons under pages, pages under directories or the top', async () => {
    const page = await idOf('MonthlyReport');
    const dir = await idOf('Reports');
    const button = await idOf('report:export');
    expect((await add({ type: 3, sign: 'x:top', title: title('x') })).datas.error).toBe('A button must be placed under a page');
    expect((await add({ type: 3, parent_id: dir, sign: 'x:dir', title: title('x') })).datas.error).toBe('A button must be placed under a page');
    expect((await add({ type: 2, parent_id: page, sign: 'PageInPage', title: title('x') })).datas.error).toBe('A page must be placed under a directory or at the top level');
    expect((await add({ type: 2, parent_id: button, sign: 'PageInButton', title: title('x') })).code).toBe(400);
    expect((await add({ type: 1, parent_id: page, sign: 'DirInPage', title: title('x') })).datas.error).toBe('A directory must be placed under a directory or at the top level');
    expect((await add({ type: 1, parent_id: 99999, sign: 'Orphan', title: title('x') })).datas.error).toBe('Unknown menu nodes: 99999');
    // Strict ids: the top level is null (or no parent_id); 0 is refused at the field like any other non-id.
    expect((await add({ type: 2, parent_id: 0, sign: 'TopPage', title: title('Top') })).datas.fields).toHaveProperty('parent_id');
    const top = await add({ type: 2, parent_id: null, sign: 'TopPage', title: title('Top') });
    expect(top.datas.parent_id).toBeNull();
    expect((await del(top.datas.id)).code).toBe(200);
  });

  it('refuses cycles', async () => {
    const outer = await idOf('Reports');
    const inner = await add({ type: 1, parent_id: outer, sign: 'ReportsArchive', title: title('Archive') });
    const deeper = await add({ type: 1, parent_id: inner.datas.id, sign: 'ReportsArchiveOld', title: title('Old') });
    expect((await edit({ id: outer, parent_id: deeper.datas.id })).datas.error).toBe('A node cannot be moved under itself or one of its descendants');
    expect((await edit({ id: outer, parent_id: outer })).datas.error).toBe('A node cannot be moved under itself or one of its descendants');
    // Moving the other way round is fine.
    const moved = await edit({ id: deeper.datas.id, parent_id: outer });
    expect(moved.datas.parent_id).toBe(outer);
    expect((await del(deeper.datas.id)).code).toBe(200);
    expect((await del(inner.datas.id)).code).toBe(200);
  });

  it('edits every field of a custom node; omitted fields keep their values', async () => {
    const page = await idOf('MonthlyReport');
    const res = await edit({ id: page, sign: 'MonthReport', title: { zh: '月报', en: 'Monthly report', es: 'Informe mensual', ja: '月報' }, icon: 'doc', sort: 7, hidden: 1 });
    expect(res.code).toBe(200);
    expect(res.datas).toMatchObject({ sign: 'MonthReport', icon: 'doc', sort: 7, hidden: 1, type: 2, parent_id: await idOf('Reports') });
    const cleared = await edit({ id: page, icon: null });
    expect(cleared.datas).toMatchObject({ icon: null, sort: 7, sign: 'MonthReport' });
    expect((await edit({ id: page, sign: 'DeviceList' })).datas.error).toBe('DeviceList already exists');
    expect((await edit({ id: 99999, sort: 1 })).code).toBe(400);
  });

  it('refuses a type change the children do not fit', async () => {
    const page = await idOf('MonthReport');
    expect((await edit({ id: page, type: 1 })).datas.error).toBe("The node's children do not fit the new type");
    const lone = await add({ type: 2, parent_id: await idOf('Reports'), sign: 'LonePage', title: title('Lone') });
    const asDir = await edit({ id: lone.datas.id, type: 1 });
    expect(asDir.datas.type).toBe(1);
    expect((await del(lone.datas.id)).code).toBe(200);
  });

  it('refuses to delete a node that has children, then deletes leaf first', async () => {
    const dir = await idOf('Reports');
    const res = await del(dir);
    expect(res.code).toBe(400);
    expect(res.datas.error).toBe('Cannot delete: this node still has a child node; delete or move it first');
    expect((await del(await idOf('MonthReport'))).datas.error).toMatch(/still has a child node;/);
    // A granted node goes with its grants.
    const role = await t.call('POST', '/role/add', { key: admin.key, body: { name: 'Reporter', menu_ids: [await idOf('report:export')] } });
    expect(role.datas.menu_ids).toHaveLength(3);
    expect((await del(await idOf('report:export'))).code).toBe(200);
    expect((await del(await idOf('MonthReport'))).code).toBe(200);
    expect((await del(dir)).code).toBe(200);
    const after = await t.call('GET', '/role/detail', { key: admin.key, query: { id: role.datas.id } });
    expect(after.datas.menu_ids).toEqual([]);
    expect((await nodes()).some((n) => n.sign === 'Reports')).toBe(false);
    expect((await del(99999)).code).toBe(400);
  });
});

describe('built-in nodes', () => {
  it('cannot be deleted', async () => {
    for (const sign of ['DeviceList', 'acupoint:delete']) {
      const res = await del(await idOf(sign));
      expect(res.code).toBe(400);
      expect(res.datas.error).toMatch(/built-in permission table/);
    }
  });

  it('keep their sign, type and parent', async () => {
    const id = await idOf('DeviceList');
    expect((await edit({ id, sign: 'Devices2' })).datas.error).toMatch(/built-in permission table/);
    expect((await edit({ id, type: 1 })).datas.error).toMatch(/built-in permission table/);
    expect((await edit({ id, parent_id: await idOf('System') })).datas.error).toMatch(/built-in permission table/);
    expect((await edit({ id, parent_id: null })).code).toBe(400);
  });

  it('take new titles, icons, order and hidden flags; the same values round-trip', async () => {
    const id = await idOf('DeviceList');
    const detail = (await t.call('GET', '/menu/detail', { key: admin.key, query: { id } })).datas;
    const res = await edit({ ...detail, title: { ...detail.title, en: 'Devices' }, icon: 'laptop', sort: 1, hidden: 1 });
    expect(res.code).toBe(200);
    expect(res.datas).toMatchObject({ sign: 'DeviceList', title: { en: 'Devices' }, icon: 'laptop', sort: 1, hidden: 1, builtin: true });
    const me = await t.call('GET', '/member/get_member', { key: admin.key });
    expect(flat(me.datas.role_data).find((n) => n.sign === 'DeviceList')).toMatchObject({ hidden: 1, icon: 'laptop' });
    expect((await edit({ ...detail })).datas).toMatchObject({ hidden: 0, icon: detail.icon, sort: detail.sort });
  });

  it("the menu editor's own edit button cannot be hidden (nobody could undo it)", async () => {
    const res = await edit({ id: await idOf('menu:edit'), hidden: 1 });
    expect(res.code).toBe(400);
    expect(res.datas.error).toMatch(/cannot be hidden/);
  });
});

describe('access', () => {
  it('reads need the MenuManage page, writes their buttons', async () => {
    const role = await t.call('POST', '/role/add', { key: admin.key, body: { name: 'Menu reader', menu_ids: [await idOf('MenuManage'), await idOf('menu:edit')] } });
    await t.call('POST', '/admin/add', { key: admin.key, body: { username: 'menureader', name: 'Menu reader', role_id: role.datas.id, password: 'secret-pass-1' } });
    const u = await t.login('menureader', 'admin', 'secret-pass-1');
    expect((await t.call('GET', '/menu/tree', { key: u.key })).code).toBe(200);
    const id = await idOf('DeviceList');
    expect((await t.call('GET', '/menu/detail', { key: u.key, query: { id } })).code).toBe(200);
    expect((await t.call('POST', '/menu/edit', { key: u.key, body: { id, sort: 3 } })).code).toBe(200);
    const denied = await t.call('POST', '/menu/add', { key: u.key, body: { type: 1, sign: 'Nope', title: title('Nope') } });
    expect(denied.datas.error).toBe('You do not have permission for this action');
    expect((await t.call('POST', '/menu/del', { key: u.key, body: { id } })).datas.error).toBe('You do not have permission for this action');

    const auditor = await t.login('auditor');
    for (const [method, path] of [
      ['GET', '/menu/tree'],
      ['GET', '/menu/detail'],
      ['POST', '/menu/edit'],
    ] as const) {
      expect((await t.call(method, path, { key: auditor.key, query: { id }, body: { id, sort: 1 } })).code, path).toBe(400);
    }
  });

  it('a grade-3 institution is refused on every menu endpoint', async () => {
    const inst = await t.login('clinic3', 'institution');
    const id = await idOf('DeviceList');
    for (const [method, path] of [
      ['GET', '/menu/tree'],
      ['GET', '/menu/detail'],
      ['POST', '/menu/add'],
      ['POST', '/menu/edit'],
      ['POST', '/menu/del'],
    ] as const) {
      const res = await t.call(method, path, { key: inst.key, query: { id }, body: { id, type: 1, sign: 'Inst', title: title('x') } });
      expect(res.code, path).toBe(400);
      expect(res.datas.error, path).toBe('You do not have permission for this action');
    }
    expect((await t.call('GET', '/menu/tree')).code).toBe(999);
  });
});

describe('audit trail', () => {
  it('records add, edit and delete of a node with the node before and after', async () => {
    const added = await add({ type: 1, sign: 'AuditedDir', title: title('Audited') });
    expect(added.code).toBe(200);
    const id = added.datas.id as number;
    expect((await edit({ id, sort: 42, title: title('Audited 2') })).code).toBe(200);
    expect((await del(id)).code).toBe(200);
    const rows = await t.db.select().from(auditLog).where(eq(auditLog.recordId, id)).orderBy(asc(auditLog.id));
    const mine = rows.filter((r) => r.recordType === 'menu');
    expect(mine.map((r) => r.endpoint)).toEqual(['jurisdiction.menuAdd', 'jurisdiction.menuEdit', 'jurisdiction.menuRemove']);
    const [a, e, d] = mine as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
    expect(a).toMatchObject({ actorKind: 'admin', actorId: admin.id, path: '/menu/add', before: null });
    expect(a.after).toMatchObject({ id, sign: 'AuditedDir', type: 1, sort: 0, builtin: false });
    expect(e.before).toMatchObject({ sort: 0, title: { en: 'Audited' } });
    expect(e.after).toMatchObject({ sort: 42, title: { en: 'Audited 2' } });
    expect(d.before).toMatchObject({ id, sort: 42 });
    expect(d.after).toBeNull();
  });

  it('a refused write leaves no row', async () => {
    const before = (await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'jurisdiction.menuRemove'))).length;
    expect((await del(await idOf('DeviceList'))).code).toBe(400);
    expect((await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'jurisdiction.menuRemove'))).length).toBe(before);
  });
});

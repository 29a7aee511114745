import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { auditLog } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let admin: { key: string; id: number };
let ids: Map<string, number>;

const signs = (nodes: any[]): string[] => nodes.flatMap((n) => [n.sign, ...signs(n.children)]);
const flat = (nodes: any[]): any[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
const idsOf = (...list: string[]) =>
  list.map((s) => {
    const id = ids.get(s);
    if (!id) throw new Error(`no node ${s}`);
    return id;
  });

/** A role created through the API and a user holding it, signed in. */
async function userWithRole(name: string, grants: string[], by = admin.key) {
  const role = await t.call('POST', '/role/add', { key: by, body: { name, menu_ids: idsOf(...grants) } });
  expect(role.code, role.raw).toBe(200);
  const username = `u_${name.toLowerCase().replace(/\W+/g, '_')}`;
  const user = await t.call('POST', '/admin/add', { key: admin.key, body: { username, name, role_id: role.datas.id, password: 'secret-pass-1' } });
  expect(user.code, user.raw).toBe(200);
  const session = await t.login(username, 'admin', 'secret-pass-1');
  return { role: role.datas, user: user.datas, ...session };
}

async function roleIdNamed(name: string): Promise<number> {
  const res = await t.call('GET', '/role/list', { key: admin.key, query: { keyword: name } });
  return res.datas.list.find((r: any) => r.name === name).id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  const tree = await t.call('GET', '/menu/tree', { key: admin.key });
  ids = new Map(flat(tree.datas).map((n) => [n.sign, n.id]));
});
afterAll(async () => {
  await t?.close();
});

describe('role list and detail', () => {
  it('lists roles paged with their user counts, filtered by keyword and status', async () => {
    const res = await t.call('GET', '/role/list', { key: admin.key, query: { page: 1, limit: 1, sort: 'name', order: 'ascend' } });
    expect(res.code).toBe(200);
    expect(res.datas.total).toBe(2);
    expect(res.datas.list).toHaveLength(1);
    expect(res.datas.list[0]).toMatchObject({ name: 'Auditor', user_count: 1, status: true, is_super: false });
    const kw = await t.call('GET', '/role/list', { key: admin.key, query: { keyword: 'SUPER' } });
    expect(kw.datas.list.map((r: any) => r.name)).toEqual(['Super administrator']);
    expect(kw.datas.list[0]).toMatchObject({ is_super: true, user_count: 1 });
    const off = await t.call('GET', '/role/list', { key: admin.key, query: { status: '0' } });
    expect(off.datas.total).toBe(0);
    const bad = await t.call('GET', '/role/list', { key: admin.key, query: { sort: 'password' } });
    expect(bad.code).toBe(400);
  });

  it('detail answers the grants; the super role lists every node', async () => {
    const auditor = await t.call('GET', '/role/detail', { key: admin.key, query: { id: await roleIdNamed('Auditor') } });
    expect(auditor.datas.menu_ids.sort()).toEqual(
      idsOf('Dashboard', 'DeviceList', 'device:export', 'Inspection', 'InspectionList', 'InspectionReport', 'InspectionResult', 'inspection:export').sort(),
    );
    const sup = await t.call('GET', '/role/detail', { key: admin.key, query: { id: await roleIdNamed('Super administrator') } });
    expect(sup.datas.menu_ids).toHaveLength(ids.size);
    expect((await t.call('GET', '/role/detail', { key: admin.key, query: { id: 99999 } })).code).toBe(400);
  });
});

describe('saving roles', () => {
  it('adds a role enabled by default, with the ancestors of granted nodes', async () => {
    const res = await t.call('POST', '/role/add', { key: admin.key, body: { name: 'Schematics', description: 'Diagrams', menu_ids: idsOf('SchematicManage', 'schematic:add') } });
    expect(res.code).toBe(200);
    expect(res.datas).toMatchObject({ name: 'Schematics', status: true, is_super: false, user_count: 0 });
    expect(res.datas.menu_ids.sort()).toEqual(idsOf('Schematic', 'SchematicManage', 'schematic:add').sort());
  });

  it('refuses unknown menu ids and duplicate names', async () => {
    const unknown = await t.call('POST', '/role/add', { key: admin.key, body: { name: 'Ghost', menu_ids: [99999] } });
    expect(unknown.code).toBe(400);
    expect(unknown.datas.error).toMatch(/Unknown menu nodes: 99999/);
    const dup = await t.call('POST', '/role/add', { key: admin.key, body: { name: 'auditor' } });
    expect(dup.code).toBe(400);
    expect(dup.datas.error).toMatch(/already exists/);
    const empty = await t.call('POST', '/role/add', { key: admin.key, body: { name: '  ' } });
    expect(empty.code).toBe(400);
    expect(empty.datas.fields.name).toBeTruthy();
  });

  it('edits name, description, status and grants; menu_ids replaces the grants', async () => {
    const id = await roleIdNamed('Schematics');
    const res = await t.call('POST', '/role/edit', { key: admin.key, body: { id, name: 'Schematic editors', description: '', status: 0, menu_ids: idsOf('schematic:edit') } });
    expect(res.code).toBe(200);
    expect(res.datas).toMatchObject({ name: 'Schematic editors', description: '', status: false });
    expect(res.datas.menu_ids.sort()).toEqual(idsOf('Schematic', 'SchematicManage', 'schematic:edit').sort());
    // Omitted fields keep their values.
    const partial = await t.call('POST', '/role/edit', { key: admin.key, body: { id, status: true } });
    expect(partial.datas).toMatchObject({ name: 'Schematic editors', status: true });
    expect(partial.datas.menu_ids).toHaveLength(3);
  });

  it('deletes an unused role; a role in use is refused with the number of its users', async () => {
    const inUse = await t.call('POST', '/role/del', { key: admin.key, body: { id: await roleIdNamed('Auditor') } });
    expect(inUse.code).toBe(400);
    expect(inUse.datas.error).toBe('Cannot delete: an admin user still holds this role');
    const id = await roleIdNamed('Schematic editors');
    expect((await t.call('POST', '/role/del', { key: admin.key, body: { id } })).code).toBe(200);
    expect((await t.call('GET', '/role/detail', { key: admin.key, query: { id } })).code).toBe(400);
  });
});

describe('the super role', () => {
  it('cannot be deleted, disabled, emptied or have its grants changed; it can be renamed', async () => {
    const id = await roleIdNamed('Super administrator');
    const del = await t.call('POST', '/role/del', { key: admin.key, body: { id } });
    expect(del.code).toBe(400);
    expect(del.datas.error).toMatch(/super-admin role holds every menu/);
    expect((await t.call('POST', '/role/edit', { key: admin.key, body: { id, status: false } })).code).toBe(400);
    expect((await t.call('POST', '/role/edit', { key: admin.key, body: { id, menu_ids: [] } })).code).toBe(400);
    expect((await t.call('POST', '/role/edit', { key: admin.key, body: { id, menu_ids: idsOf('DeviceList') } })).code).toBe(400);
    // A round trip of the detail (every node) is accepted.
    const detail = await t.call('GET', '/role/detail', { key: admin.key, query: { id } });
    const renamed = await t.call('POST', '/role/edit', { key: admin.key, body: { id, name: 'Root', description: 'All', status: true, menu_ids: detail.datas.menu_ids } });
    expect(renamed.code).toBe(200);
    expect(renamed.datas).toMatchObject({ name: 'Root', status: true, is_super: true });
    await t.call('POST', '/role/edit', { key: admin.key, body: { id, name: 'Super administrator' } });
    const me = await t.call('GET', '/member/get_member', { key: admin.key });
    expect(signs(me.datas.role_data)).toHaveLength(ids.size);
  });
});

describe('grants in role_data and on the server', () => {
  it('a restricted role sees exactly its grants, and the server refuses the rest', async () => {
    const u = await userWithRole('Acupoint editor', ['AcupointManage', 'acupoint:add', 'acupoint:edit']);
    const me = await t.call('GET', '/member/get_member', { key: u.key });
    expect(me.code).toBe(200);
    expect(signs(me.datas.role_data).sort()).toEqual(['Acupoint', 'AcupointManage', 'acupoint:add', 'acupoint:edit'].sort());
    expect(me.datas.viewing_as).toBeNull();
    for (const [method, path] of [
      ['GET', '/role/list'],
      ['GET', '/menu/tree'],
      ['GET', '/admin/list'],
      ['POST', '/role/add'],
      ['GET', '/equipment/list'],
    ] as const) {
      const res = await t.call(method, path, { key: u.key, body: { name: 'x' } });
      expect(res.code, path).toBe(400);
      expect(res.datas.error, path).toBe('You do not have permission for this action');
    }
  });

  it('a change applies to the next request at once and shows in role_data at the next sign-in', async () => {
    const u = await userWithRole('Role reader', ['DeviceList']);
    expect((await t.call('GET', '/role/list', { key: u.key })).code).toBe(400);
    const role = await t.call('GET', '/role/detail', { key: admin.key, query: { id: u.role.id } });
    await t.call('POST', '/role/edit', { key: admin.key, body: { id: u.role.id, menu_ids: [...role.datas.menu_ids, ...idsOf('RoleManage')] } });
    // Same session: the server enforces the new grant at once.
    expect((await t.call('GET', '/role/list', { key: u.key })).code).toBe(200);
    expect((await t.call('POST', '/role/del', { key: u.key, body: { id: 99999 } })).code).toBe(400);
    const next = await t.login('u_role_reader', 'admin', 'secret-pass-1');
    const me = await t.call('GET', '/member/get_member', { key: next.key });
    expect(signs(me.datas.role_data).sort()).toEqual(['Dashboard', 'DeviceList', 'Jurisdiction', 'RoleManage'].sort());
    // Taking it away is enforced at once too; disabling the role takes everything.
    await t.call('POST', '/role/edit', { key: admin.key, body: { id: u.role.id, menu_ids: idsOf('DeviceList') } });
    expect((await t.call('GET', '/role/list', { key: u.key })).code).toBe(400);
    expect((await t.call('GET', '/equipment/list', { key: u.key })).code).toBe(200);
    await t.call('POST', '/role/edit', { key: admin.key, body: { id: u.role.id, status: false } });
    expect((await t.call('GET', '/equipment/list', { key: u.key })).code).toBe(400);
    expect((await t.call('GET', '/member/get_member', { key: u.key })).datas.role_data).toEqual([]);
  });

  it('a button with hidden 1 in the menu is not granted (spec §6)', async () => {
    const u = await userWithRole('Role adder', ['RoleManage', 'role:add']);
    expect((await t.call('POST', '/role/add', { key: u.key, body: { name: 'By adder' } })).code).toBe(200);
    const buttonId = ids.get('role:add')!;
    await t.call('POST', '/menu/edit', { key: admin.key, body: { id: buttonId, hidden: 1 } });
    const me = await t.call('GET', '/member/get_member', { key: u.key });
    expect(flat(me.datas.role_data).find((n) => n.sign === 'role:add').hidden).toBe(1);
    expect((await t.call('POST', '/role/add', { key: u.key, body: { name: 'By adder 2' } })).code).toBe(400);
    await t.call('POST', '/menu/edit', { key: admin.key, body: { id: buttonId, hidden: 0 } });
    expect((await t.call('POST', '/role/add', { key: u.key, body: { name: 'By adder 2' } })).code).toBe(200);
  });
});

describe('no one raises its own rights', () => {
  let manager: Awaited<ReturnType<typeof userWithRole>>;
  beforeAll(async () => {
    manager = await userWithRole('Role manager', ['RoleManage', 'role:add', 'role:edit', 'role:delete', 'AcupointManage', 'acupoint:add']);
  });

  it('an admin cannot edit or delete the role it holds', async () => {
    const edit = await t.call('POST', '/role/edit', { key: manager.key, body: { id: manager.role.id, menu_ids: idsOf('DeviceList') } });
    expect(edit.code).toBe(400);
    expect(edit.datas.error).toBe('You cannot change the role you hold yourself');
    expect((await t.call('POST', '/role/edit', { key: manager.key, body: { id: manager.role.id, name: 'Renamed' } })).code).toBe(400);
    expect((await t.call('POST', '/role/del', { key: manager.key, body: { id: manager.role.id } })).code).toBe(400);
  });

  it('cannot grant nodes it does not hold; may grant what it holds', async () => {
    const refused = await t.call('POST', '/role/add', { key: manager.key, body: { name: 'Too much', menu_ids: idsOf('AcupointManage', 'acupoint:delete') } });
    expect(refused.code).toBe(400);
    expect(refused.datas.error).toBe('You cannot grant menus or buttons you do not hold yourself');
    expect(refused.datas.fields.menu_ids).toBe('You cannot grant menus or buttons you do not hold yourself');
    const fine = await t.call('POST', '/role/add', { key: manager.key, body: { name: 'Acupoint adder', menu_ids: idsOf('acupoint:add') } });
    expect(fine.code).toBe(200);
    expect(fine.datas.menu_ids.sort()).toEqual(idsOf('Acupoint', 'AcupointManage', 'acupoint:add').sort());
  });

  it('editing another role keeps nodes it already had, but adds only held ones', async () => {
    const auditorId = await roleIdNamed('Auditor');
    const detail = await t.call('GET', '/role/detail', { key: manager.key, query: { id: auditorId } });
    const keep = await t.call('POST', '/role/edit', { key: manager.key, body: { id: auditorId, menu_ids: [...detail.datas.menu_ids, ...idsOf('AcupointManage')] } });
    expect(keep.code).toBe(200);
    const more = await t.call('POST', '/role/edit', { key: manager.key, body: { id: auditorId, menu_ids: [...keep.datas.menu_ids, ...idsOf('MenuManage')] } });
    expect(more.code).toBe(400);
    await t.call('POST', '/role/edit', { key: admin.key, body: { id: auditorId, menu_ids: detail.datas.menu_ids } });
  });

  it('only a super-admin may change the super role', async () => {
    const res = await t.call('POST', '/role/edit', { key: manager.key, body: { id: await roleIdNamed('Super administrator'), name: 'Mine' } });
    expect(res.code).toBe(400);
    expect(res.datas.error).toMatch(/Only a super-admin/);
  });

  it('the grant editor tree marks what the caller may grant', async () => {
    const tree = await t.call('GET', '/role/menu_tree', { key: manager.key });
    const nodes = flat(tree.datas);
    expect(nodes).toHaveLength(ids.size);
    expect(
      nodes
        .filter((n) => n.grantable)
        .map((n) => n.sign)
        .sort(),
    ).toEqual(['Jurisdiction', 'RoleManage', 'role:add', 'role:edit', 'role:delete', 'Acupoint', 'AcupointManage', 'acupoint:add'].sort());
    const all = await t.call('GET', '/role/menu_tree', { key: admin.key });
    expect(flat(all.datas).every((n) => n.grantable)).toBe(true);
  });

  it('a super-admin may edit any role, its own included', async () => {
    const id = await roleIdNamed('Super administrator');
    expect((await t.call('POST', '/role/edit', { key: admin.key, body: { id, description: 'Holds everything' } })).code).toBe(200);
  });
});

describe('view as (role switching)', () => {
  it('issues a new key for the viewed role, ends the old one, and exit restores full rights', async () => {
    const me = await t.login('admin');
    const auditorId = await roleIdNamed('Auditor');
    const res = await t.call('POST', '/role/view_as', { key: me.key, body: { role_id: auditorId } });
    expect(res.code).toBe(200);
    const viewing = res.datas.key as string;
    expect(viewing).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(viewing).not.toBe(me.key);
    expect((await t.call('GET', '/member/get_member', { key: me.key })).code).toBe(999);

    const info = await t.call('GET', '/member/get_member', { key: viewing });
    expect(info.datas.viewing_as).toEqual({ id: auditorId, name: 'Auditor' });
    expect(info.datas.username).toBe('admin');
    expect(signs(info.datas.role_data).sort()).toEqual(
      ['Dashboard', 'DeviceList', 'device:export', 'Inspection', 'InspectionList', 'InspectionReport', 'InspectionResult', 'inspection:export'].sort(),
    );
    // Every check uses the viewed role: reads and writes it lacks are refused, what it holds works.
    expect((await t.call('POST', '/role/add', { key: viewing, body: { name: 'While viewing' } })).code).toBe(400);
    expect((await t.call('GET', '/role/list', { key: viewing })).code).toBe(400);
    expect((await t.call('POST', '/role/view_as', { key: viewing, body: { role_id: auditorId } })).code).toBe(400);
    expect((await t.call('POST', '/member/modify_field', { key: viewing, body: { id: 2, field: 'status', value: 0 } })).code).toBe(400);
    expect((await t.call('GET', '/equipment/list', { key: viewing })).code).toBe(200);

    const exit = await t.call('POST', '/role/view_as_exit', { key: viewing });
    expect(exit.code).toBe(200);
    const normal = exit.datas.key as string;
    expect(normal).not.toBe(viewing);
    expect((await t.call('GET', '/member/get_member', { key: viewing })).code).toBe(999);
    const back = await t.call('GET', '/member/get_member', { key: normal });
    expect(back.datas.viewing_as).toBeNull();
    expect(signs(back.datas.role_data)).toHaveLength(ids.size);
    // Leaving view-as makes a new session that has not re-authenticated: a step-up call asks for it first.
    expect((await t.call('POST', '/role/add', { key: normal, body: { name: 'After viewing' } })).datas.error.reason).toBe('reauth_required');
    expect((await t.call('POST', '/auth/reauth', { key: normal, body: { password: 'demo1234' } })).code).toBe(200);
    expect((await t.call('POST', '/role/add', { key: normal, body: { name: 'After viewing' } })).code).toBe(200);
  });

  it('the viewing session keeps the absolute expiry of the session it replaced', async () => {
    const me = await t.login('admin');
    const { sessions } = await import('../../db/schema');
    const { hashKey } = await import('../../lib/crypto');
    const { eq } = await import('drizzle-orm');
    const soon = new Date(Date.now() + 3600_000);
    await t.db
      .update(sessions)
      .set({ expiresAt: soon })
      .where(eq(sessions.keyHash, hashKey(me.key)));
    const res = await t.call('POST', '/role/view_as', { key: me.key, body: { role_id: await roleIdNamed('Auditor') } });
    const [row] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.keyHash, hashKey(res.datas.key)));
    expect(row!.expiresAt.getTime()).toBe(soon.getTime());
    expect(row!.viewRoleId).toBe(await roleIdNamed('Auditor'));
  });

  it('a viewed role that holds role pages still acts as that role, not as a super-admin', async () => {
    const me = await t.login('admin');
    const managerRole = await roleIdNamed('Role manager');
    const viewing = (await t.call('POST', '/role/view_as', { key: me.key, body: { role_id: managerRole } })).datas.key;
    expect((await t.call('GET', '/role/list', { key: viewing })).code).toBe(200);
    // The viewing session is a new one: re-authenticated first, so the role's own rules answer below.
    expect((await t.call('POST', '/auth/reauth', { key: viewing, body: { password: 'demo1234' } })).code).toBe(200);
    expect((await t.call('POST', '/role/edit', { key: viewing, body: { id: managerRole, name: 'x' } })).code).toBe(400);
    expect((await t.call('POST', '/role/add', { key: viewing, body: { name: 'Viewer grants', menu_ids: idsOf('DeviceList') } })).datas.error).toMatch(/do not hold/);
  });

  it('refuses non-super callers, the super role, unknown roles and exit without viewing', async () => {
    const u = await userWithRole('Switcher', ['RoleManage', 'role:view-as']);
    const res = await t.call('POST', '/role/view_as', { key: u.key, body: { role_id: await roleIdNamed('Auditor') } });
    expect(res.code).toBe(400);
    expect(res.datas.error).toBe('Only a super-admin can view the console as another role');
    const me = await t.login('admin');
    expect((await t.call('POST', '/role/view_as', { key: me.key, body: { role_id: await roleIdNamed('Super administrator') } })).datas.error).toBe('You already hold this role');
    expect((await t.call('POST', '/role/view_as', { key: me.key, body: { role_id: 99999 } })).datas.error).toBe('The role does not exist');
    const exit = await t.call('POST', '/role/view_as_exit', { key: me.key });
    expect(exit.code).toBe(400);
    expect((await t.call('GET', '/member/get_member', { key: me.key })).code).toBe(200);
  });

  it('follows the shared rules: not while viewing, not a disabled role', async () => {
    const me = await t.login('admin');
    const disabled = await t.call('POST', '/role/add', { key: admin.key, body: { name: 'Switched off', status: 0, menu_ids: idsOf('DeviceList') } });
    const refused = await t.call('POST', '/role/view_as', { key: me.key, body: { role_id: disabled.datas.id } });
    expect(refused.code).toBe(400);
    expect(refused.datas.fields).toEqual({ role_id: 'This role is disabled and grants nothing: enable it first' });
    // A viewed role holding role:view-as still cannot switch on: the viewer returns to its own role first.
    const switcher = await t.call('POST', '/role/add', { key: admin.key, body: { name: 'Switch holder', menu_ids: idsOf('RoleManage', 'role:view-as') } });
    const viewing = (await t.call('POST', '/role/view_as', { key: me.key, body: { role_id: switcher.datas.id } })).datas.key;
    const again = await t.call('POST', '/role/view_as', { key: viewing, body: { role_id: await roleIdNamed('Auditor') } });
    expect(again.datas.error).toBe('Return to your own role first');
    expect((await t.call('POST', '/role/view_as_exit', { key: viewing })).code).toBe(200);
    await t.call('POST', '/role/del', { key: admin.key, body: { id: switcher.datas.id } });
    await t.call('POST', '/role/del', { key: admin.key, body: { id: disabled.datas.id } });
  });

  it('deleting a role ends the sessions viewing as it', async () => {
    const spare = await t.call('POST', '/role/add', { key: admin.key, body: { name: 'Spare', menu_ids: idsOf('DeviceList') } });
    const me = await t.login('admin');
    const viewing = (await t.call('POST', '/role/view_as', { key: me.key, body: { role_id: spare.datas.id } })).datas.key;
    expect((await t.call('GET', '/equipment/list', { key: viewing })).code).toBe(200);
    expect((await t.call('POST', '/role/del', { key: admin.key, body: { id: spare.datas.id } })).code).toBe(200);
    expect((await t.call('GET', '/equipment/list', { key: viewing })).code).toBe(999);
  });
});

describe('institutions', () => {
  it('a grade-3 institution is refused on every role endpoint', async () => {
    const inst = await t.login('clinic3', 'institution');
    const calls = [
      ['GET', '/role/list'],
      ['GET', '/role/detail'],
      ['GET', '/role/menu_tree'],
      ['GET', '/role/options'],
      ['POST', '/role/add'],
      ['POST', '/role/edit'],
      ['POST', '/role/del'],
      ['POST', '/role/view_as'],
      ['POST', '/role/view_as_exit'],
    ] as const;
    for (const [method, path] of calls) {
      const res = await t.call(method, path, { key: inst.key, query: { id: 1 }, body: { id: 1, role_id: 1, name: 'x' } });
      expect(res.code, path).toBe(400);
      expect(res.datas.error, path).toBe('You do not have permission for this action');
    }
  });
});

describe('audit trail', () => {
  it('records a role edit with its grants before and after; view as is not a record write', async () => {
    const role = await t.call('POST', '/role/add', { key: admin.key, body: { name: 'Audited role', menu_ids: idsOf('DeviceList') } });
    const id = role.datas.id as number;
    const edit = await t.call('POST', '/role/edit', { key: admin.key, body: { id, description: 'now with inspections', menu_ids: idsOf('DeviceList', 'InspectionList') } });
    expect(edit.code).toBe(200);
    const [row] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, 'jurisdiction.roleEdit'), eq(auditLog.recordId, id)));
    expect(row).toMatchObject({ recordType: 'role', path: '/role/edit', actorId: admin.id });
    const before = row!.before as { description: string; menu_ids: number[] };
    const after = row!.after as { description: string; menu_ids: number[] };
    expect(before.description).toBe('');
    expect(after.description).toBe('now with inspections');
    expect(after.menu_ids).toEqual(expect.arrayContaining(idsOf('DeviceList', 'InspectionList')));
    expect(before.menu_ids).not.toContain(idsOf('InspectionList')[0]);
    expect(row!.input).toMatchObject({ id, description: 'now with inspections' });

    const del = await t.call('POST', '/role/del', { key: admin.key, body: { id } });
    expect(del.code).toBe(200);
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.recordType, 'role'), eq(auditLog.recordId, id)))
      .orderBy(asc(auditLog.id));
    expect(rows.map((r) => r.endpoint)).toEqual(['jurisdiction.roleAdd', 'jurisdiction.roleEdit', 'jurisdiction.roleRemove']);
    expect(rows[2]!.after).toBeNull();

    const me = await t.login('admin');
    expect((await t.call('POST', '/role/view_as', { key: me.key, body: { role_id: await roleIdNamed('Auditor') } })).code).toBe(200);
    expect(await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'jurisdiction.viewAs'))).toEqual([]);
  });
});

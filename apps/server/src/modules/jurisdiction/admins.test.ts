import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/harness';
import { adminUsers, auditLog } from '../../db/schema';
import type { Auth } from '../../http/access';
import { assertAnotherSuperAdmin } from '../../lib/accounts';
import { readParams } from '../../lib/params';
import { adminEdit, adminRemove } from './admins';

let t: TestApp;
let admin: { key: string; id: number };
let superRoleId: number;
let auditorRoleId: number;
let ids: Map<string, number>;
const flat = (nodes: any[]): any[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
const idsOf = (...signs: string[]) => signs.map((s) => ids.get(s)!);
const PASSWORD = 'secret-pass-1';

const addAdmin = (body: Record<string, unknown>, key = admin.key) => t.call('POST', '/admin/add', { key, body: { password: PASSWORD, ...body } });
const modify = (key: string, id: number, field: string, value: unknown) => t.call('POST', '/member/modify_field', { key, body: { id, field, value } });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  const roles = await t.call('GET', '/admin/role_options', { key: admin.key });
  superRoleId = roles.datas.find((r: any) => r.is_super).id;
  auditorRoleId = roles.datas.find((r: any) => r.name === 'Auditor').id;
  ids = new Map(flat((await t.call('GET', '/menu/tree', { key: admin.key })).datas).map((n) => [n.sign, n.id]));
});
afterAll(async () => {
  await t?.close();
});

describe('admin list and detail', () => {
  it('lists users with role name, status and last sign-in; filters by keyword, role and status', async () => {
    const res = await t.call('GET', '/admin/list', { key: admin.key, query: { sort: 'username', order: 'ascend' } });
    expect(res.code).toBe(200);
    expect(res.datas.total).toBe(2);
    expect(res.datas.list.map((u: any) => u.username)).toEqual(['admin', 'auditor']);
    const me = res.datas.list[0];
    expect(me).toMatchObject({ id: admin.id, name: 'Platform Administrator', phone: '13700137000', role_id: superRoleId, role_name: 'Super administrator', role_is_super: true, status: 1 });
    expect(Date.parse(me.last_login_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(res.datas.list[1].last_login_at).toBeNull();
    expect(me).not.toHaveProperty('password_hash');
    expect(res.raw).not.toMatch(/argon2/);

    const byPhone = await t.call('GET', '/admin/list', { key: admin.key, query: { keyword: '0137001' } });
    expect(byPhone.datas.list.map((u: any) => u.username)).toEqual(['auditor']);
    const byName = await t.call('GET', '/admin/list', { key: admin.key, query: { keyword: 'PLATFORM' } });
    expect(byName.datas.list.map((u: any) => u.username)).toEqual(['admin']);
    const wildcard = await t.call('GET', '/admin/list', { key: admin.key, query: { keyword: '%' } });
    expect(wildcard.datas.total).toBe(0);
    const byRole = await t.call('GET', '/admin/list', { key: admin.key, query: { role_id: auditorRoleId } });
    expect(byRole.datas.list.map((u: any) => u.username)).toEqual(['auditor']);
    const disabled = await t.call('GET', '/admin/list', { key: admin.key, query: { status: '0' } });
    expect(disabled.datas.total).toBe(0);
    const paged = await t.call('GET', '/admin/list', { key: admin.key, query: { page: 2, limit: 1, sort: 'username', order: 'ascend' } });
    expect(paged.datas.list.map((u: any) => u.username)).toEqual(['auditor']);
  });

  it('detail answers one user', async () => {
    const res = await t.call('GET', '/admin/detail', { key: admin.key, query: { id: admin.id } });
    expect(res.datas).toMatchObject({ username: 'admin', role_is_super: true });
    expect((await t.call('GET', '/admin/detail', { key: admin.key, query: { id: 99999 } })).code).toBe(400);
  });
});

describe('adding and editing admin users', () => {
  it('adds a user who can sign in with the initial password', async () => {
    const res = await addAdmin({ username: 'Operator1', name: 'Operator One', phone: '13600000001', role_id: auditorRoleId });
    expect(res.code).toBe(200);
    expect(res.datas).toMatchObject({ username: 'Operator1', name: 'Operator One', role_name: 'Auditor', status: 1, last_login_at: null });
    const session = await t.login('operator1', 'admin', PASSWORD);
    expect((await t.call('GET', '/member/get_member', { key: session.key })).datas.username).toBe('Operator1');
  });

  it('refuses a taken username (any case), a short password, an unknown role and bad fields', async () => {
    const dup = await addAdmin({ username: 'ADMIN', name: 'Dup', role_id: auditorRoleId });
    expect(dup.code).toBe(400);
    expect(dup.datas.error).toBe('ADMIN already exists');
    expect(dup.datas.fields).toEqual({ username: 'ADMIN already exists' });
    const short = await addAdmin({ username: 'shorty', name: 'Short', role_id: auditorRoleId, password: 'abc' });
    expect(short.datas.error).toBe('The password must have at least 8 characters');
    expect(short.datas.fields.password).toBe('The password must have at least 8 characters');
    const common = await addAdmin({ username: 'commonpw', name: 'Common', role_id: auditorRoleId, password: 'letmein123' });
    expect(common.datas.fields.password).toMatch(/most commonly used/);
    const blank = await addAdmin({ username: 'blank', name: 'Blank', role_id: auditorRoleId, password: '   ' });
    expect(blank.datas.error).toBe('The password cannot be empty');
    const role = await addAdmin({ username: 'norole', name: 'No role', role_id: 99999 });
    expect(role.datas.error).toBe('The role does not exist');
    expect(role.datas.fields.role_id).toBe('The role does not exist');
    const bad = await addAdmin({ username: 'a b', name: '', phone: 'call me', role_id: auditorRoleId });
    expect(bad.code).toBe(400);
    expect(Object.keys(bad.datas.fields).sort()).toEqual(['name', 'phone', 'username']);
  });

  it('edits name, phone and role; the new role applies to the next request', async () => {
    const list = await t.call('GET', '/admin/list', { key: admin.key, query: { keyword: 'operator1' } });
    const id = list.datas.list[0].id;
    const session = await t.login('operator1', 'admin', PASSWORD);
    expect((await t.call('GET', '/equipment/list', { key: session.key })).code).toBe(200);
    const role = await t.call('POST', '/role/add', { key: admin.key, body: { name: 'Acupoints only', menu_ids: idsOf('AcupointManage') } });
    const res = await t.call('POST', '/admin/edit', { key: admin.key, body: { id, name: 'Operator 1', phone: '', role_id: role.datas.id } });
    expect(res.code).toBe(200);
    expect(res.datas).toMatchObject({ name: 'Operator 1', phone: '', role_id: role.datas.id, role_name: 'Acupoints only' });
    expect((await t.call('GET', '/equipment/list', { key: session.key })).code).toBe(400);
    expect((await t.call('POST', '/admin/edit', { key: admin.key, body: { id: 99999, name: 'x', role_id: auditorRoleId } })).code).toBe(400);
  });

  it('an admin cannot change its own role but may edit its own name', async () => {
    const res = await t.call('POST', '/admin/edit', { key: admin.key, body: { id: admin.id, name: 'Me', role_id: auditorRoleId } });
    expect(res.datas.error).toBe('You cannot change the role you hold yourself');
    const name = await t.call('POST', '/admin/edit', { key: admin.key, body: { id: admin.id, name: 'Platform Administrator', phone: '13700137000', role_id: superRoleId } });
    expect(name.code).toBe(200);
  });

  it('deletes a user and ends its sessions; nobody deletes itself', async () => {
    const added = await addAdmin({ username: 'temp', name: 'Temp', role_id: auditorRoleId });
    const session = await t.login('temp', 'admin', PASSWORD);
    expect((await t.call('POST', '/admin/del', { key: admin.key, body: { id: added.datas.id } })).code).toBe(200);
    expect((await t.call('GET', '/member/get_member', { key: session.key })).code).toBe(999);
    expect((await t.call('GET', '/admin/detail', { key: admin.key, query: { id: added.datas.id } })).code).toBe(400);
    const self = await t.call('POST', '/admin/del', { key: admin.key, body: { id: admin.id } });
    expect(self.datas.error).toBe('You cannot delete your own account');
  });
});

describe('status and password through /member/modify_field', () => {
  it('disabling a user ends its sessions at once; enabling lets it sign in again', async () => {
    const user = await addAdmin({ username: 'toggle', name: 'Toggle', role_id: auditorRoleId });
    const session = await t.login('toggle', 'admin', PASSWORD);
    expect((await modify(admin.key, user.datas.id, 'status', 0)).code).toBe(200);
    expect((await t.call('GET', '/equipment/list', { key: session.key })).code).toBe(999);
    const login = await t.call('POST', '/login/login', { body: { username: 'toggle', password: PASSWORD } });
    expect(login.datas.error).toBe('This account is disabled; contact your administrator');
    expect((await t.call('GET', '/admin/list', { key: admin.key, query: { status: '0' } })).datas.list.map((u: any) => u.username)).toEqual(['toggle']);
    expect((await modify(admin.key, user.datas.id, 'status', '1')).code).toBe(200);
    await t.login('toggle', 'admin', PASSWORD);
    expect((await modify(admin.key, user.datas.id, 'status', '')).code).toBe(400);
    expect((await modify(admin.key, user.datas.id, 'status', 2)).code).toBe(400);
    expect((await modify(admin.key, 99999, 'status', 0)).code).toBe(400);
  });

  it("resetting another user's password ends all its sessions", async () => {
    const list = await t.call('GET', '/admin/list', { key: admin.key, query: { keyword: 'toggle' } });
    const id = list.datas.list[0].id;
    const session = await t.login('toggle', 'admin', PASSWORD);
    expect((await modify(admin.key, id, 'password', 'short')).datas.error).toMatch(/at least 8/);
    expect((await modify(admin.key, id, 'password', 'reset-pass-2')).code).toBe(200);
    expect((await t.call('GET', '/member/get_member', { key: session.key })).code).toBe(999);
    await t.login('toggle', 'admin', 'reset-pass-2');
  });

  it('the status and reset buttons are checked', async () => {
    const role = await t.call('POST', '/role/add', { key: admin.key, body: { name: 'User editor', menu_ids: idsOf('AdminUserManage', 'admin:edit') } });
    await addAdmin({ username: 'editor', name: 'Editor', role_id: role.datas.id });
    const editor = await t.login('editor', 'admin', PASSWORD);
    const target = (await t.call('GET', '/admin/list', { key: admin.key, query: { keyword: 'toggle' } })).datas.list[0].id;
    expect((await modify(editor.key, target, 'status', 0)).datas.error).toBe('You do not have permission for this action');
    expect((await modify(editor.key, target, 'password', 'another-pass-3')).datas.error).toBe('You do not have permission for this action');
    // Its own password it may change, and that keeps its own session.
    expect((await modify(editor.key, editor.id, 'password', 'editor-pass-4')).code).toBe(200);
    expect((await t.call('GET', '/admin/list', { key: editor.key })).code).toBe(200);
    expect((await t.call('POST', '/admin/add', { key: editor.key, body: { username: 'x1', name: 'x', role_id: auditorRoleId, password: PASSWORD } })).code).toBe(400);
  });
});

describe('super-admins', () => {
  let deputy: { key: string; id: number };
  beforeAll(async () => {
    // A non-super admin holding every admin-user button and the auditor's pages.
    const role = await t.call('POST', '/role/add', {
      key: admin.key,
      body: { name: 'Deputy', menu_ids: idsOf('AdminUserManage', 'admin:add', 'admin:edit', 'admin:delete', 'admin:status', 'admin:reset-password', 'DeviceList') },
    });
    await addAdmin({ username: 'deputy', name: 'Deputy', role_id: role.datas.id });
    deputy = await t.login('deputy', 'admin', PASSWORD);
  });

  it('only a super-admin may assign the super role', async () => {
    const add = await addAdmin({ username: 'wannabe', name: 'Wannabe', role_id: superRoleId }, deputy.key);
    expect(add.datas.error).toBe('Only a super-admin can assign the super-admin role or manage super-admin accounts');
    const target = (await t.call('GET', '/admin/list', { key: admin.key, query: { keyword: 'toggle' } })).datas.list[0];
    const edit = await t.call('POST', '/admin/edit', { key: deputy.key, body: { id: target.id, name: target.name, role_id: superRoleId } });
    expect(edit.datas.error).toMatch(/Only a super-admin/);
    const bySuper = await addAdmin({ username: 'admin2', name: 'Second admin', role_id: superRoleId });
    expect(bySuper.datas).toMatchObject({ role_is_super: true });
  });

  it('a non-super admin cannot hand out a role holding more than it holds', async () => {
    const res = await addAdmin({ username: 'reader', name: 'Reader', role_id: auditorRoleId }, deputy.key);
    expect(res.datas.error).toBe('You cannot grant menus or buttons you do not hold yourself');
    const small = await t.call('POST', '/role/add', { key: admin.key, body: { name: 'Devices only', menu_ids: idsOf('DeviceList') } });
    const ok = await addAdmin({ username: 'reader', name: 'Reader', role_id: small.datas.id }, deputy.key);
    expect(ok.code).toBe(200);
  });

  it('a non-super admin cannot edit, delete, disable or reset the password of a super-admin', async () => {
    const before = await t.login('admin');
    expect((await t.call('POST', '/admin/edit', { key: deputy.key, body: { id: admin.id, name: 'Hacked', role_id: superRoleId } })).datas.error).toMatch(/Only a super-admin/);
    expect((await t.call('POST', '/admin/del', { key: deputy.key, body: { id: admin.id } })).datas.error).toMatch(/Only a super-admin/);
    expect((await modify(deputy.key, admin.id, 'status', 0)).datas.error).toMatch(/Only a super-admin/);
    expect((await modify(deputy.key, admin.id, 'password', 'taken-over-1')).datas.error).toMatch(/Only a super-admin/);
    expect((await t.call('GET', '/member/get_member', { key: before.key })).code).toBe(200);
    await t.login('admin');
  });

  it('a super-admin may demote, disable and delete another super-admin while one remains', async () => {
    const second = (await t.call('GET', '/admin/list', { key: admin.key, query: { keyword: 'admin2' } })).datas.list[0];
    const session = await t.login('admin2', 'admin', PASSWORD);
    // admin2 acts on admin: two enabled super-admins exist, so this is allowed, and admin2 keeps the role.
    expect((await modify(session.key, admin.id, 'status', 0)).code).toBe(200);
    expect((await t.call('GET', '/member/get_member', { key: admin.key })).code).toBe(999);
    expect((await modify(session.key, admin.id, 'status', 1)).code).toBe(200);
    admin = await t.login('admin');
    const demoted = await t.call('POST', '/admin/edit', { key: admin.key, body: { id: second.id, name: second.name, role_id: auditorRoleId } });
    expect(demoted.datas.role_is_super).toBe(false);
    // Demoted at once: admin2's session no longer has the admin pages.
    expect((await t.call('GET', '/admin/list', { key: session.key })).code).toBe(400);
  });

  it('the last enabled super-admin cannot be disabled, deleted or moved to another role', async () => {
    // Through the API an enabled super-admin caller always remains, so the rule shows in the service
    // (e.g. a caller whose own account was disabled a moment ago by someone else).
    await expect(assertAnotherSuperAdmin(t.db, admin.id)).rejects.toMatchObject({ messageKey: 'lastSuperAdmin' });
    const other = await addAdmin({ username: 'admin3', name: 'Third admin', role_id: superRoleId });
    await assertAnotherSuperAdmin(t.db, admin.id);
    await t.db.update(adminUsers).set({ status: 0 }).where(eq(adminUsers.id, other.datas.id));
    await expect(assertAnotherSuperAdmin(t.db, admin.id)).rejects.toMatchObject({ messageKey: 'lastSuperAdmin' });

    const staleAuth: Auth = {
      sessionId: 0,
      kind: 'admin',
      restricted: false,
      viewer: { isAdmin: true, grade: 0, granted: null },
      admin: { id: other.datas.id, roleId: superRoleId, isSuper: true, viewRoleId: null, username: 'admin3' },
      params: await readParams(t.db),
    };
    await expect(adminRemove(t.db, staleAuth, { id: admin.id })).rejects.toMatchObject({ messageKey: 'lastSuperAdmin' });
    await expect(adminEdit(t.db, staleAuth, { id: admin.id, name: 'x', phone: '', role_id: auditorRoleId })).rejects.toMatchObject({ messageKey: 'lastSuperAdmin' });
    // Disabling goes through modify_field, which runs the same check.
    const { modifyField } = await import('../auth');
    await expect(modifyField(t.db, staleAuth, { id: admin.id, field: 'status', value: 0 })).rejects.toMatchObject({ messageKey: 'lastSuperAdmin' });
    const list = await t.call('GET', '/admin/list', { key: admin.key, query: { keyword: 'admin', sort: 'username', order: 'ascend' } });
    expect(list.datas.list.find((u: any) => u.username === 'admin')).toMatchObject({ status: 1, role_is_super: true });
    expect(list.code).toBe(200);
  });
});

describe('access', () => {
  it('a grade-3 institution is refused on every admin-user endpoint', async () => {
    const inst = await t.login('clinic3', 'institution');
    const calls = [
      ['GET', '/admin/list'],
      ['GET', '/admin/detail'],
      ['GET', '/admin/role_options'],
      ['POST', '/admin/add'],
      ['POST', '/admin/edit'],
      ['POST', '/admin/del'],
    ] as const;
    for (const [method, path] of calls) {
      const res = await t.call(method, path, { key: inst.key, query: { id: admin.id }, body: { id: admin.id, username: 'inst', name: 'x', role_id: superRoleId, password: PASSWORD } });
      expect(res.code, path).toBe(400);
      expect(res.datas.error, path).toBe('You do not have permission for this action');
    }
    expect((await modify(inst.key, admin.id, 'status', 0)).code).toBe(400);
    expect((await modify(inst.key, admin.id, 'password', 'inst-pass-123')).code).toBe(400);
  });

  it('the auditor (no admin-user page) is refused too', async () => {
    const auditor = await t.login('auditor');
    expect((await t.call('GET', '/admin/list', { key: auditor.key })).code).toBe(400);
    expect((await t.call('GET', '/admin/role_options', { key: auditor.key })).code).toBe(400);
    expect((await modify(auditor.key, admin.id, 'status', 0)).code).toBe(400);
  });
});

describe('audit trail', () => {
  it('records an admin edit with the account before and after, never its password hash', async () => {
    const created = await addAdmin({ username: 'audited1', name: 'Audited One', phone: '123', role_id: auditorRoleId });
    expect(created.code).toBe(200);
    const id = created.datas.id as number;
    expect((await t.call('POST', '/admin/edit', { key: admin.key, body: { id, name: 'Audited Two', phone: '456', role_id: auditorRoleId } })).code).toBe(200);
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.recordType, 'admin'), eq(auditLog.recordId, id)))
      .orderBy(asc(auditLog.id));
    expect(rows.map((r) => r.endpoint)).toEqual(['jurisdiction.adminAdd', 'jurisdiction.adminEdit']);
    const [add, edit] = rows as [(typeof rows)[0], (typeof rows)[0]];
    expect(add.before).toBeNull();
    expect(add.after).toMatchObject({ id, username: 'audited1', name: 'Audited One', phone: '123', role_id: auditorRoleId, status: 1 });
    // The initial password is in the input only as redacted.
    expect(add.input).toMatchObject({ username: 'audited1', password: '[redacted]' });
    expect(edit.before).toMatchObject({ name: 'Audited One', phone: '123' });
    expect(edit.after).toMatchObject({ name: 'Audited Two', phone: '456' });
    const text = JSON.stringify(rows);
    expect(text).not.toMatch(/argon2|password_hash|passwordHash/);
    expect(text).not.toContain(PASSWORD);
  });

  it('records a password reset through modify_field without the password', async () => {
    const created = await addAdmin({ username: 'audited2', name: 'Audited Reset', role_id: auditorRoleId });
    const id = created.datas.id as number;
    expect((await modify(admin.key, id, 'password', 'fresh-secret-77')).code).toBe(200);
    expect((await modify(admin.key, id, 'status', 0)).code).toBe(200);
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, 'auth.modifyField'), eq(auditLog.recordId, id)))
      .orderBy(asc(auditLog.id));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ recordType: 'admin', path: '/member/modify_field', actorId: admin.id });
    expect(rows[0]!.input).toEqual({ id, field: 'password', password: '[redacted]' });
    expect(rows[1]!.before).toMatchObject({ id, status: 1 });
    expect(rows[1]!.after).toMatchObject({ id, status: 0 });
    const text = JSON.stringify(rows);
    expect(text).not.toContain('fresh-secret-77');
    expect(text).not.toMatch(/argon2|password_hash|passwordHash/);
  });
});

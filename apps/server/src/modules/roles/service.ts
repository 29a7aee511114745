import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import type { GrantNode, ListResult, RoleAddBody, RoleDetail, RoleEditBody, RoleListQuery, RoleOption, RoleRow, SessionKeyAnswer } from '@app/contract';
import type { Db, Tx } from '../../db/client';
import { adminUsers, menus, roleMenus, roles, sessions } from '../../db/schema';
import type { Auth } from '../../http/access';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { pagedList } from '../../lib/crud';
import { fieldError } from '../../lib/form';
import { likeEscape, sortBy } from '../../lib/list';
import { createSession } from '../auth/sessions';
import { allMenus, buildTree, toMenuNode, withAncestors } from '../menus/service';

/**
 * Who a platform admin acts as. While a super-admin views the console as another role it acts as that
 * role in every respect (grants, "own role", super-admin exemptions), exactly as the access plugin does.
 */
export interface Actor { adminId: number; roleId: number; isSuper: boolean }

export function actorOf(auth: Auth): Actor {
  if (auth.kind !== 'admin' || !auth.admin) throw forbidden();
  const a = auth.admin;
  return { adminId: a.id, roleId: a.viewRoleId ?? a.roleId, isSuper: a.isSuper && !a.viewRoleId };
}

/** Node ids a role holds: its grants and the nodes above them; every node for the super role. */
export async function roleMenuIds(db: Tx, role: { id: number; isSuper: boolean }, all?: { id: number; parentId: number | null }[]): Promise<Set<number>> {
  const nodes = all ?? await db.select({ id: menus.id, parentId: menus.parentId }).from(menus);
  if (role.isSuper) return new Set(nodes.map((m) => m.id));
  const granted = await db.select({ id: roleMenus.menuId }).from(roleMenus).where(eq(roleMenus.roleId, role.id));
  return withAncestors(granted.map((g) => g.id), nodes);
}

/** What the actor may grant: what its (effective) role holds, everything for a super-admin. */
export async function heldMenuIds(db: Tx, actor: Actor, all?: { id: number; parentId: number | null }[]): Promise<Set<number>> {
  const [role] = await db.select().from(roles).where(eq(roles.id, actor.roleId));
  if (!role || !role.status) return new Set();
  return roleMenuIds(db, { id: role.id, isSuper: actor.isSuper || role.isSuper }, all);
}

/** Refuses when `wanted` holds a node the actor does not hold itself (no one raises rights above its own). */
export async function assertCanGrant(db: Tx, actor: Actor, wanted: Iterable<number>, field = 'menu_ids') {
  if (actor.isSuper) return;
  const held = await heldMenuIds(db, actor);
  for (const id of wanted) if (!held.has(id)) throw fieldError(field, 'grantNotHeld');
}

// Qualified by hand: drizzle leaves columns unqualified in a one-table select, which would bind to admin_users here.
const userCount = sql<number>`(select count(*)::int from ${adminUsers} where ${adminUsers}.role_id = ${roles}.id)`;

const SORT_COLUMNS = { name: roles.name, status: roles.status, created_at: roles.createdAt, user_count: userCount } as const;

type RoleDb = typeof roles.$inferSelect;
const toRow = (r: RoleDb, users: number): RoleRow => ({
  id: r.id, name: r.name, description: r.description, status: r.status, is_super: r.isSuper, user_count: Number(users), created_at: r.createdAt.toISOString(),
});

export async function listRoles(db: Tx, q: RoleListQuery): Promise<ListResult<RoleRow>> {
  const conds: (SQL | undefined)[] = [];
  if (q.keyword) {
    const kw = `%${likeEscape(q.keyword.toLowerCase())}%`;
    conds.push(sql`(lower(${roles.name}) like ${kw} or lower(${roles.description}) like ${kw})`);
  }
  if (q.status !== undefined) conds.push(eq(roles.status, q.status));
  const where = and(...conds);
  return pagedList(db, q, sql`from ${roles} where ${where ?? sql`true`}`, async (limit, offset) =>
    (await db.select({ role: roles, users: userCount }).from(roles).where(where).orderBy(...sortBy(SORT_COLUMNS, q, 'created_at', roles.id)).limit(limit).offset(offset))
      .map((r) => toRow(r.role, r.users)));
}

async function loadRole(db: Tx, id: number, lock = false): Promise<RoleDb> {
  const query = db.select().from(roles).where(eq(roles.id, id));
  const [role] = lock ? await query.for('update') : await query;
  if (!role) throw notFound();
  return role;
}

export async function roleDetail(db: Tx, id: number): Promise<RoleDetail> {
  const role = await loadRole(db, id);
  const [users] = await db.select({ n: count() }).from(adminUsers).where(eq(adminUsers.roleId, id));
  const ids = role.isSuper
    ? (await db.select({ id: menus.id }).from(menus)).map((m) => m.id)
    : (await db.select({ id: roleMenus.menuId }).from(roleMenus).where(eq(roleMenus.roleId, id))).map((m) => m.id);
  return { ...toRow(role, users!.n), menu_ids: ids.sort((a, b) => a - b) };
}

/** Roles for pickers (admin user form, view-as): every role, the super role first. */
export async function roleOptions(db: Tx): Promise<RoleOption[]> {
  const rows = await db.select().from(roles).orderBy(sql`${roles.isSuper} desc`, asc(roles.name), asc(roles.id));
  return rows.map((r) => ({ id: r.id, name: r.name, status: r.status, is_super: r.isSuper }));
}

/** The whole menu tree for the grant editor, each node marked with whether the caller may grant it. */
export async function grantTree(db: Tx, auth: Auth): Promise<GrantNode[]> {
  const all = await allMenus(db);
  const held = await heldMenuIds(db, actorOf(auth), all);
  return buildTree(all.map((m): GrantNode => ({ ...toMenuNode(m), grantable: held.has(m.id), children: [] })));
}

async function assertNameFree(db: Tx, name: string, selfId?: number) {
  const [row] = await db.select({ id: roles.id }).from(roles).where(eq(sql`lower(${roles.name})`, name.toLowerCase()));
  if (row && row.id !== selfId) throw fieldError('name', 'duplicate', { field: name });
}

/** Checks the ids exist and adds the nodes above them. */
async function expandGrants(db: Tx, ids: number[]): Promise<Set<number>> {
  const all = await db.select({ id: menus.id, parentId: menus.parentId }).from(menus);
  const known = new Set(all.map((m) => m.id));
  const unknown = [...new Set(ids)].filter((id) => !known.has(id));
  if (unknown.length) throw fieldError('menu_ids', 'unknownMenus', { ids: unknown.slice(0, 20).join(', ') });
  return withAncestors(ids, all);
}

async function writeGrants(db: Tx, roleId: number, ids: Set<number>) {
  await db.delete(roleMenus).where(eq(roleMenus.roleId, roleId));
  if (ids.size) await db.insert(roleMenus).values([...ids].map((menuId) => ({ roleId, menuId })));
}

export async function addRole(db: Db, auth: Auth, input: RoleAddBody): Promise<RoleDetail> {
  const actor = actorOf(auth);
  return db.transaction(async (tx) => {
    await assertNameFree(tx, input.name);
    const grants = await expandGrants(tx, input.menu_ids ?? []);
    await assertCanGrant(tx, actor, grants);
    const [role] = await tx.insert(roles).values({ name: input.name, description: input.description, status: input.status }).returning();
    await writeGrants(tx, role!.id, grants);
    return roleDetail(tx, role!.id);
  });
}

/**
 * Edits a role. The super role keeps every node and stays enabled (only a super-admin may rename it);
 * nobody but a super-admin edits the role it holds; new grants must be nodes the caller holds itself.
 */
export async function editRole(db: Db, auth: Auth, input: RoleEditBody): Promise<RoleDetail> {
  const actor = actorOf(auth);
  return db.transaction(async (tx) => {
    const role = await loadRole(tx, input.id, true);
    if (role.isSuper) {
      if (!actor.isSuper) throw badRequest('superOnly');
      if (input.status === false) throw fieldError('status', 'superRoleFixed');
      if (input.menu_ids) {
        // A round trip of the detail (every node) is accepted; anything else would change its grants.
        const all = new Set((await tx.select({ id: menus.id }).from(menus)).map((m) => m.id));
        const sent = new Set(input.menu_ids);
        if (sent.size !== all.size || [...sent].some((id) => !all.has(id))) throw fieldError('menu_ids', 'superRoleFixed');
      }
    } else {
      if (!actor.isSuper && role.id === actor.roleId) throw badRequest('ownRole');
      if (input.menu_ids) {
        const grants = await expandGrants(tx, input.menu_ids);
        const current = new Set((await tx.select({ id: roleMenus.menuId }).from(roleMenus).where(eq(roleMenus.roleId, role.id))).map((r) => r.id));
        await assertCanGrant(tx, actor, [...grants].filter((id) => !current.has(id)));
        await writeGrants(tx, role.id, grants);
      }
    }
    if (input.name !== undefined) await assertNameFree(tx, input.name, role.id);
    const set: Partial<RoleDb> = {};
    if (input.name !== undefined) set.name = input.name;
    if (input.description !== undefined) set.description = input.description;
    if (input.status !== undefined && !role.isSuper) set.status = input.status;
    if (Object.keys(set).length) await tx.update(roles).set(set).where(eq(roles.id, role.id));
    return roleDetail(tx, role.id);
  });
}

/** Deletes a role no admin holds (never the super role); sessions viewing the console as it end. */
export async function deleteRole(db: Db, auth: Auth, id: number): Promise<void> {
  const actor = actorOf(auth);
  await db.transaction(async (tx) => {
    const role = await loadRole(tx, id, true);
    if (role.isSuper) throw badRequest('superRoleFixed');
    if (!actor.isSuper && role.id === actor.roleId) throw badRequest('ownRole');
    const [users] = await tx.select({ n: count() }).from(adminUsers).where(eq(adminUsers.roleId, id));
    if (users!.n > 0) throw badRequest('roleInUse', { count: users!.n });
    await tx.delete(sessions).where(eq(sessions.viewRoleId, id));
    await tx.delete(roles).where(eq(roles.id, id));
  });
}

/**
 * Role switching (spec §4, "view as"): a super-admin gets a new session that carries the viewed role
 * and the old one ends. The new session keeps the old one's absolute expiry.
 */
export async function viewAs(db: Db, auth: Auth, ip: string, roleId: number): Promise<SessionKeyAnswer> {
  if (auth.kind !== 'admin' || !auth.admin) throw forbidden();
  if (!auth.admin.isSuper) throw badRequest('viewAsNotSuper');
  return db.transaction(async (tx) => {
    const [role] = await tx.select().from(roles).where(eq(roles.id, roleId));
    if (!role) throw fieldError('role_id', 'roleMissing');
    if (role.isSuper) throw fieldError('role_id', 'viewAsSuperRole');
    return switchSession(tx, auth, ip, role.id);
  });
}

/** Leaves "view as": a new normal session for the same admin; the viewing one ends. */
export async function viewAsExit(db: Db, auth: Auth, ip: string): Promise<SessionKeyAnswer> {
  if (auth.kind !== 'admin' || !auth.admin) throw forbidden();
  return db.transaction(async (tx) => {
    const [session] = await tx.select({ viewRoleId: sessions.viewRoleId }).from(sessions).where(eq(sessions.id, auth.sessionId));
    if (!session?.viewRoleId) throw badRequest('notViewing');
    return switchSession(tx, auth, ip, null);
  });
}

async function switchSession(tx: Tx, auth: Auth, ip: string, viewRoleId: number | null): Promise<SessionKeyAnswer> {
  const [old] = await tx.delete(sessions).where(eq(sessions.id, auth.sessionId)).returning({ expiresAt: sessions.expiresAt });
  if (!old) throw forbidden();
  const { key } = await createSession(tx, { kind: 'admin', subjectId: auth.admin!.id, ip, viewRoleId, expiresAt: old.expiresAt });
  return { key };
}

/** For the admin user form: whether the actor may hand out a role (super role: super-admins only). */
export async function assertCanAssignRole(db: Tx, actor: Actor, roleId: number): Promise<RoleDb> {
  const [role] = await db.select().from(roles).where(eq(roles.id, roleId));
  if (!role) throw fieldError('role_id', 'roleMissing');
  if (role.isSuper && !actor.isSuper) throw fieldError('role_id', 'superOnly');
  if (!actor.isSuper) await assertCanGrant(db, actor, await roleMenuIds(db, role), 'role_id');
  return role;
}

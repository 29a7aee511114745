import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import {
  firstNotGrantable,
  WHY_MESSAGE,
  whyNotDeleteRole,
  whyNotEditRole,
  whyNotToggleRole,
  whyNotViewAs,
  type GrantNode,
  type IdInput,
  type ListResult,
  type RoleAddBody,
  type RoleDetail,
  type RoleEditBody,
  type RoleListQuery,
  type RoleOption,
  type RoleRow,
  type SessionKeyAnswer,
  type ViewAsBody,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { adminUsers, menus, roleMenus, roles, sessions } from '../../db/schema';
import type { Auth } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { pagedList } from '../../lib/list';
import { fieldError } from '../../lib/form';
import { likeEscape, sortBy } from '../../lib/list';
import { createSession } from '../../lib/sessions';
import { adminActor, adminOf } from '../../http/access';
import { refusal } from '../../lib/errors';
import { allMenus, buildTree, toMenuNode, withAncestors } from './menus';

/*
 * Roles and their grants (`/jurisdiction/role`), and role switching ("view as", spec §4). The rules
 * (super role, own role, grants only of what one holds, view as) are the shared ones of `@app/contract`
 * jurisdiction-rules; the actor is the admin's, or the role it views the console as.
 */

/** Who acts: the shared rules' actor of the calling admin (adminActor). */
export type Actor = ReturnType<typeof adminActor>;

/** Node ids a role holds: its grants and the nodes above them; every node for the super role. */
export async function roleMenuIds(db: Tx, role: { id: number; isSuper: boolean }, all?: { id: number; parentId: number | null }[]): Promise<Set<number>> {
  const nodes = all ?? (await db.select({ id: menus.id, parentId: menus.parentId }).from(menus));
  if (role.isSuper) return new Set(nodes.map((m) => m.id));
  const granted = await db.select({ id: roleMenus.menuId }).from(roleMenus).where(eq(roleMenus.roleId, role.id));
  return withAncestors(
    granted.map((g) => g.id),
    nodes,
  );
}

/** What the actor may grant: what its (effective) role holds, everything for a super-admin. */
export async function heldMenuIds(db: Tx, actor: Actor, all?: { id: number; parentId: number | null }[]): Promise<Set<number>> {
  const [role] = await db.select().from(roles).where(eq(roles.id, actor.roleId));
  if (!role?.status) return new Set();
  return roleMenuIds(db, { id: role.id, isSuper: actor.isSuper || role.isSuper }, all);
}

/** Refuses when `wanted` holds a node the actor does not hold itself (no one raises rights above its own). */
export async function assertCanGrant(db: Tx, actor: Actor, wanted: Iterable<number>, field = 'menu_ids') {
  if (actor.isSuper) return;
  if (firstNotGrantable(actor, await heldMenuIds(db, actor), wanted) !== null) throw fieldError(field, 'grantNotHeld');
}

// Qualified by hand: drizzle leaves columns unqualified in a one-table select, which would bind to admin_users here.
const userCount = sql<number>`(select count(*)::int from ${adminUsers} where ${adminUsers}.role_id = ${roles}.id)`;

const SORT_COLUMNS = { name: roles.name, status: roles.status, created_at: roles.createdAt, user_count: userCount } as const;

type RoleDb = typeof roles.$inferSelect;
const toRow = (r: RoleDb, users: number): RoleRow => ({
  id: r.id,
  name: r.name,
  description: r.description,
  status: r.status,
  is_super: r.isSuper,
  user_count: Number(users),
  created_at: r.createdAt.toISOString(),
});

export async function roleList(db: Tx, _auth: Auth, q: RoleListQuery): Promise<ListResult<RoleRow>> {
  const conds: (SQL | undefined)[] = [];
  if (q.keyword) {
    const kw = `%${likeEscape(q.keyword.toLowerCase())}%`;
    conds.push(sql`(lower(${roles.name}) like ${kw} or lower(${roles.description}) like ${kw})`);
  }
  if (q.status !== undefined) conds.push(eq(roles.status, q.status));
  const where = and(...conds);
  return pagedList(db, q, sql`from ${roles} where ${where ?? sql`true`}`, async (limit, offset) =>
    (
      await db
        .select({ role: roles, users: userCount })
        .from(roles)
        .where(where)
        .orderBy(...sortBy(SORT_COLUMNS, q, 'created_at', roles.id))
        .limit(limit)
        .offset(offset)
    ).map((r) => toRow(r.role, r.users)),
  );
}

async function loadRole(db: Tx, id: number, lock = false): Promise<RoleDb> {
  const query = db.select().from(roles).where(eq(roles.id, id));
  const [role] = lock ? await query.for('update') : await query;
  if (!role) throw notFound();
  return role;
}

export async function roleDetail(db: Tx, _auth: Auth | null, { id }: IdInput): Promise<RoleDetail> {
  const role = await loadRole(db, id);
  const [users] = await db.select({ n: count() }).from(adminUsers).where(eq(adminUsers.roleId, id));
  const ids = role.isSuper
    ? (await db.select({ id: menus.id }).from(menus)).map((m) => m.id)
    : (await db.select({ id: roleMenus.menuId }).from(roleMenus).where(eq(roleMenus.roleId, id))).map((m) => m.id);
  return Object.assign(toRow(role, users!.n), { menu_ids: ids.sort((a, b) => a - b) });
}

/** The audit trail's view of a role: as stored, with its stored grants; null once deleted. */
export async function snapshotRole(db: Tx, id: number | null) {
  if (id == null) return null;
  const [role] = await db.select().from(roles).where(eq(roles.id, id));
  if (!role) return null;
  const grants = await db.select({ id: roleMenus.menuId }).from(roleMenus).where(eq(roleMenus.roleId, id));
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    status: role.status,
    is_super: role.isSuper,
    created_at: role.createdAt.toISOString(),
    menu_ids: grants.map((g) => g.id).sort((a, b) => a - b),
  };
}

/** Roles for pickers (admin user form, view-as): every role, the super role first. */
export async function roleOptions(db: Tx, _auth?: Auth): Promise<RoleOption[]> {
  const rows = await db.select().from(roles).orderBy(sql`${roles.isSuper} desc`, asc(roles.name), asc(roles.id));
  return rows.map((r) => ({ id: r.id, name: r.name, status: r.status, is_super: r.isSuper }));
}

/** The whole menu tree for the grant editor, each node marked with whether the caller may grant it. */
export async function roleMenuTree(db: Tx, auth: Auth): Promise<GrantNode[]> {
  const all = await allMenus(db);
  const held = await heldMenuIds(db, adminActor(auth), all);
  return buildTree(all.map((m): GrantNode => Object.assign(toMenuNode(m), { grantable: held.has(m.id), children: [] })));
}

async function assertNameFree(db: Tx, name: string, selfId?: number) {
  const [row] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(eq(sql`lower(${roles.name})`, name.toLowerCase()));
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

export async function roleAdd(db: Tx, auth: Auth, input: RoleAddBody): Promise<RoleDetail> {
  const actor = adminActor(auth);
  await assertNameFree(db, input.name);
  const grants = await expandGrants(db, input.menu_ids ?? []);
  await assertCanGrant(db, actor, grants);
  const [role] = await db.insert(roles).values({ name: input.name, description: input.description, status: input.status }).returning();
  await writeGrants(db, role!.id, grants);
  return roleDetail(db, auth, role!);
}

/**
 * Edits a role. The super role keeps every node and stays enabled (only a super-admin may rename it);
 * nobody but a super-admin edits the role it holds; new grants must be nodes the caller holds itself.
 */
export async function roleEdit(db: Tx, auth: Auth, input: RoleEditBody): Promise<RoleDetail> {
  const actor = adminActor(auth);
  const role = await loadRole(db, input.id, true);
  const target = { id: role.id, is_super: role.isSuper };
  const why = whyNotEditRole(target, actor);
  if (why) throw refusal(why);
  const toggle = input.status === false ? whyNotToggleRole(target, actor) : null;
  if (toggle) throw fieldError('status', WHY_MESSAGE[toggle]);
  if (role.isSuper) {
    if (input.menu_ids) {
      // A round trip of the detail (every node) is accepted; anything else would change its grants.
      const all = new Set((await db.select({ id: menus.id }).from(menus)).map((m) => m.id));
      const sent = new Set(input.menu_ids);
      if (sent.size !== all.size || [...sent].some((id) => !all.has(id))) throw fieldError('menu_ids', 'superRoleFixed');
    }
  } else if (input.menu_ids) {
    const grants = await expandGrants(db, input.menu_ids);
    const current = new Set((await db.select({ id: roleMenus.menuId }).from(roleMenus).where(eq(roleMenus.roleId, role.id))).map((r) => r.id));
    await assertCanGrant(
      db,
      actor,
      [...grants].filter((id) => !current.has(id)),
    );
    await writeGrants(db, role.id, grants);
  }
  if (input.name !== undefined) await assertNameFree(db, input.name, role.id);
  const set: Partial<RoleDb> = {};
  if (input.name !== undefined) set.name = input.name;
  if (input.description !== undefined) set.description = input.description;
  if (input.status !== undefined && !role.isSuper) set.status = input.status;
  if (Object.keys(set).length) await db.update(roles).set(set).where(eq(roles.id, role.id));
  return roleDetail(db, auth, role);
}

/** Deletes a role no admin holds (never the super role); sessions viewing the console as it end. */
export async function roleRemove(db: Tx, auth: Auth, { id }: IdInput): Promise<null> {
  const actor = adminActor(auth);
  const role = await loadRole(db, id, true);
  const [users] = await db.select({ n: count() }).from(adminUsers).where(eq(adminUsers.roleId, id));
  const why = whyNotDeleteRole({ id: role.id, is_super: role.isSuper, user_count: users!.n }, actor);
  if (why) throw refusal(why, { count: users!.n });
  await db.delete(sessions).where(eq(sessions.viewRoleId, id));
  await db.delete(roles).where(eq(roles.id, id));
  return null;
}

/**
 * Role switching (spec §4, "view as"): a super-admin (not already viewing) gets a new session that
 * carries the viewed role (neither the super role nor a disabled one) and the old one ends. The new
 * session keeps the old one's absolute expiry. The client IP goes into the new session row, as at sign-in.
 */
export async function viewAs(db: Tx, auth: Auth, { role_id }: ViewAsBody, ctx: Ctx): Promise<SessionKeyAnswer> {
  const actor = adminActor(auth);
  const viewing = adminOf(auth).viewRoleId != null;
  // Who may switch at all (a super-admin, not already viewing), before the role is read.
  const who = whyNotViewAs({ is_super: false, status: true }, actor, viewing);
  if (who) throw refusal(who);
  return db.transaction(async (tx) => {
    const [role] = await tx.select().from(roles).where(eq(roles.id, role_id));
    if (!role) throw fieldError('role_id', 'roleMissing');
    const why = whyNotViewAs({ is_super: role.isSuper, status: role.status }, actor, viewing);
    if (why) throw fieldError('role_id', WHY_MESSAGE[why]);
    return switchSession(tx, auth, ctx.ip, role.id);
  });
}

/** Leaves "view as": a new normal session for the same admin; the viewing one ends. */
export async function viewAsExit(db: Tx, auth: Auth, _input: unknown, ctx: Ctx): Promise<SessionKeyAnswer> {
  return db.transaction(async (tx) => {
    const [session] = await tx.select({ viewRoleId: sessions.viewRoleId }).from(sessions).where(eq(sessions.id, auth.sessionId));
    if (!session?.viewRoleId) throw badRequest('notViewing');
    return switchSession(tx, auth, ctx.ip, null);
  });
}

async function switchSession(tx: Tx, auth: Auth, ip: string, viewRoleId: number | null): Promise<SessionKeyAnswer> {
  const [old] = await tx.delete(sessions).where(eq(sessions.id, auth.sessionId)).returning({ expiresAt: sessions.expiresAt, userAgent: sessions.userAgent });
  if (!old) throw forbidden();
  const { key } = await createSession(tx, { kind: 'admin', subjectId: adminOf(auth).id, ip, userAgent: old.userAgent, viewRoleId, expiresAt: old.expiresAt });
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

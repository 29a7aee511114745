import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import {
  WHY_MESSAGE,
  whyNotChangeAdminRole,
  whyNotDeleteAdmin,
  whyNotEditAdmin,
  type AdminAddBody,
  type AdminEditBody,
  type AdminListQuery,
  type AdminRow,
  type IdInput,
  type ListResult,
  type RoleOption,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { adminUsers, roles } from '../../db/schema';
import type { Auth } from '../../http/access';
import { AppError, notFound } from '../../lib/errors';
import { pagedList } from '../../lib/list';
import { hashPassword } from '../../lib/crypto';
import { fieldError, isUniqueViolation } from '../../lib/form';
import { likeEscape, sortBy } from '../../lib/list';
import { endSubjectSessions } from '../../lib/sessions';
import { adminActor } from '../../http/access';
import { assertAnotherSuperAdmin, validatePassword } from '../../lib/accounts';
import { refusal } from '../../lib/errors';
import { assertCanAssignRole, roleOptions } from './roles';

/*
 * Admin users (`/jurisdiction/admin_user`). Enabling/disabling and password resets go through
 * POST /member/modify_field (auth module), guarded by admin:status and admin:reset-password and the
 * same shared rules (`@app/contract` jurisdiction-rules).
 */

const SORT_COLUMNS = {
  username: adminUsers.username,
  name: adminUsers.name,
  status: adminUsers.status,
  last_login_at: adminUsers.lastLoginAt,
  created_at: adminUsers.createdAt,
} as const;

const COLUMNS = {
  id: adminUsers.id,
  username: adminUsers.username,
  name: adminUsers.name,
  phone: adminUsers.phone,
  roleId: adminUsers.roleId,
  roleName: roles.name,
  roleIsSuper: roles.isSuper,
  status: adminUsers.status,
  lastLoginAt: adminUsers.lastLoginAt,
  createdAt: adminUsers.createdAt,
};

type Selected = {
  id: number;
  username: string;
  name: string;
  phone: string;
  roleId: number;
  roleName: string | null;
  roleIsSuper: boolean | null;
  status: number;
  lastLoginAt: Date | null;
  createdAt: Date;
};
const toRow = (r: Selected): AdminRow => ({
  id: r.id,
  username: r.username,
  name: r.name,
  phone: r.phone,
  role_id: r.roleId,
  role_name: r.roleName ?? '',
  role_is_super: !!r.roleIsSuper,
  status: r.status === 1 ? 1 : 0,
  last_login_at: r.lastLoginAt ? r.lastLoginAt.toISOString() : null,
  created_at: r.createdAt.toISOString(),
});

export async function adminList(db: Tx, _auth: Auth, q: AdminListQuery): Promise<ListResult<AdminRow>> {
  const conds: (SQL | undefined)[] = [];
  if (q.keyword) {
    const kw = `%${likeEscape(q.keyword.toLowerCase())}%`;
    conds.push(or(sql`lower(${adminUsers.username}) like ${kw}`, sql`lower(${adminUsers.name}) like ${kw}`, sql`${adminUsers.phone} like ${kw}`));
  }
  if (q.role_id) conds.push(eq(adminUsers.roleId, q.role_id));
  if (q.status !== undefined) conds.push(eq(adminUsers.status, q.status));
  const where = and(...conds);
  return pagedList(db, q, sql`from ${adminUsers} where ${where ?? sql`true`}`, async (limit, offset) =>
    (
      await db
        .select(COLUMNS)
        .from(adminUsers)
        .leftJoin(roles, eq(roles.id, adminUsers.roleId))
        .where(where)
        .orderBy(...sortBy(SORT_COLUMNS, q, 'created_at', adminUsers.id))
        .limit(limit)
        .offset(offset)
    ).map(toRow),
  );
}

export async function adminDetail(db: Tx, _auth: Auth | null, { id }: IdInput): Promise<AdminRow> {
  const [row] = await db.select(COLUMNS).from(adminUsers).leftJoin(roles, eq(roles.id, adminUsers.roleId)).where(eq(adminUsers.id, id));
  if (!row) throw notFound();
  return toRow(row);
}

/** Every role (super role first), for the user form's picker and the list filter. */
export const adminRoleOptions = (db: Tx, auth: Auth): Promise<RoleOption[]> => roleOptions(db, auth);

/**
 * The audit trail's view of an admin user: the stored account without its password hash; null once
 * deleted. (POST /member/modify_field records its changes as this record type too.)
 */
export async function snapshotAdmin(db: Tx, id: number | null) {
  if (id == null) return null;
  const [u] = await db
    .select({
      id: adminUsers.id,
      username: adminUsers.username,
      name: adminUsers.name,
      phone: adminUsers.phone,
      avatar: adminUsers.avatar,
      roleId: adminUsers.roleId,
      status: adminUsers.status,
      lastLoginAt: adminUsers.lastLoginAt,
      createdAt: adminUsers.createdAt,
    })
    .from(adminUsers)
    .where(eq(adminUsers.id, id));
  if (!u) return null;
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    phone: u.phone,
    avatar: u.avatar,
    role_id: u.roleId,
    status: u.status,
    last_login_at: u.lastLoginAt ? u.lastLoginAt.toISOString() : null,
    created_at: u.createdAt.toISOString(),
  };
}

async function loadTarget(db: Tx, id: number) {
  const [row] = await db
    .select({ id: adminUsers.id, roleId: adminUsers.roleId, isSuper: roles.isSuper })
    .from(adminUsers)
    .innerJoin(roles, eq(roles.id, adminUsers.roleId))
    .where(eq(adminUsers.id, id))
    .for('update', { of: adminUsers });
  if (!row) throw notFound();
  return { id: row.id, roleId: row.roleId, role_is_super: row.isSuper };
}

/** Creates an admin user: unique username (case-insensitive), a role the caller may hand out, a valid password. */
export async function adminAdd(db: Tx, auth: Auth, input: AdminAddBody): Promise<AdminRow> {
  const actor = adminActor(auth);
  const password = await validatePassword(db, input.password).catch((err) => {
    throw err instanceof AppError && err.messageKey ? fieldError('password', err.messageKey, err.params) : err;
  });
  const passwordHash = await hashPassword(password);
  try {
    await assertCanAssignRole(db, actor, input.role_id);
    const [taken] = await db
      .select({ id: adminUsers.id })
      .from(adminUsers)
      .where(eq(sql`lower(${adminUsers.username})`, input.username.toLowerCase()));
    if (taken) throw fieldError('username', 'duplicate', { field: input.username });
    const [row] = await db.insert(adminUsers).values({ username: input.username, name: input.name, phone: input.phone, roleId: input.role_id, passwordHash }).returning({ id: adminUsers.id });
    return adminDetail(db, auth, row!);
  } catch (err) {
    if (isUniqueViolation(err)) throw fieldError('username', 'duplicate', { field: input.username });
    throw err;
  }
}

/**
 * Edits name, phone and role. Nobody changes its own role; only a super-admin touches a super-admin's
 * account or hands out the super role; the last enabled super-admin keeps it. A role change applies to
 * the user's next request (grants are read per request).
 */
export async function adminEdit(db: Tx, auth: Auth, input: AdminEditBody): Promise<AdminRow> {
  const actor = adminActor(auth);
  const target = await loadTarget(db, input.id);
  const why = whyNotEditAdmin(target, actor);
  if (why) throw refusal(why);
  if (input.role_id !== target.roleId) {
    const roleWhy = whyNotChangeAdminRole(target, actor);
    if (roleWhy) throw fieldError('role_id', WHY_MESSAGE[roleWhy]);
    const role = await assertCanAssignRole(db, actor, input.role_id);
    if (target.role_is_super && !role.isSuper) await assertAnotherSuperAdmin(db, target.id);
  }
  await db.update(adminUsers).set({ name: input.name, phone: input.phone, roleId: input.role_id }).where(eq(adminUsers.id, target.id));
  return adminDetail(db, auth, target);
}

/** Deletes an admin user (never oneself, nor the last enabled super-admin); its sessions end. */
export async function adminRemove(db: Tx, auth: Auth, { id }: IdInput): Promise<null> {
  const actor = adminActor(auth);
  const target = await loadTarget(db, id);
  const why = whyNotDeleteAdmin(target, actor);
  if (why) throw refusal(why);
  await assertAnotherSuperAdmin(db, target.id);
  await db.delete(adminUsers).where(eq(adminUsers.id, target.id));
  await endSubjectSessions(db, 'admin', target.id);
  return null;
}

import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { AdminAddBody, AdminEditBody, AdminListQuery, AdminRow, ListResult } from '@app/contract';
import type { Db, Tx } from '../../db/client';
import { adminUsers, roles } from '../../db/schema';
import type { Auth } from '../../http/access';
import { AppError, badRequest, notFound } from '../../http/errors';
import { pagedList } from '../../lib/crud';
import { hashPassword } from '../../lib/crypto';
import { fieldError, isUniqueViolation } from '../../lib/form';
import { likeEscape, sortBy } from '../../lib/list';
import { assertAnotherSuperAdmin, validatePassword } from '../auth/service';
import { endSubjectSessions } from '../auth/sessions';
import { actorOf, assertCanAssignRole } from '../roles/service';

const SORT_COLUMNS = {
  username: adminUsers.username,
  name: adminUsers.name,
  status: adminUsers.status,
  last_login_at: adminUsers.lastLoginAt,
  created_at: adminUsers.createdAt,
} as const;

const COLUMNS = {
  id: adminUsers.id, username: adminUsers.username, name: adminUsers.name, phone: adminUsers.phone, roleId: adminUsers.roleId,
  roleName: roles.name, roleIsSuper: roles.isSuper, status: adminUsers.status, lastLoginAt: adminUsers.lastLoginAt, createdAt: adminUsers.createdAt,
};

type Selected = { id: number; username: string; name: string; phone: string; roleId: number; roleName: string | null; roleIsSuper: boolean | null; status: number; lastLoginAt: Date | null; createdAt: Date };
const toRow = (r: Selected): AdminRow => ({
  id: r.id, username: r.username, name: r.name, phone: r.phone, role_id: r.roleId, role_name: r.roleName ?? '', role_is_super: !!r.roleIsSuper,
  status: r.status === 1 ? 1 : 0, last_login_at: r.lastLoginAt ? r.lastLoginAt.toISOString() : null, created_at: r.createdAt.toISOString(),
});

export async function listAdmins(db: Tx, q: AdminListQuery): Promise<ListResult<AdminRow>> {
  const conds: (SQL | undefined)[] = [];
  if (q.keyword) {
    const kw = `%${likeEscape(q.keyword.toLowerCase())}%`;
    conds.push(or(sql`lower(${adminUsers.username}) like ${kw}`, sql`lower(${adminUsers.name}) like ${kw}`, sql`${adminUsers.phone} like ${kw}`));
  }
  if (q.role_id) conds.push(eq(adminUsers.roleId, q.role_id));
  if (q.status !== undefined) conds.push(eq(adminUsers.status, q.status));
  const where = and(...conds);
  return pagedList(db, q, sql`from ${adminUsers} where ${where ?? sql`true`}`, async (limit, offset) =>
    (await db.select(COLUMNS).from(adminUsers).leftJoin(roles, eq(roles.id, adminUsers.roleId)).where(where)
      .orderBy(...sortBy(SORT_COLUMNS, q, 'created_at', adminUsers.id)).limit(limit).offset(offset)).map(toRow));
}

export async function adminDetail(db: Tx, id: number): Promise<AdminRow> {
  const [row] = await db.select(COLUMNS).from(adminUsers).leftJoin(roles, eq(roles.id, adminUsers.roleId)).where(eq(adminUsers.id, id));
  if (!row) throw notFound();
  return toRow(row);
}

async function loadTarget(db: Tx, id: number) {
  const [row] = await db.select({ id: adminUsers.id, roleId: adminUsers.roleId, isSuper: roles.isSuper })
    .from(adminUsers).innerJoin(roles, eq(roles.id, adminUsers.roleId)).where(eq(adminUsers.id, id)).for('update', { of: adminUsers });
  if (!row) throw notFound();
  return row;
}

/** Creates an admin user: unique username (case-insensitive), a role the caller may hand out, a valid password. */
export async function addAdmin(db: Db, auth: Auth, input: AdminAddBody): Promise<AdminRow> {
  const actor = actorOf(auth);
  const password = await validatePassword(db, input.password).catch((err) => {
    throw err instanceof AppError && err.messageKey ? fieldError('password', err.messageKey, err.params) : err;
  });
  const passwordHash = await hashPassword(password);
  try {
    return await db.transaction(async (tx) => {
      await assertCanAssignRole(tx, actor, input.role_id);
      const [taken] = await tx.select({ id: adminUsers.id }).from(adminUsers).where(eq(sql`lower(${adminUsers.username})`, input.username.toLowerCase()));
      if (taken) throw fieldError('username', 'duplicate', { field: input.username });
      const [row] = await tx.insert(adminUsers).values({ username: input.username, name: input.name, phone: input.phone, roleId: input.role_id, passwordHash }).returning({ id: adminUsers.id });
      return adminDetail(tx, row!.id);
    });
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
export async function editAdmin(db: Db, auth: Auth, input: AdminEditBody): Promise<AdminRow> {
  const actor = actorOf(auth);
  return db.transaction(async (tx) => {
    const target = await loadTarget(tx, input.id);
    if (target.isSuper && !actor.isSuper) throw badRequest('superOnly');
    if (input.role_id !== target.roleId) {
      if (target.id === actor.adminId) throw fieldError('role_id', 'ownRole');
      const role = await assertCanAssignRole(tx, actor, input.role_id);
      if (target.isSuper && !role.isSuper) await assertAnotherSuperAdmin(tx, target.id);
    }
    await tx.update(adminUsers).set({ name: input.name, phone: input.phone, roleId: input.role_id }).where(eq(adminUsers.id, target.id));
    return adminDetail(tx, target.id);
  });
}

/** Deletes an admin user (never oneself, nor the last enabled super-admin); its sessions end. */
export async function deleteAdmin(db: Db, auth: Auth, id: number): Promise<void> {
  const actor = actorOf(auth);
  if (id === actor.adminId) throw badRequest('selfDelete');
  await db.transaction(async (tx) => {
    const target = await loadTarget(tx, id);
    if (target.isSuper && !actor.isSuper) throw badRequest('superOnly');
    await assertAnotherSuperAdmin(tx, target.id);
    await tx.delete(adminUsers).where(eq(adminUsers.id, target.id));
    await endSubjectSessions(tx, 'admin', target.id);
  });
}

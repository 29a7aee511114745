import { and, asc, count, eq, gt, sql } from 'drizzle-orm';
import type { InstitutionInfo, LoginAnswer, MemberInfo, RoleNode } from '@app/contract';
import type { Db, Tx } from '../../db/client';
import { adminUsers, institutions, loginFailures, menus, roleMenus, roles } from '../../db/schema';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../lib/crypto';
import { badRequest, forbidden, notFound } from '../../http/errors';
import type { Auth } from '../../http/access';
import { readParam } from '../params/service';
import { createSession, endSubjectSessions, type SubjectKind } from './sessions';

const FAILURE_WINDOW_MS = 15 * 60_000;
const MAX_FAILURES_PER_USER = 5;
const MAX_FAILURES_PER_IP = 30;

async function assertNotThrottled(db: Tx, username: string, ip: string) {
  const since = new Date(Date.now() - FAILURE_WINDOW_MS);
  const [byUser] = await db.select({ n: count(), first: sql<Date>`min(${loginFailures.createdAt})` }).from(loginFailures)
    .where(and(eq(loginFailures.username, username), gt(loginFailures.createdAt, since)));
  const [byIp] = await db.select({ n: count(), first: sql<Date>`min(${loginFailures.createdAt})` }).from(loginFailures)
    .where(and(eq(loginFailures.ip, ip), gt(loginFailures.createdAt, since)));
  const hit = byUser!.n >= MAX_FAILURES_PER_USER ? byUser! : byIp!.n >= MAX_FAILURES_PER_IP ? byIp! : null;
  if (hit) {
    const first = new Date(hit.first).getTime();
    const minutes = Math.max(1, Math.ceil((first + FAILURE_WINDOW_MS - Date.now()) / 60_000));
    throw badRequest('tooManyAttempts', { minutes });
  }
}

/** Both sign-ins: one message for unknown user and wrong password alike; failures are counted and throttled. */
export async function login(db: Db, kind: SubjectKind, input: { username: string; password: string }, ip: string): Promise<LoginAnswer> {
  const username = input.username.toLowerCase();
  await assertNotThrottled(db, username, ip);
  const table = kind === 'admin' ? adminUsers : institutions;
  const [row] = await db.select({ id: table.id, passwordHash: table.passwordHash, status: table.status }).from(table).where(eq(sql`lower(${table.username})`, username));
  const valid = await verifyPassword(row?.passwordHash ?? DUMMY_HASH, input.password);
  if (!row || !valid) {
    await db.insert(loginFailures).values({ username: username.slice(0, 64), ip: ip.slice(0, 64) });
    throw badRequest('badCredentials');
  }
  if (row.status !== 1) throw badRequest('accountDisabled');
  await db.delete(loginFailures).where(eq(loginFailures.username, username));
  const { key } = await createSession(db, { kind, subjectId: row.id, ip });
  if (kind === 'admin') await db.update(adminUsers).set({ lastLoginAt: new Date() }).where(eq(adminUsers.id, row.id));
  return { key, id: row.id };
}

/** The menu tree as a role sees it: granted nodes plus the directories above them. */
export async function roleData(db: Tx, roleId: number): Promise<RoleNode[]> {
  const [role] = await db.select().from(roles).where(eq(roles.id, roleId));
  if (!role || !role.status) return [];
  const all = await db.select().from(menus).orderBy(asc(menus.sort), asc(menus.id));
  let keep: Set<number>;
  if (role.isSuper) keep = new Set(all.map((m) => m.id));
  else {
    const grantedIds = (await db.select({ id: roleMenus.menuId }).from(roleMenus).where(eq(roleMenus.roleId, roleId))).map((r) => r.id);
    keep = new Set(grantedIds);
    const byId = new Map(all.map((m) => [m.id, m]));
    for (const id of grantedIds) {
      let parent = byId.get(id)?.parentId;
      while (parent != null && !keep.has(parent)) { keep.add(parent); parent = byId.get(parent)?.parentId; }
    }
  }
  const nodes = new Map<number, RoleNode>();
  for (const m of all) if (keep.has(m.id)) nodes.set(m.id, { id: m.id, type: m.type as 1 | 2 | 3, sign: m.sign, title: m.title, icon: m.icon, sort: m.sort, hidden: m.hidden ? 1 : 0, children: [] });
  const roots: RoleNode[] = [];
  for (const m of all) {
    const node = nodes.get(m.id);
    if (!node) continue;
    const parent = m.parentId != null ? nodes.get(m.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

export async function memberInfo(db: Tx, auth: Auth): Promise<MemberInfo> {
  const a = auth.admin!;
  const [user] = await db.select().from(adminUsers).where(eq(adminUsers.id, a.id));
  const [role] = await db.select().from(roles).where(eq(roles.id, a.roleId));
  const viewRole = a.viewRoleId ? (await db.select().from(roles).where(eq(roles.id, a.viewRoleId)))[0] : undefined;
  return {
    id: user!.id,
    username: user!.username,
    name: user!.name,
    avatar: user!.avatar,
    introduction: role?.description ?? '',
    role_data: await roleData(db, viewRole?.id ?? a.roleId),
    role: { id: role!.id, name: role!.name, is_super: role!.isSuper },
    viewing_as: viewRole ? { id: viewRole.id, name: viewRole.name } : null,
  };
}

export async function institutionInfo(db: Tx, auth: Auth): Promise<InstitutionInfo> {
  const [inst] = await db.select().from(institutions).where(eq(institutions.id, auth.institution!.id));
  const term = inst!.termExpiresAt;
  return {
    id: inst!.id,
    username: inst!.username,
    name: inst!.name,
    avatar: inst!.avatar,
    introduction: inst!.contactName,
    institution_grade: inst!.grade as 1 | 2 | 3,
    term_expires_at: term ? term.toISOString() : null,
    overdue: !!term && term.getTime() <= Date.now(),
  };
}

export async function validatePassword(db: Tx, value: unknown): Promise<string> {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) throw badRequest('passwordEmpty');
  const min = await readParam(db, 'password_min_length');
  if (text.length < min) throw badRequest('passwordTooShort', { min });
  if (text.length > 200) throw badRequest('invalidInput', { detail: 'password' });
  return text;
}

/** Ensures at least one enabled admin keeps an active super-admin role after `excludeId` is disabled or moved. */
export async function assertAnotherSuperAdmin(db: Tx, excludeId: number) {
  // Locks the enabled super-admins first, so two concurrent demotions cannot both see the other one remain.
  await db.select({ id: adminUsers.id }).from(adminUsers).innerJoin(roles, eq(roles.id, adminUsers.roleId))
    .where(and(eq(roles.isSuper, true), eq(adminUsers.status, 1))).for('update', { of: adminUsers });
  const [target] = await db.select({ isSuper: roles.isSuper }).from(adminUsers).innerJoin(roles, eq(roles.id, adminUsers.roleId)).where(eq(adminUsers.id, excludeId));
  if (!target?.isSuper) return;
  const [row] = await db.select({ n: count() }).from(adminUsers).innerJoin(roles, eq(roles.id, adminUsers.roleId))
    .where(and(eq(roles.isSuper, true), eq(adminUsers.status, 1), sql`${adminUsers.id} <> ${excludeId}`));
  if (row!.n === 0) throw badRequest('lastSuperAdmin');
}

/**
 * Only a super-admin (not while viewing as another role) may reset a super-admin's password or change
 * its status: otherwise a lesser admin could take over the account and raise its own rights.
 */
async function assertMayManageAdmin(db: Tx, auth: Auth, targetId: number) {
  const [target] = await db.select({ isSuper: roles.isSuper }).from(adminUsers).innerJoin(roles, eq(roles.id, adminUsers.roleId)).where(eq(adminUsers.id, targetId));
  if (!target) throw notFound();
  if (target.isSuper && !(auth.admin!.isSuper && !auth.admin!.viewRoleId)) throw badRequest('superOnly');
}

/**
 * `POST /member/modify_field`: one whitelisted field. Anyone may change their own password; changing
 * another admin's password or status needs the admin buttons; an institution only its own password.
 */
export async function modifyField(db: Db, auth: Auth, input: { id: number; field: 'password' | 'status'; value: string | number }, can: (button: string) => boolean) {
  if (auth.kind === 'institution') {
    if (input.id !== auth.institution!.id || input.field !== 'password') throw forbidden();
    const hash = await hashPassword(await validatePassword(db, input.value));
    await db.update(institutions).set({ passwordHash: hash }).where(eq(institutions.id, input.id));
    await endSubjectSessions(db, 'institution', input.id, auth.sessionId);
    return;
  }
  const self = auth.admin!.id === input.id;
  if (input.field === 'password') {
    if (!self && !can('admin:reset-password')) throw forbidden();
    const hash = await hashPassword(await validatePassword(db, input.value));
    await db.transaction(async (tx) => {
      if (!self) await assertMayManageAdmin(tx, auth, input.id);
      const updated = await tx.update(adminUsers).set({ passwordHash: hash }).where(eq(adminUsers.id, input.id)).returning({ id: adminUsers.id });
      if (!updated.length) throw notFound();
      await endSubjectSessions(tx, 'admin', input.id, self ? auth.sessionId : undefined);
    });
    return;
  }
  if (self || !can('admin:status')) throw forbidden();
  const status = input.value === 0 || input.value === '0' ? 0 : input.value === 1 || input.value === '1' ? 1 : null;
  if (status === null) throw badRequest('invalidInput', { detail: 'status' });
  await db.transaction(async (tx) => {
    await assertMayManageAdmin(tx, auth, input.id);
    if (status === 0) await assertAnotherSuperAdmin(tx, input.id);
    const updated = await tx.update(adminUsers).set({ status }).where(eq(adminUsers.id, input.id)).returning({ id: adminUsers.id });
    if (!updated.length) throw notFound();
    if (status === 0) await endSubjectSessions(tx, 'admin', input.id);
  });
}

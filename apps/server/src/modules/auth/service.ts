import { eq, sql } from 'drizzle-orm';
import {
  canUseButton,
  whyNotResetPassword,
  whyNotToggleAdmin,
  withAncestors,
  type InstitutionInfo,
  type SignInAnswer,
  type LoginBody,
  type MemberInfo,
  type ModifyFieldBody,
  type ReauthAnswer,
  type ReauthBody,
  type RoleNode,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { adminUsers, institutions, roles } from '../../db/schema';
import { cachedGrants, currentGrants, type Grants } from '../../lib/access-cache';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../lib/crypto';
import { readParam } from '../../lib/params';
import { createSession, deleteSession, endSubjectSessions, markReauthenticated, type SubjectKind } from '../../lib/sessions';
import { badRequest, forbidden, notFound, refusal } from '../../lib/errors';
import { adminActor, adminOf, type Auth, callerRef, institutionOf } from '../../http/access';
import { assertAnotherSuperAdmin, validatePassword } from '../../lib/accounts';
import type { Ctx } from '../../http/endpoints';
import { recordAudit, refusals, signInRow, userAgentOf } from '../../lib/audit';
import { addressKey, clearFailures, reserveAttempt, throttledError } from '../../lib/throttle';
import { startChallenge, verifySecondFactor } from '../mfa';

/**
 * Both sign-ins: one message for unknown user and wrong password alike (an unknown user is checked
 * against a dummy hash, so both take the same time and the same path). The attempt is counted before the
 * password is checked and throttled per (username, address) and per address (./throttle.ts); the counting
 * is a short transaction of its own, and the password hash is checked outside any transaction.
 *
 * Every attempt leaves one audit row: a refused one (wrong password or unknown account alike, disabled
 * account) as one statement before the answer; a throttled one too, but at most one a minute per address
 * and sign-in (the rest counted into the next: a flood of throttled attempts writes one row a minute);
 * a successful one in the transaction that creates the session. A row that cannot be written fails the
 * sign-in (no session without its row).
 *
 * An account with a second factor gets a challenge instead of a key (`POST /login/mfa` finishes the
 * sign-in and writes its row, `reason: 'second_factor'` when the code is wrong); its earlier failures stay
 * counted until the code is right. With `mfa_required_admins` = 1, an admin without one gets a restricted
 * session: the second factor's setup only (http/access.ts).
 */
async function signIn(db: Tx, kind: SubjectKind, input: LoginBody, ctx: Ctx): Promise<SignInAnswer> {
  const username = input.username.toLowerCase().slice(0, 64);
  const address = addressKey(ctx.ip);
  const reservation = await reserveAttempt(db, username, address);
  if (!reservation.ok) {
    const admitted = refusals.admit(`sign_in|${kind}|${address}`);
    if (admitted) await recordAudit(db, signInRow(ctx, kind, username, null, 'refused', 'throttled', admitted.suppressed));
    throw throttledError(reservation.retryAfterMs);
  }
  const table = kind === 'admin' ? adminUsers : institutions;
  const [row] = await db
    .select({ id: table.id, username: table.username, passwordHash: table.passwordHash, status: table.status })
    .from(table)
    .where(eq(sql`lower(${table.username})`, username));
  const valid = await verifyPassword(row?.passwordHash ?? DUMMY_HASH, input.password);
  // A failure keeps its reserved row: it counts. Its audit row names no account (unknown or not, alike).
  if (!row || !valid) {
    await recordAudit(db, signInRow(ctx, kind, username, null, 'refused', 'bad_credentials'));
    throw badRequest('badCredentials');
  }
  const challenge = row.status === 1 ? await startChallenge(db, { kind, id: row.id }, reservation.id) : null;
  if (challenge) return { mfa_required: true, challenge };
  await clearFailures(db, username, address);
  // A disabled institution is told so (its sessions ended when it was disabled); a disabled admin likewise.
  if (row.status !== 1) {
    await recordAudit(db, signInRow(ctx, kind, username, row, 'refused', 'disabled'));
    throw badRequest(kind === 'institution' ? 'institutionDisabled' : 'accountDisabled');
  }
  const restricted = kind === 'admin' && (await readParam(db, 'mfa_required_admins')) === 1;
  return db.transaction(async (tx) => {
    const { key } = await createSession(tx, { kind, subjectId: row.id, ip: ctx.ip, userAgent: userAgentOf(ctx.req.headers), restricted, reauthenticated: true });
    if (kind === 'admin') await tx.update(adminUsers).set({ lastLoginAt: new Date() }).where(eq(adminUsers.id, row.id));
    await recordAudit(tx, signInRow(ctx, kind, username, row, 'ok', null));
    return { key, id: row.id };
  });
}

/** POST /login/login (not audited as a write, so no transaction around it: a failed attempt stays counted; its own audit row, see signIn). */
export const login = (db: Tx, _auth: Auth | null, input: LoginBody, ctx: Ctx) => signIn(db, 'admin', input, ctx);
/** POST /login/institution_login. */
export const institutionLogin = (db: Tx, _auth: Auth | null, input: LoginBody, ctx: Ctx) => signIn(db, 'institution', input, ctx);

/**
 * POST /auth/reauth (step-up): the account's password again marks the calling session re-authenticated
 * for the `reauth_minutes` parameter. Wrong passwords are counted and throttled exactly like sign-ins
 * (per account name and address, ./throttle.ts), so a stolen key cannot guess the password through it.
 */
export async function reauth(db: Tx, auth: Auth, input: ReauthBody, ctx: Ctx): Promise<ReauthAnswer> {
  const { kind, id: subjectId, username: name } = callerRef(auth);
  const username = name.toLowerCase();
  const address = addressKey(ctx.ip);
  const reservation = await reserveAttempt(db, username, address);
  if (!reservation.ok) throw throttledError(reservation.retryAfterMs);
  if ('passcode' in input) {
    // A current code of the account's second factor (spent once, like at sign-in), or a recovery code.
    if (!(await verifySecondFactor(db, { kind, id: subjectId }, input.passcode, ctx.config))) throw badRequest('mfaCodeWrong');
  } else {
    const table = kind === 'admin' ? adminUsers : institutions;
    const [row] = await db.select({ passwordHash: table.passwordHash }).from(table).where(eq(table.id, subjectId));
    if (!row || !(await verifyPassword(row.passwordHash, input.password))) throw badRequest('reauthWrong');
  }
  await clearFailures(db, username, address);
  const until = await markReauthenticated(db, auth.sessionId, auth.params.reauth_minutes);
  return { until: until.toISOString() };
}

/** POST /login/logout: ends the calling session, with its audit row (sign_out) in the same transaction. */
export async function logout(db: Tx, auth: Auth, _input: unknown, ctx: Ctx): Promise<null> {
  await db.transaction(async (tx) => {
    await deleteSession(tx, auth.sessionId);
    await recordAudit(tx, {
      auth,
      endpoint: ctx.req.endpoint!,
      recordType: auth.kind,
      recordId: auth.kind === 'admin' ? auth.admin.id : auth.institution.id,
      before: null,
      after: null,
      input: { restricted: auth.restricted },
      ip: ctx.ip,
      event: 'sign_out',
      userAgent: userAgentOf(ctx.req.headers),
    });
  });
  return null;
}

/** The menu tree as a role sees it: granted nodes plus the directories above them. */
export function roleData(grants: Grants, roleId: number): RoleNode[] {
  const role = grants.roles.get(roleId);
  if (!role?.status) return [];
  const all = grants.menus;
  const keep = withAncestors(role.menuIds, new Map(all.map((m) => [m.id, m.parentId])));
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

/**
 * GET /member/get_member (admins only: the endpoint's access says so). Roles and menus come from the
 * grants the access check has just validated for this request (lib/access-cache.ts): one query, the user's.
 */
export async function memberInfo(db: Tx, auth: Auth): Promise<MemberInfo> {
  const a = adminOf(auth);
  const [user] = await db.select().from(adminUsers).where(eq(adminUsers.id, a.id));
  const grants = cachedGrants(db) ?? (await currentGrants(db));
  const role = grants.roles.get(a.roleId);
  const viewRole = a.viewRoleId ? grants.roles.get(a.viewRoleId) : undefined;
  return {
    id: user!.id,
    username: user!.username,
    name: user!.name,
    avatar: user!.avatar,
    introduction: role?.description ?? '',
    role_data: roleData(grants, viewRole?.id ?? a.roleId),
    role: { id: role!.id, name: role!.name, is_super: role!.isSuper },
    viewing_as: viewRole ? { id: viewRole.id, name: viewRole.name } : null,
    mfa_setup_required: auth.restricted,
  };
}

/** GET /institution/get_institution_info (institutions only, an overdue one's restricted key too). */
/** The signed-in institution as the session check read it (one query per request in all). */
export async function institutionInfo(_db: Tx, auth: Auth): Promise<InstitutionInfo> {
  const inst = institutionOf(auth);
  const term = inst.termExpiresAt;
  return {
    id: inst.id,
    username: inst.username,
    name: inst.name,
    avatar: inst.avatar,
    introduction: inst.contactName,
    institution_grade: inst.grade,
    term_expires_at: term ? term.toISOString() : null,
    overdue: !!term && term.getTime() <= Date.now(),
  };
}

/** The admin a modify_field call is about, locked for the write: whether it holds the super role. */
async function loadTarget(db: Tx, targetId: number) {
  const [target] = await db
    .select({ id: adminUsers.id, isSuper: roles.isSuper })
    .from(adminUsers)
    .innerJoin(roles, eq(roles.id, adminUsers.roleId))
    .where(eq(adminUsers.id, targetId))
    .for('update', { of: adminUsers });
  if (!target) throw notFound();
  return { id: target.id, role_is_super: target.isSuper };
}

/**
 * `POST /member/modify_field`: one whitelisted field. Anyone may change their own password; changing
 * another admin's password or status needs the admin buttons and passes the shared rules (only a
 * super-admin, not while viewing as another role, manages a super-admin's account: otherwise a lesser
 * admin could take it over; nobody disables itself; the last enabled super-admin stays); an institution
 * only its own password. A changed password or a disabled account ends the other sessions.
 */
export async function modifyField(db: Tx, auth: Auth, input: ModifyFieldBody): Promise<null> {
  if (auth.kind === 'institution') {
    if (input.id !== auth.institution.id || input.field !== 'password') throw forbidden();
    const hash = await hashPassword(await validatePassword(db, input.password));
    await db.update(institutions).set({ passwordHash: hash }).where(eq(institutions.id, input.id));
    await endSubjectSessions(db, 'institution', input.id, auth.sessionId);
    return null;
  }
  const actor = adminActor(auth);
  const self = actor.adminId === input.id;
  if (input.field === 'password') {
    if (!self && !canUseButton('admin:reset-password', auth.viewer)) throw forbidden();
    const hash = await hashPassword(await validatePassword(db, input.password));
    const why = whyNotResetPassword(await loadTarget(db, input.id), actor);
    if (why) throw refusal(why);
    await db.update(adminUsers).set({ passwordHash: hash }).where(eq(adminUsers.id, input.id));
    await endSubjectSessions(db, 'admin', input.id, self ? auth.sessionId : undefined);
    return null;
  }
  if (!canUseButton('admin:status', auth.viewer)) throw forbidden();
  // Nobody disables itself (refused as forbidden before the target is even read).
  const why = whyNotToggleAdmin(self ? { id: input.id, role_is_super: false } : await loadTarget(db, input.id), actor);
  if (why) throw refusal(why);
  const status = input.value === 0 || input.value === '0' ? 0 : input.value === 1 || input.value === '1' ? 1 : null;
  if (status === null) throw badRequest('invalidInput', { detail: 'status' });
  if (status === 0) await assertAnotherSuperAdmin(db, input.id);
  await db.update(adminUsers).set({ status }).where(eq(adminUsers.id, input.id));
  if (status === 0) await endSubjectSessions(db, 'admin', input.id);
  return null;
}

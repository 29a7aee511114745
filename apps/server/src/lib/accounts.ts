import { and, count, eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { adminUsers, roles } from '../db/schema';
import { isCommonPassword } from './common-passwords';
import { badRequest } from './errors';
import { readParam } from './params';

/*
 * Account rules that sign-in (modules/auth), admin accounts (modules/jurisdiction) and institution
 * accounts (modules/institutions) share: below all three, so that none of them imports another for these.
 */

/**
 * The one rule for a new password chosen by a person (own change, an admin's reset or creation, an
 * institution's creation or reset): not empty, at least the `password_min_length` parameter, at most 200
 * characters, and not one of the commonly used passwords. Generated passwords (shown once) do not pass
 * through here: they are random and long enough by construction.
 */
export async function validatePassword(db: Tx, value: unknown): Promise<string> {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) throw badRequest('passwordEmpty');
  const min = await readParam(db, 'password_min_length');
  if (text.length < min) throw badRequest('passwordTooShort', { min });
  if (text.length > 200) throw badRequest('invalidInput', { detail: 'password' });
  if (isCommonPassword(text)) throw badRequest('passwordCommon');
  return text;
}

/** Ensures at least one enabled admin keeps an active super-admin role after `excludeId` is disabled or moved. */
export async function assertAnotherSuperAdmin(db: Tx, excludeId: number) {
  // Locks the enabled super-admins first, so two concurrent demotions cannot both see the other one remain.
  await db
    .select({ id: adminUsers.id })
    .from(adminUsers)
    .innerJoin(roles, eq(roles.id, adminUsers.roleId))
    .where(and(eq(roles.isSuper, true), eq(adminUsers.status, 1)))
    .for('update', { of: adminUsers });
  const [target] = await db.select({ isSuper: roles.isSuper }).from(adminUsers).innerJoin(roles, eq(roles.id, adminUsers.roleId)).where(eq(adminUsers.id, excludeId));
  if (!target?.isSuper) return;
  const [row] = await db
    .select({ n: count() })
    .from(adminUsers)
    .innerJoin(roles, eq(roles.id, adminUsers.roleId))
    .where(and(eq(roles.isSuper, true), eq(adminUsers.status, 1), sql`${adminUsers.id} <> ${excludeId}`));
  if (row!.n === 0) throw badRequest('lastSuperAdmin');
}

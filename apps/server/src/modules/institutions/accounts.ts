import { randomInt } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { childGrade, type InstitutionCreated, type InstitutionStatus } from '@app/contract';
import type { Tx } from '../../db/client';
import { branchApplications, institutions } from '../../db/schema';
import { hashPassword } from '../../lib/crypto';
import { fieldError, isUniqueViolation } from '../../lib/form';
import { readParam } from '../../lib/params';
import { validatePassword } from '../../lib/accounts';
import { lockTreeShared, pathOf } from './scope';

type Stored = typeof institutions.$inferSelect;

/* An institution's login: a new institution with its account (also for an approved branch application), generated
 * and checked passwords, the account name's check. */

/** The stored status of a status name. */
export const statusValue = (s: InstitutionStatus) => (s === 'enabled' ? 1 : 0);

/** Readable and unambiguous (no 0/O, 1/l/I): 56 symbols, about 5.8 bits each. */
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** A password for a new login: at least 12 characters (longer if the system minimum asks for more). */
async function generatePassword(db: Tx): Promise<string> {
  const length = Math.max(12, await readParam(db, 'password_min_length'));
  return Array.from({ length }, () => PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)]).join('');
}

/** The given password checked against the system minimum (a 400 at `field`), or a generated one. */
export async function passwordFor(db: Tx, given: string | undefined, field = 'password'): Promise<{ password: string; generated: boolean }> {
  if (!given) return { password: await generatePassword(db), generated: true };
  try {
    return { password: await validatePassword(db, given), generated: false };
  } catch (err) {
    const e = err as { messageKey?: string; params?: Record<string, string | number> };
    if (e.messageKey === 'passwordTooShort' || e.messageKey === 'passwordEmpty' || e.messageKey === 'passwordCommon') throw fieldError(field, e.messageKey, e.params);
    throw err;
  }
}

/** Refuses an account name used by an institution or asked for by a pending branch application. */
export async function assertUsernameFree(db: Tx, username: string, field = 'username') {
  const lower = username.toLowerCase();
  const [taken] = await db
    .select({ id: institutions.id })
    .from(institutions)
    .where(eq(sql`lower(${institutions.username})`, lower));
  if (taken) throw fieldError(field, 'usernameTaken', { username });
  const [pending] = await db
    .select({ id: branchApplications.id })
    .from(branchApplications)
    .where(and(eq(sql`lower(${branchApplications.username})`, lower), eq(branchApplications.state, 'pending')));
  if (pending) throw fieldError(field, 'usernamePending', { username });
}

export interface NewInstitution {
  parent: Pick<Stored, 'id' | 'grade' | 'path' | 'termExpiresAt'> | null;
  name: string;
  username: string;
  /** Empty: generated (and answered). */
  password?: string;
  contactName: string;
  phone: string;
  region: { province: string; city: string; district: string | null };
  address: string;
  status: InstitutionStatus;
  termExpiresAt: Date | null;
}

/**
 * Creates an institution under `parent` by the grade rule (no parent: grade 1), with its login, in the
 * caller's transaction: the account name must be free (institutions and pending applications).
 */
export async function createInstitution(db: Tx, input: NewInstitution): Promise<InstitutionCreated> {
  await lockTreeShared(db);
  const { password, generated } = await passwordFor(db, input.password);
  await assertUsernameFree(db, input.username);
  const passwordHash = await hashPassword(password);
  try {
    const [row] = await db
      .insert(institutions)
      .values({
        name: input.name,
        grade: childGrade(input.parent?.grade ?? null),
        parentId: input.parent?.id ?? null,
        username: input.username,
        passwordHash,
        contactName: input.contactName,
        phone: input.phone,
        address: input.address,
        status: statusValue(input.status),
        termExpiresAt: input.termExpiresAt,
        ...input.region,
      })
      .returning({ id: institutions.id });
    await db
      .update(institutions)
      .set({ path: pathOf(input.parent?.path ?? null, row!.id) })
      .where(eq(institutions.id, row!.id));
    return { id: row!.id, password: generated ? password : null };
  } catch (err) {
    if (isUniqueViolation(err)) throw fieldError('username', 'usernameTaken', { username: input.username });
    throw err;
  }
}

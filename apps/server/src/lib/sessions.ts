import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { sessions } from '../db/schema';
import { hashKey, newKey } from './crypto';
import { readParams } from './params';

export type SubjectKind = 'admin' | 'institution';

/** `expiresAt` carries an absolute expiry over from the session a new one replaces (role switching). */
export async function createSession(db: Tx, input: { kind: SubjectKind; subjectId: number; ip: string; restricted?: boolean; viewRoleId?: number | null; expiresAt?: Date }) {
  const params = await readParams(db);
  const key = newKey();
  const now = new Date();
  const [row] = await db
    .insert(sessions)
    .values({
      keyHash: hashKey(key),
      subjectKind: input.kind,
      subjectId: input.subjectId,
      restricted: input.restricted ?? false,
      viewRoleId: input.viewRoleId ?? null,
      ip: input.ip.slice(0, 64),
      lastSeenAt: now,
      expiresAt: input.expiresAt ?? new Date(now.getTime() + params.session_absolute_hours * 3600_000),
    })
    .returning();
  return { key, session: row! };
}

/** The live session for a key, or null when missing, unknown, idle too long or past its absolute expiry. */
export async function findSession(db: Tx, key: string) {
  const [row] = await db
    .select()
    .from(sessions)
    .where(eq(sessions.keyHash, hashKey(key)));
  if (!row) return null;
  const { session_idle_minutes } = await readParams(db);
  const now = Date.now();
  if (row.expiresAt.getTime() <= now || row.lastSeenAt.getTime() + session_idle_minutes * 60_000 <= now) {
    await db.delete(sessions).where(eq(sessions.id, row.id));
    return null;
  }
  // Idle time is tracked to the minute: one write a minute per session at most.
  if (now - row.lastSeenAt.getTime() > 60_000) {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.id, row.id));
  }
  return row;
}

export const deleteSession = (db: Tx, id: number) => db.delete(sessions).where(eq(sessions.id, id));

/** Ends every session of a subject, except one (the caller's own, when it changes its own password). */
export async function endSubjectSessions(db: Tx, kind: SubjectKind, subjectId: number, exceptId?: number) {
  const cond = and(eq(sessions.subjectKind, kind), eq(sessions.subjectId, subjectId), exceptId ? sql`${sessions.id} <> ${exceptId}` : undefined);
  await db.delete(sessions).where(cond);
}

/** Housekeeping: drops sessions past their absolute expiry or idle for longer than the longest idle time. */
export async function purgeExpiredSessions(db: Tx) {
  const { session_idle_minutes } = await readParams(db);
  const now = Date.now();
  await db.delete(sessions).where(or(lt(sessions.expiresAt, new Date(now)), lt(sessions.lastSeenAt, new Date(now - session_idle_minutes * 60_000))));
}

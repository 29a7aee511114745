import { createHmac } from 'node:crypto';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { adminUsers, cacheVersions, institutions, sessions } from '../db/schema';
import { sessionCacheOf } from '../db/session-cache';
import { paramsAt, paramsInMemory } from './access-cache';
import { hashKey, newKey } from './crypto';
import { reauthRequired } from './errors';
import { type ParamValues, readParams } from './params';
import { HOUR } from './time';

export type SubjectKind = 'admin' | 'institution';

/** The User-Agent a session (and an audit row) keeps: printable text, at most 256 characters. */
export const userAgentOf = (headers: Record<string, string | string[] | undefined>): string => {
  const ua = headers['user-agent'];
  const text = Array.isArray(ua) ? ua[0] : ua;
  return typeof text === 'string' ? text.replace(/[^\x20-\x7e]/g, '').slice(0, 256) : '';
};

/**
 * `expiresAt` carries an absolute expiry over from the session a new one replaces (role switching), and
 * `userAgent` the browser it was signed in with (`userAgentOf`).
 */
export async function createSession(
  db: Tx,
  input: { kind: SubjectKind; subjectId: number; ip: string; userAgent?: string; restricted?: boolean; viewRoleId?: number | null; expiresAt?: Date; reauthenticated?: boolean },
) {
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
      userAgent: input.userAgent ?? '',
      // A sign-in with the password is a recent authentication: step-up calls need no second prompt for a while.
      reauthUntil: input.reauthenticated ? new Date(now.getTime() + params.reauth_minutes * 60_000) : null,
      lastSeenAt: now,
      expiresAt: input.expiresAt ?? new Date(now.getTime() + params.session_absolute_hours * HOUR),
    })
    .returning();
  return { key, session: row! };
}

/** Idle time is tracked to the minute: one write a minute per session at most. */
const TOUCH_MS = 60_000;

/** Neither past its absolute expiry nor idle for `idleMinutes` or longer (the access check's rule; the notice streams close by it). */
export const isLive = (session: { expiresAt: Date; lastSeenAt: Date }, idleMinutes: number, now: number) =>
  session.expiresAt.getTime() > now && session.lastSeenAt.getTime() + idleMinutes * 60_000 > now;

/** The live session for a key, or null when missing, unknown, idle too long or past its absolute expiry. */
export async function findSession(db: Tx, key: string, params?: ParamValues) {
  const [row] = await db
    .select()
    .from(sessions)
    .where(eq(sessions.keyHash, hashKey(key)));
  if (!row) return null;
  const { session_idle_minutes } = params ?? (await readParams(db));
  const now = Date.now();
  if (!isLive(row, session_idle_minutes, now)) {
    await db.delete(sessions).where(eq(sessions.id, row.id));
    return null;
  }
  if (now - row.lastSeenAt.getTime() > TOUCH_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.id, row.id));
  }
  return row;
}

/**
 * The access check's one query: the session by key hash, its account (admin: role, status, username;
 * institution: status, grade, path, term, username) and the cache counters, in one statement. The idle
 * time comes from the cached parameters (reloaded only when their counter moved). Null when the key is
 * missing, unknown, idle too long or past its absolute expiry (the expired row is deleted).
 */
/** The session query, built once per database and prepared (named) on each pooled connection: no SQL built or planned per request. */
const resolveQueries = new WeakMap<Db, ReturnType<typeof buildResolveQuery>>();
function buildResolveQuery(db: Db) {
  // A missing counter row reads as null: the caches are then bypassed (reloaded at every call), never trusted.
  const version = (name: string) => sql<number | null>`(select ${cacheVersions.version} from ${cacheVersions} where ${cacheVersions.name} = ${name})`.mapWith((v) => (v == null ? null : Number(v)));
  return db
    .select({
      session: sessions,
      admin: { id: adminUsers.id, roleId: adminUsers.roleId, status: adminUsers.status, username: adminUsers.username },
      institution: {
        id: institutions.id,
        status: institutions.status,
        grade: institutions.grade,
        path: institutions.path,
        termExpiresAt: institutions.termExpiresAt,
        username: institutions.username,
        name: institutions.name,
        avatar: institutions.avatar,
        contactName: institutions.contactName,
      },
      grantsVersion: version('grants'),
      paramsVersion: version('params'),
    })
    .from(sessions)
    .leftJoin(adminUsers, and(eq(sessions.subjectKind, 'admin'), eq(adminUsers.id, sessions.subjectId)))
    .leftJoin(institutions, and(eq(sessions.subjectKind, 'institution'), eq(institutions.id, sessions.subjectId)))
    .where(eq(sessions.keyHash, sql.placeholder('keyHash')))
    .prepare('resolve_session');
}

type ResolvedRow = Awaited<ReturnType<ReturnType<typeof buildResolveQuery>['execute']>>[number];

/** A session as the access check uses it: the row, its account, the cache counters and the parameters. */
export type ResolvedSession = ResolvedRow & { params: ParamValues };

/**
 * The row with its parameters, written out field by field. Not `{ ...row, params }`: on Node 20 (V8 11) a
 * property after a spread makes a new hidden class at every call, about 1.2 us where this literal takes
 * 25 ns (docs/decisions.md, "The signed-in path"). It was the largest single cost of a signed-in
 * call's access check; TypeScript fails here when the row gains a field.
 */
const withParams = (row: ResolvedRow, params: ParamValues): ResolvedSession => ({
  session: row.session,
  admin: row.admin,
  institution: row.institution,
  grantsVersion: row.grantsVersion,
  paramsVersion: row.paramsVersion,
  params,
});

/**
 * The access check's row from memory alone, with no await: when the session cache holds it (keyed by the
 * session key itself: the cache lives in this process only, the database keeps only the key's hash), its
 * parameters are in memory, and it needs no write (not expired, not idle too long, touched within the
 * minute). Undefined otherwise: the caller then reads the database (`resolveSession`).
 */
export function resolveSessionInMemory(db: Db, key: string): ResolvedSession | undefined {
  const cached = sessionCacheOf<ResolvedRow>(db)?.get(key);
  if (!cached) return undefined;
  const params = paramsInMemory(db, cached.paramsVersion);
  if (!params) return undefined;
  const now = Date.now();
  return isLive(cached.session, params.session_idle_minutes, now) && now - cached.session.lastSeenAt.getTime() <= TOUCH_MS ? withParams(cached, params) : undefined;
}

/**
 * The access check's row read from the database (the caller has looked in memory first, with
 * `resolveSessionInMemory`), kept in the session cache for the next calls when nothing was flushed meanwhile.
 */
export async function resolveSession(db: Db, key: string): Promise<ResolvedSession | null> {
  const cache = sessionCacheOf<ResolvedRow>(db);
  let query = resolveQueries.get(db);
  if (!query) {
    query = buildResolveQuery(db);
    resolveQueries.set(db, query);
  }
  const stamp = cache?.stamp();
  const [row] = await query.execute({ keyHash: hashKey(key) });
  if (!row) return null;
  const params = await paramsAt(db, row.paramsVersion);
  const { session } = row;
  const now = Date.now();
  if (!isLive(session, params.session_idle_minutes, now)) {
    await db.delete(sessions).where(eq(sessions.id, session.id));
    return null;
  }
  let fresh = row;
  if (now - session.lastSeenAt.getTime() > TOUCH_MS) {
    const touched = new Date(now);
    await db.update(sessions).set({ lastSeenAt: touched }).where(eq(sessions.id, session.id));
    fresh = Object.assign({}, row, { session: Object.assign({}, session, { lastSeenAt: touched }) });
  }
  // Kept only if nothing was flushed since the read began (a racing change is never cached).
  if (cache && stamp !== undefined) cache.set(key, fresh, stamp);
  return withParams(fresh, params);
}

export const deleteSession = (db: Tx, id: number) => db.delete(sessions).where(eq(sessions.id, id));

/**
 * Step-up (trust-api.md): refuses with `reauth_required` unless the session re-authenticated (signed in
 * with its password, or `/auth/reauth`) within its window. Read from the table, never from the session
 * cache, so another process's reauth counts at once; only the few step-up calls pay this one query.
 */
export async function requireStepUp(db: Tx, sessionId: number, now = Date.now()) {
  const [row] = await db.select({ until: sessions.reauthUntil }).from(sessions).where(eq(sessions.id, sessionId));
  if (!row?.until || row.until.getTime() <= now) throw reauthRequired();
}

/** Marks the session re-authenticated for `minutes` from now; answers until when. */
export async function markReauthenticated(db: Tx, sessionId: number, minutes: number): Promise<Date> {
  const until = new Date(Date.now() + minutes * 60_000);
  await db.update(sessions).set({ reauthUntil: until }).where(eq(sessions.id, sessionId));
  return until;
}

/** How long a restricted key lives at most. */
export const RESTRICTED_KEY_MS = HOUR;

/**
 * The restricted key a 998 answers to the holder of `key`: derived from it (HMAC keyed by the caller's
 * key), so every 998 for one sign-in carries the same restricted key, and nothing but a hash is stored.
 * Knowing the restricted key tells nothing of the key it came from.
 */
export const restrictedKeyFor = (key: string) => createHmac('sha256', key).update('restricted-session').digest('base64url');

/**
 * The one restricted session of a sign-in (`key` is that sign-in's key): created at its first 998 and
 * answered again until it expires (then created anew). Concurrent calls race to the same row (the key
 * hash is unique), so each of them answers a key that works.
 */
export async function restrictedSession(db: Tx, key: string, input: { subjectId: number; ip: string; userAgent: string; expiresAt: Date; params?: ParamValues }): Promise<string> {
  const restricted = restrictedKeyFor(key);
  const live = await findSession(db, restricted, input.params);
  if (live) {
    if (!live.restricted) await db.update(sessions).set({ restricted: true }).where(eq(sessions.id, live.id));
    return restricted;
  }
  const now = new Date();
  await db
    .insert(sessions)
    .values({
      keyHash: hashKey(restricted),
      subjectKind: 'institution',
      subjectId: input.subjectId,
      restricted: true,
      ip: input.ip.slice(0, 64),
      userAgent: input.userAgent,
      lastSeenAt: now,
      expiresAt: new Date(Math.min(input.expiresAt.getTime(), now.getTime() + RESTRICTED_KEY_MS)),
    })
    .onConflictDoNothing({ target: sessions.keyHash });
  return restricted;
}

/** Ends every session of a subject, except one (the caller's own, when it changes its own password). */
export async function endSubjectSessions(db: Tx, kind: SubjectKind, subjectId: number, exceptId?: number) {
  const cond = and(eq(sessions.subjectKind, kind), eq(sessions.subjectId, subjectId), exceptId ? sql`${sessions.id} <> ${exceptId}` : undefined);
  await db.delete(sessions).where(cond);
}

/** Housekeeping: drops sessions past their absolute expiry or idle for longer than the longest idle time. */
export async function purgeExpiredSessions(db: Tx, now = Date.now()) {
  const { session_idle_minutes } = await readParams(db);
  await db.delete(sessions).where(or(lt(sessions.expiresAt, new Date(now)), lt(sessions.lastSeenAt, new Date(now - session_idle_minutes * 60_000))));
}

import { and, desc, eq, sql } from 'drizzle-orm';
import { canUseButton, type EndAccountBody, type EndedAnswer, type SessionListAnswer } from '@app/contract';
import type { Tx } from '../../db/client';
import { adminUsers, institutions, sessions } from '../../db/schema';
import { type Auth, callerRef } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { recordAudit } from '../../lib/audit';
import { forbidden, notFound } from '../../lib/errors';
import { type SubjectKind, userAgentOf } from '../../lib/sessions';

/*
 * One's own sessions (trust-api.md, "Sessions"). Ending a session deletes its row: the key then answers
 * 999 at its next call, in every process, since a delete on `sessions` notifies the session caches
 * (migration 0014). The caller's account comes from its session, never from the input.
 */

const ofSubject = (s: { kind: SubjectKind; id: number }) => and(eq(sessions.subjectKind, s.kind), eq(sessions.subjectId, s.id));

/** A session end's row of the access audit (trust-api.md): a `sign_out` event, the account and how many ended. */
const recordEnd = (db: Tx, auth: Auth, ctx: Ctx, account: { kind: SubjectKind; id: number }, ended: number) =>
  recordAudit(db, {
    auth,
    endpoint: ctx.req.endpoint!,
    recordType: account.kind,
    recordId: account.id,
    before: null,
    after: null,
    input: { ended },
    ip: ctx.ip,
    event: 'sign_out',
    userAgent: userAgentOf(ctx.req.headers),
    rows: ended,
  });

/** GET /session/list: the caller's sessions, the current one first, then the most recently active. */
export async function list(db: Tx, auth: Auth): Promise<SessionListAnswer> {
  const rows = await db
    .select()
    .from(sessions)
    .where(ofSubject(callerRef(auth)))
    .orderBy(desc(sql`${sessions.id} = ${auth.sessionId}`), desc(sessions.lastSeenAt), desc(sessions.id));
  return {
    list: rows.map((r) => ({
      id: r.id,
      current: r.id === auth.sessionId,
      created_at: r.createdAt.toISOString(),
      last_seen_at: r.lastSeenAt.toISOString(),
      ip: r.ip,
      user_agent: r.userAgent,
      restricted: r.restricted,
    })),
  };
}

/** POST /session/end: one of the caller's own sessions (the current one too: a sign-out). */
export async function end(db: Tx, auth: Auth, input: { id: number }, ctx: Ctx): Promise<null> {
  const me = callerRef(auth);
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(sessions)
      .where(and(eq(sessions.id, input.id), ofSubject(me)))
      .returning({ id: sessions.id });
    // Another account's session, or one already ended: the same answer, so ids of others reveal nothing.
    if (!gone.length) throw notFound();
    await recordEnd(tx, auth, ctx, me, gone.length);
    return null;
  });
}

/** POST /session/end_others: every session of the caller but the current one. */
export async function endOthers(db: Tx, auth: Auth, _input: unknown, ctx: Ctx): Promise<EndedAnswer> {
  const me = callerRef(auth);
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(sessions)
      .where(and(ofSubject(me), sql`${sessions.id} <> ${auth.sessionId}`))
      .returning({ id: sessions.id });
    await recordEnd(tx, auth, ctx, me, gone.length);
    return { ended: gone.length };
  });
}

/**
 * POST /session/end_account: grade 0 ends every session of an admin (button `admin:status`) or of an
 * institution (button `institution:status`). The account must exist; one's own account is refused (end
 * the others from the Security page instead, keeping the current session).
 */
export async function endAccount(db: Tx, auth: Auth, input: EndAccountBody, ctx: Ctx): Promise<EndedAnswer> {
  if (auth.kind !== 'admin' || !canUseButton(input.kind === 'admin' ? 'admin:status' : 'institution:status', auth.viewer)) throw forbidden();
  if (input.kind === 'admin' && input.id === auth.admin.id) throw forbidden();
  const table = input.kind === 'admin' ? adminUsers : institutions;
  const [account] = await db.select({ id: table.id }).from(table).where(eq(table.id, input.id));
  if (!account) throw notFound();
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(sessions)
      .where(ofSubject({ kind: input.kind, id: input.id }))
      .returning({ id: sessions.id });
    await recordEnd(tx, auth, ctx, { kind: input.kind, id: input.id }, gone.length);
    return { ended: gone.length };
  });
}

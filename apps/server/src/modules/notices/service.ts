import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { NoticeListAnswer, NoticeListQuery, NoticeReadBody } from '@app/contract';
import type { Tx } from '../../db/client';
import { notices } from '../../db/schema';
import { type Auth, callerRef } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { offsetOf } from '../../lib/list';
import { hubOf } from './hub';
import { toNoticeRow } from './rows';

/*
 * The reader's notices (trust-api.md, "Notices"): list, mark read, follow live. The reader is the calling
 * account, from its session; the ids a client sends only ever narrow its own rows.
 */

const mine = (r: { kind: 'admin' | 'institution'; id: number }) => and(eq(notices.recipientKind, r.kind), eq(notices.recipientId, r.id));

/** GET /notice/list: newest first; `unread`, `kind`, `level` narrow it; `unread` counts all unread ones. */
export async function list(db: Tx, auth: Auth, q: NoticeListQuery, ctx: Ctx): Promise<NoticeListAnswer> {
  const reader = callerRef(auth);
  const conds: (SQL | undefined)[] = [mine(reader)];
  if (q.unread) conds.push(isNull(notices.readAt));
  if (q.kind) conds.push(eq(notices.kind, q.kind));
  if (q.level) conds.push(eq(notices.level, q.level));
  const where = and(...conds);
  const order = q.order === 'ascend' ? sql`${notices.id} asc` : sql`${notices.id} desc`;
  const [rows, counts] = await Promise.all([
    db.select().from(notices).where(where).orderBy(order).limit(q.limit).offset(offsetOf(q)),
    db
      .select({
        total: sql<number>`(select count(*) from (select 1 from ${notices} where ${where} limit 10001) s)::int`,
        unread: sql<number>`(select count(*) from ${notices} where ${and(mine(reader), isNull(notices.readAt))})::int`,
      })
      .from(sql`(select 1) one`),
  ]);
  const total = Math.min(counts[0]!.total, 10_000);
  return { list: rows.map((r) => toNoticeRow(r, ctx.lang)), total, capped: counts[0]!.total > 10_000, unread: counts[0]!.unread };
}

/** POST /notice/read: some of the caller's own notices (other ids change nothing), or all of them. */
export async function read(db: Tx, auth: Auth, body: NoticeReadBody): Promise<null> {
  const reader = callerRef(auth);
  const which = 'ids' in body ? inArray(notices.id, body.ids) : undefined;
  await db
    .update(notices)
    .set({ readAt: new Date() })
    .where(and(mine(reader), isNull(notices.readAt), which));
  return null;
}

/** The last id a client has (Last-Event-ID), or null. */
function lastEventId(header: string | string[] | undefined): number | null {
  const v = Array.isArray(header) ? header[0] : header;
  if (!v || !/^[0-9]{1,15}$/.test(v.trim())) return null;
  return Number(v.trim());
}

/** GET /notice/stream: the caller's notices as they are written (server-sent events). */
export async function stream(db: Tx, auth: Auth, _input: unknown, ctx: Ctx): Promise<unknown> {
  const hub = hubOf(db);
  if (!hub) throw new Error('notices: no stream hub in this scope');
  const reader = callerRef(auth);
  ctx.reply.hijack();
  await hub.openStream({
    sessionId: auth.sessionId,
    reader,
    lang: ctx.lang,
    raw: ctx.reply.raw,
    headers: ctx.reply.getHeaders() as Record<string, string>,
    after: lastEventId(ctx.req.headers['last-event-id']),
  });
  return null;
}

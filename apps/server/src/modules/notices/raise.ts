import { sql, type SQL } from 'drizzle-orm';
import { type ButtonKey, findRoute, type Grade, levelOf, type NoticeKind, type NoticeLevel, type NoticeParams, type PageName, routeOfButton } from '@app/contract';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../lib/list';
import { type Auth, callerRef } from '../../http/access';

/*
 * Writing notices: one function for the event-driven ones (`raiseNotice`, called by the services in the
 * transaction of the change) and one for the scheduled check's sets (`raiseNotices`, a query of things).
 * Both insert one row per reader with `on conflict do nothing` against the unique key (kind, thing, epoch,
 * reader): a thing in one state is announced once to each reader, however many transactions try at once.
 *
 * Readers (trust-api.md): every account whose scope covers the thing (the thing's institution and its
 * ancestors whose grade opens the page of the list it belongs to, and the admins whose role holds that
 * page), and for a pending decision the holders of the deciding button instead (admins whose role holds it;
 * institutions whose grade the button allows: none today). The account that caused the change is left out.
 *
 * Order: a writer takes the transaction lock NOTICE_LOCK before its insert and keeps it to its commit, so
 * notice ids are handed out in commit order. A stream that has sent id n has then seen every notice below
 * n (modules/notices/hub.ts), which makes resuming after an id (Last-Event-ID) exact. The lock is taken
 * last in a transaction (after the change's own row locks), so it cannot be part of a deadlock.
 */

/** The transaction lock of notice writers (pg_advisory_xact_lock's two-key form: ours, then the job). */
export const NOTICE_LOCK: readonly [number, number] = [0x62696f, 3];

/** The list a kind's thing belongs to (its readers' page), and for pending decisions the deciding button. */
export const NOTICE_SCOPE: Record<NoticeKind, { page: PageName; decide?: ButtonKey }> = {
  device_offline: { page: 'DeviceList' },
  device_expiring: { page: 'DeviceList' },
  device_uses_low: { page: 'DeviceList' },
  institution_expiring: { page: 'InstitutionList' },
  payout_pending: { page: 'PayoutManage', decide: 'payout:review' },
  payout_decided: { page: 'PayoutManage' },
  refund_done: { page: 'DeviceEndRecord' },
  application_pending: { page: 'InspectionApply', decide: 'branch:review' },
  application_decided: { page: 'InspectionApply' },
};

/** The institution grades that read a kind: the page's, or for a pending decision the button's. */
export function readerGrades(kind: NoticeKind): Grade[] {
  const scope = NOTICE_SCOPE[kind];
  if (scope.decide) {
    const button = routeOfButton(scope.decide)?.buttons?.find((b) => b.key === scope.decide);
    return [...(button?.grades ?? [0])].filter((g) => g > 0);
  }
  return [...(findRoute(scope.page)?.grades ?? [])].filter((g) => g > 0);
}

/**
 * The enabled admins (of an enabled role) who read a kind: the super role, and roles holding its page (and
 * for a pending decision its button, shown: hidden buttons grant nothing, as in the access check).
 */
export async function adminReaders(db: Tx, kind: NoticeKind): Promise<number[]> {
  const scope = NOTICE_SCOPE[kind];
  const holds = (sign: string, button: boolean) =>
    sql`exists (select 1 from role_menus rm join menus m on m.id = rm.menu_id where rm.role_id = r.id and m.sign = ${sign}${button ? sql` and m.hidden = 0` : sql``})`;
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`
      select a.id from admin_users a join roles r on r.id = a.role_id
      where a.status = 1 and r.status and (r.is_super or (${holds(scope.page, false)}${scope.decide ? sql` and ${holds(scope.decide, true)}` : sql``}))
      order by a.id`),
  );
  return rows.map((r) => r.id);
}

/** The account that caused a change: left out of its readers. */
export interface Actor {
  kind: 'admin' | 'institution';
  id: number;
}

/**
 * Inserts the notices of a set of things: `things` is a query of rows (thing_id int, epoch bigint,
 * inst_path text or null, params jsonb, level text) of one kind, each announced to its readers unless
 * already announced in that epoch. Must run inside a transaction (the lock lasts until its commit).
 * Answers how many rows were written.
 */
export async function raiseNotices(db: Tx, kind: NoticeKind, things: SQL, opts: { actor?: Actor | null } = {}): Promise<number> {
  const admins = await adminReaders(db, kind);
  const grades = readerGrades(kind);
  const actor = opts.actor ?? null;
  await db.execute(sql`select pg_advisory_xact_lock(${NOTICE_LOCK[0]}, ${NOTICE_LOCK[1]})`);
  const result = await db.execute(sql`
    insert into notices (kind, level, thing_id, epoch, recipient_kind, recipient_id, params)
    select ${kind}, x.level, x.thing_id, x.epoch, r.kind, r.id, x.params
    from (${things}) x
    cross join lateral (
      select 'institution'::varchar as kind, i.id from institutions i
      where x.inst_path is not null and i.id = any(string_to_array(trim(both '/' from x.inst_path), '/')::int[])
        and i.grade = any(${`{${grades.join(',')}}`}::int[])
      union all
      select 'admin'::varchar, a from unnest(${`{${admins.join(',')}}`}::int[]) a
    ) r
    where not exists (select 1 from notices n where n.kind = ${kind} and n.thing_id = x.thing_id and n.epoch = x.epoch)
      ${actor ? sql`and not (r.kind = ${actor.kind} and r.id = ${actor.id})` : sql``}
    order by x.thing_id, r.kind, r.id
    on conflict do nothing`);
  return (result as { rowCount?: number | null }).rowCount ?? 0;
}

export interface NoticeOf {
  kind: NoticeKind;
  /** The device, institution, payout, payment or application it is about. */
  thingId: number;
  /** The state's epoch (0 for a one-time event). */
  epoch?: number;
  /** The institution whose subtree the thing lies in (null: the platform's own, e.g. stock). */
  institutionId: number | null;
  params: NoticeParams;
  actor?: Actor | null;
  level?: NoticeLevel;
}

/**
 * One event's notices, written in the caller's transaction (the services' one function for it: payout
 * applied and decided, refund, branch application filed and decided).
 */
export async function raiseNotice(db: Tx, n: NoticeOf): Promise<number> {
  const level = n.level ?? levelOf(n.kind, n.params);
  const things = sql`select ${n.thingId}::int as thing_id, ${n.epoch ?? 0}::bigint as epoch,
    (select path from institutions where id = ${n.institutionId}::int) as inst_path, ${JSON.stringify(n.params)}::jsonb as params, ${level}::varchar as level`;
  return raiseNotices(db, n.kind, things, { actor: n.actor });
}

/** The caller of a request as an actor. */
export const actorOf = (auth: Auth): Actor => {
  const { kind, id } = callerRef(auth);
  return { kind, id };
};

import { and, desc, eq, gte, ilike, lte, sql, type SQL } from 'drizzle-orm';
import type { AuditActorKind, AuditChange, AuditDetail, AuditEvent, AuditListQuery, AuditOutcome, AuditReason, AuditRow, IdInput, ListResult } from '@app/contract';
import type { Tx } from '../../db/client';
import { auditLog, roles } from '../../db/schema';
import type { Auth } from '../../http/access';
import { notFound } from '../../lib/errors';
import { pagedList } from '../../lib/list';
import { likeEscape } from '../../lib/list';
import { fromWhere, iso } from '../../lib/masterdata';
import { DAY } from '../../lib/time';

/** Top-level keys whose values differ between two snapshots (both objects), in the after's order. */
export function changedKeys(before: unknown, after: unknown): string[] {
  const b = before && typeof before === 'object' && !Array.isArray(before) ? (before as Record<string, unknown>) : null;
  const a = after && typeof after === 'object' && !Array.isArray(after) ? (after as Record<string, unknown>) : null;
  if (!a && !b) return [];
  if (!a || !b) return Object.keys(a ?? b ?? {});
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

const columns = {
  id: auditLog.id,
  createdAt: auditLog.createdAt,
  actorKind: auditLog.actorKind,
  actorId: auditLog.actorId,
  actorName: auditLog.actorName,
  viewRoleId: auditLog.viewRoleId,
  viewRoleName: roles.name,
  endpoint: auditLog.endpoint,
  path: auditLog.path,
  recordType: auditLog.recordType,
  recordId: auditLog.recordId,
  ip: auditLog.ip,
  before: auditLog.before,
  after: auditLog.after,
  change: auditLog.change,
  event: auditLog.event,
  outcome: auditLog.outcome,
  reason: auditLog.reason,
  userAgent: auditLog.userAgent,
  rowCount: auditLog.rowCount,
};
type Selected = { [K in keyof typeof columns]: unknown } & { id: number; createdAt: Date };

function toRow(r: Selected): AuditRow {
  return {
    id: r.id,
    created_at: iso(r.createdAt),
    actor_kind: r.actorKind as AuditActorKind,
    actor_id: r.actorId as number | null,
    actor_name: r.actorName as string,
    view_role_id: r.viewRoleId as number | null,
    view_role_name: (r.viewRoleName as string | null) ?? null,
    endpoint: r.endpoint as string,
    path: r.path as string,
    record_type: r.recordType as string | null,
    record_id: r.recordId as number | null,
    ip: r.ip as string,
    change: r.change as AuditChange,
    changed: r.change === 'update' && r.before != null && r.after != null ? changedKeys(r.before, r.after) : [],
    event: r.event as AuditEvent,
    outcome: r.outcome as AuditOutcome,
    reason: (r.reason as AuditReason | null) ?? null,
    user_agent: r.userAgent as string,
    rows: (r.rowCount as number | null) ?? null,
  };
}

/** A day's first or last instant (UTC), or the instant given. */
const bound = (v: string, side: 'start' | 'end') => (v.length === 10 ? new Date(new Date(`${v}T00:00:00Z`).getTime() + (side === 'end' ? DAY - 1 : 0)) : new Date(v));

/** Newest first (or oldest first when asked), filtered by who, what and when. */
export async function list(db: Tx, _auth: Auth, q: AuditListQuery): Promise<ListResult<AuditRow>> {
  const conds: (SQL | undefined)[] = [
    q.actor ? ilike(auditLog.actorName, `%${likeEscape(q.actor)}%`) : undefined,
    q.actor_kind ? eq(auditLog.actorKind, q.actor_kind) : undefined,
    q.record_type ? eq(auditLog.recordType, q.record_type) : undefined,
    q.record_id ? eq(auditLog.recordId, q.record_id) : undefined,
    q.endpoint ? ilike(auditLog.endpoint, `%${likeEscape(q.endpoint)}%`) : undefined,
    q.change ? eq(auditLog.change, q.change) : undefined,
    q.outcome ? eq(auditLog.outcome, q.outcome) : undefined,
    q.event ? eq(auditLog.event, q.event) : undefined,
    q.from ? gte(auditLog.createdAt, bound(q.from, 'start')) : undefined,
    q.to ? lte(auditLog.createdAt, bound(q.to, 'end')) : undefined,
  ];
  const where = and(...conds);
  const order = q.order === 'ascend' ? [auditLog.createdAt, auditLog.id] : [desc(auditLog.createdAt), desc(auditLog.id)];
  return pagedList(db, q, fromWhere(auditLog, where), async (limit, offset) =>
    (
      await db
        .select(columns)
        .from(auditLog)
        .leftJoin(roles, eq(roles.id, auditLog.viewRoleId))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
    ).map((r) => toRow(r as Selected)),
  );
}

export async function detail(db: Tx, _auth: Auth, { id }: IdInput): Promise<AuditDetail> {
  const [r] = await db
    .select(Object.assign({}, columns, { input: auditLog.input }))
    .from(auditLog)
    .leftJoin(roles, eq(roles.id, auditLog.viewRoleId))
    .where(eq(auditLog.id, id));
  if (!r) throw notFound();
  return Object.assign(toRow(r as Selected), { before: r.before ?? null, after: r.after ?? null, input: r.input ?? null });
}

/** The record types present in the trail, for the filter. */
export async function recordTypes(db: Tx): Promise<string[]> {
  const rows = await db.selectDistinct({ t: auditLog.recordType }).from(auditLog).where(sql`${auditLog.recordType} is not null`).orderBy(auditLog.recordType);
  return rows.map((r) => r.t!).filter(Boolean);
}

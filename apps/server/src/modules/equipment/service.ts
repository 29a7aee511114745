import { and, eq, gte, isNotNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { DeviceRow, EquipmentListQuery, ListResult } from '@app/contract';
import type { Tx } from '../../db/client';
import { devices, institutions } from '../../db/schema';
import type { Auth } from '../../http/access';
import { forbidden } from '../../lib/errors';
import { cappedCount, likeEscape, offsetOf, sortBy } from '../../lib/list';
import { readParam } from '../../lib/params';
import { institutionSubtreeIds, isInSubtree } from '../institutions';

const SORT_COLUMNS = {
  serial: devices.serial,
  name: devices.name,
  status: devices.status,
  activated_at: devices.activatedAt,
  expires_at: devices.expiresAt,
  last_seen_at: devices.lastSeenAt,
  total_inspections: devices.totalInspections,
  created_at: devices.createdAt,
} as const;

/** The device list: scoped to the caller's institution subtree (everything for admins), filtered, sorted, paged. */
export async function list(db: Tx, auth: Auth, q: EquipmentListQuery): Promise<ListResult<DeviceRow>> {
  const expiringDays = auth.params?.expiring_days ?? (await readParam(db, 'expiring_days'));
  const now = new Date();
  const soon = new Date(now.getTime() + expiringDays * 86_400_000);
  const conds: (SQL | undefined)[] = [];

  if (auth.kind === 'institution') conds.push(sql`${devices.institutionId} in ${institutionSubtreeIds(auth.institution!.path)}`);
  if (q.institution_id) {
    if (auth.kind === 'institution' && !(await isInSubtree(db, auth.institution!.path, q.institution_id))) throw forbidden();
    conds.push(eq(devices.institutionId, q.institution_id));
  }
  if (q.keyword) {
    const kw = likeEscape(q.keyword.toLowerCase());
    conds.push(sql`lower(${devices.serial} || ' ' || ${devices.name} || ' ' || ${devices.model}) like ${`%${kw}%`}`);
  }
  if (q.status) conds.push(eq(devices.status, q.status));
  if (q.expires_from) conds.push(gte(devices.expiresAt, new Date(`${q.expires_from}T00:00:00Z`)));
  if (q.expires_to) conds.push(lt(devices.expiresAt, new Date(new Date(`${q.expires_to}T00:00:00Z`).getTime() + 86_400_000)));
  if (q.expiring) conds.push(and(isNotNull(devices.expiresAt), gte(devices.expiresAt, now), lte(devices.expiresAt, soon)));
  const where = and(...conds);

  const orderBy = sortBy(SORT_COLUMNS, q, 'created_at', devices.id);

  const [rows, count] = await Promise.all([
    db
      .select({
        id: devices.id,
        serial: devices.serial,
        model: devices.model,
        name: devices.name,
        status: devices.status,
        institutionId: devices.institutionId,
        institutionName: institutions.name,
        activatedAt: devices.activatedAt,
        expiresAt: devices.expiresAt,
        remainingUses: devices.remainingUses,
        totalInspections: devices.totalInspections,
        lastSeenAt: devices.lastSeenAt,
        createdAt: devices.createdAt,
        remark: devices.remark,
      })
      .from(devices)
      .leftJoin(institutions, eq(institutions.id, devices.institutionId))
      .where(where)
      .orderBy(...orderBy)
      .limit(q.limit)
      .offset(offsetOf(q)),
    cappedCount(db, sql`from ${devices} where ${where ?? sql`true`}`),
  ]);

  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    list: rows.map((r) => ({
      id: r.id,
      serial: r.serial,
      model: r.model,
      name: r.name,
      status: r.status,
      institution_id: r.institutionId,
      institution_name: r.institutionName ?? null,
      activated_at: iso(r.activatedAt),
      expires_at: iso(r.expiresAt),
      remaining_uses: r.remainingUses,
      total_inspections: r.totalInspections,
      last_seen_at: iso(r.lastSeenAt),
      created_at: r.createdAt.toISOString(),
      remark: r.remark,
      expiring: !!r.expiresAt && r.expiresAt >= now && r.expiresAt <= soon,
    })),
    ...count,
  };
}

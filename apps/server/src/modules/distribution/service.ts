import { and, asc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  type DistributeAnswer,
  type DistributeBody,
  type DistributionExportQuery,
  type DistributionListQuery,
  type DistributionRow,
  type L10n,
  type Lang,
  type ListResult,
  pickText,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { devices, distributionLines, distributionRecords, institutions } from '../../db/schema';
import { type Auth, callerRef } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { badRequest, notFound } from '../../lib/errors';
import { type ExportColumn, exportList } from '../../lib/export';
import { fieldError } from '../../lib/form';
import { cappedCount, likeEscape, offsetOf, orderOf, type SortKey } from '../../lib/list';
import { DAY } from '../../lib/time';
import { t } from '../../lib/labels';

/*
 * Distribution: a move of devices is one transaction. The devices are locked in id order (SELECT ... FOR
 * UPDATE, so two moves over overlapping sets cannot deadlock), each one's owner must still be the `from`
 * the operator saw (else the move is refused naming the serials that moved meanwhile), then they move,
 * and one record with one line per device (device, from, to) is written. A device therefore has exactly
 * one owner at any time, and the lines of a device chain: each line's `from` is the previous line's `to`.
 */

/** POST /distribution/distribute: moves the selected devices from `from` to `to` (null: platform stock). */
export async function distribute(db: Tx, auth: Auth, body: DistributeBody): Promise<DistributeAnswer> {
  if (body.to != null) {
    const [target] = await db.select({ id: institutions.id, status: institutions.status }).from(institutions).where(eq(institutions.id, body.to));
    if (target?.status !== 1) throw fieldError('to', 'distributionTargetMissing');
  }
  const ids = [...body.ids].sort((a, b) => a - b);
  const locked = await db.select({ id: devices.id, serial: devices.serial, institutionId: devices.institutionId }).from(devices).where(inArray(devices.id, ids)).orderBy(asc(devices.id)).for('update');
  if (locked.length !== ids.length) throw notFound();
  const moved = locked.filter((d) => d.institutionId !== body.from);
  if (moved.length) {
    const serials = moved.map((d) => d.serial);
    throw badRequest('distributionMoved', { serials: serials.length > 20 ? `${serials.slice(0, 20).join(', ')}, ... (${serials.length})` : serials.join(', ') });
  }
  await db.update(devices).set({ institutionId: body.to }).where(inArray(devices.id, ids));
  const [record] = await db
    .insert(distributionRecords)
    .values({
      fromInstitutionId: body.from,
      toInstitutionId: body.to,
      deviceCount: ids.length,
      operatorId: auth.kind === 'admin' ? auth.admin.id : null,
      operatorName: callerRef(auth).username,
      remark: body.remark,
    })
    .returning({ id: distributionRecords.id });
  await db.insert(distributionLines).values(ids.map((deviceId) => ({ recordId: record!.id, deviceId, fromInstitutionId: body.from, toInstitutionId: body.to })));
  return { id: record!.id, count: ids.length, mode: 'all' };
}

const fromInst = alias(institutions, 'from_inst');
const toInst = alias(institutions, 'to_inst');
const serialsSql = sql<
  string[]
>`(select coalesce(array_agg(d.serial order by d.serial), '{}') from ${distributionLines} l join ${devices} d on d.id = l.device_id where l.record_id = "distribution_records"."id")`;

function conditions(q: Partial<DistributionListQuery>): SQL | undefined {
  const conds: (SQL | undefined)[] = [];
  if (q.institution_id) conds.push(or(eq(distributionRecords.fromInstitutionId, q.institution_id), eq(distributionRecords.toInstitutionId, q.institution_id)));
  if (q.serial) {
    const kw = `%${likeEscape(q.serial.toUpperCase())}%`;
    conds.push(sql`exists (select 1 from ${distributionLines} l join ${devices} d on d.id = l.device_id where l.record_id = ${distributionRecords.id} and d.serial like ${kw})`);
  }
  if (q.date_from) conds.push(gte(distributionRecords.createdAt, new Date(`${q.date_from}T00:00:00Z`)));
  if (q.date_to) conds.push(lt(distributionRecords.createdAt, new Date(new Date(`${q.date_to}T00:00:00Z`).getTime() + DAY)));
  return and(...conds);
}

async function rows(db: Tx, where: SQL | undefined, order: SQL[], limit: number, offset: number): Promise<DistributionRow[]> {
  const found = await db
    .select({ r: distributionRecords, fromName: fromInst.name, toName: toInst.name, serials: serialsSql })
    .from(distributionRecords)
    .leftJoin(fromInst, eq(fromInst.id, distributionRecords.fromInstitutionId))
    .leftJoin(toInst, eq(toInst.id, distributionRecords.toInstitutionId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return found.map(({ r, fromName, toName, serials }) => ({
    id: r.id,
    from_institution_id: r.fromInstitutionId,
    from_institution_name: fromName ?? null,
    to_institution_id: r.toInstitutionId,
    to_institution_name: toName ?? null,
    device_count: r.deviceCount,
    serials: serials ?? [],
    operator_name: r.operatorName,
    remark: r.remark,
    created_at: r.createdAt.toISOString(),
  }));
}

/** Newest first, unless the oldest first is asked for. */
const keyOf = (q: { order?: string }): SortKey => ({ columns: [distributionRecords.createdAt], id: distributionRecords.id, ascending: q.order === 'ascend' });

/** GET /distribution/list: newest first (or oldest first), filtered by institution (from or to), serial and dates. */
export async function list(db: Tx, _auth: Auth, q: DistributionListQuery): Promise<ListResult<DistributionRow>> {
  const where = conditions(q);
  const [list, count] = await Promise.all([rows(db, where, orderOf(keyOf(q)), q.limit, offsetOf(q)), cappedCount(db, sql`from ${distributionRecords} where ${where ?? sql`true`}`)]);
  return { list, ...count };
}

/** The audit trail's view of a record. */
export async function snapshot(db: Tx, id: number | null): Promise<DistributionRow | null> {
  if (id == null) return null;
  const [row] = await rows(db, eq(distributionRecords.id, id), [asc(distributionRecords.id)], 1, 0);
  return row ?? null;
}

const LABELS = {
  time: t('时间 (UTC)', 'Time (UTC)', 'Fecha (UTC)', '日時 (UTC)'),
  from: t('来源', 'From', 'Origen', '移動元'),
  to: t('目标', 'To', 'Destino', '移動先'),
  count: t('设备数', 'Devices', 'Equipos', '台数'),
  serials: t('设备序列号', 'Serials', 'Números de serie', 'シリアル番号'),
  operator: t('操作人', 'Operator', 'Operador', '操作者'),
  remark: t('备注', 'Remark', 'Observación', '備考'),
  stock: t('平台库存', 'Platform stock', 'Stock de la plataforma', 'プラットフォーム在庫'),
  sheet: t('分配记录', 'Distribution records', 'Distribución', '配布記録'),
};

/** GET /distribution/export: the filtered records, in the list's order, as CSV or XLSX (streamed). */
export async function exportRecords(db: Tx, _auth: Auth, q: DistributionExportQuery, ctx: Ctx) {
  const lang: Lang = ctx.lang;
  const l = (v: L10n) => pickText(v, lang);
  const where = conditions(q);
  const columns: ExportColumn<DistributionRow>[] = [
    { title: l(LABELS.time), value: (r) => new Date(r.created_at), width: 20 },
    { title: l(LABELS.from), value: (r) => r.from_institution_name ?? l(LABELS.stock), width: 24 },
    { title: l(LABELS.to), value: (r) => r.to_institution_name ?? l(LABELS.stock), width: 24 },
    { title: l(LABELS.count), value: (r) => r.device_count },
    { title: l(LABELS.serials), value: (r) => r.serials.join(' '), width: 40 },
    { title: l(LABELS.operator), value: (r) => r.operator_name, width: 16 },
    { title: l(LABELS.remark), value: (r) => r.remark, width: 30 },
  ];
  return exportList(db, ctx.reply, {
    format: q.format,
    filename: 'distribution-records',
    sheet: l(LABELS.sheet),
    columns,
    where,
    key: keyOf(q),
    fetch: (w, order, limit) => rows(db, w, order, limit, 0),
    count: sql`from ${distributionRecords} where ${where ?? sql`true`}`,
  });
}

/** Activation codes: the activation records (grades 0-3, each its subtree): list, export, snapshot. */
import { and, asc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ActivationRecordExportQuery, ActivationRecordListQuery, ActivationRecordRow, ListResult } from '@app/contract';
import type { Tx } from '../../db/client';
import { activationRecords, codeBatches, devices, institutions, packages } from '../../db/schema';
import type { Auth } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { forbidden } from '../../lib/errors';
import { type ExportColumn, exportList as exportRows, dateCell } from '../../lib/export';
import { cappedCount, offsetOf, orderOf, type SortKey } from '../../lib/list';
import { institutionSubtreeIds, isInSubtree } from '../institutions';
import { LABELS, label } from './labels';
import { DAY, isoOrNull } from '../../lib/time';

const recordInst = alias(institutions, 'record_inst');

async function recordConditions(db: Tx, auth: Auth, q: Partial<ActivationRecordListQuery>): Promise<SQL | undefined> {
  const conds: (SQL | undefined)[] = [];
  if (auth.kind === 'institution') conds.push(sql`${activationRecords.institutionId} in ${institutionSubtreeIds(auth.institution.path)}`);
  if (q.institution_id) {
    if (auth.kind === 'institution' && !(await isInSubtree(db, auth.institution.path, q.institution_id))) throw forbidden();
    conds.push(eq(activationRecords.institutionId, q.institution_id));
  }
  if (q.scope) conds.push(eq(activationRecords.scope, q.scope));
  if (q.date_from) conds.push(gte(activationRecords.createdAt, new Date(`${q.date_from}T00:00:00Z`)));
  if (q.date_to) conds.push(lt(activationRecords.createdAt, new Date(new Date(`${q.date_to}T00:00:00Z`).getTime() + DAY)));
  return and(...conds);
}

async function recordRows(db: Tx, where: SQL | undefined, order: SQL[], limit: number, offset: number): Promise<ActivationRecordRow[]> {
  const rows = await db
    .select({ r: activationRecords, batchNo: codeBatches.batchNo, institutionName: recordInst.name, deviceSerial: devices.serial, packageName: packages.name })
    .from(activationRecords)
    .innerJoin(codeBatches, eq(codeBatches.id, activationRecords.batchId))
    .innerJoin(recordInst, eq(recordInst.id, activationRecords.institutionId))
    .leftJoin(devices, eq(devices.id, activationRecords.deviceId))
    .leftJoin(packages, eq(packages.id, activationRecords.packageId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return rows.map(({ r, ...x }) => ({
    id: r.id,
    code: r.codeMasked,
    batch_no: x.batchNo,
    scope: r.scope,
    institution_id: r.institutionId,
    institution_name: x.institutionName,
    device_id: r.deviceId,
    device_serial: x.deviceSerial ?? null,
    package_id: r.packageId,
    package_name: x.packageName ?? null,
    days: r.days,
    uses_added: r.usesAdded,
    term_before: isoOrNull(r.termBefore),
    term_after: isoOrNull(r.termAfter),
    uses_before: r.usesBefore,
    uses_after: r.usesAfter,
    operator_name: r.operatorName,
    created_at: r.createdAt.toISOString(),
  }));
}

/** Newest first, unless the oldest first is asked for. */
const recordKey = (q: { sort?: string; order?: 'ascend' | 'descend' }): SortKey => ({
  columns: [activationRecords.createdAt],
  id: activationRecords.id,
  ascending: q.sort === 'created_at' && q.order === 'ascend',
});

/** GET /activation_record/list: the caller's subtree (everything for the platform), newest first. */
export async function records(db: Tx, auth: Auth, q: ActivationRecordListQuery): Promise<ListResult<ActivationRecordRow>> {
  const where = await recordConditions(db, auth, q);
  const [list, count] = await Promise.all([recordRows(db, where, orderOf(recordKey(q)), q.limit, offsetOf(q)), cappedCount(db, sql`from ${activationRecords} where ${where ?? sql`true`}`)]);
  return { list, ...count };
}

/** The audit trail's view of an activation record. */
export async function recordSnapshot(db: Tx, id: number | null): Promise<ActivationRecordRow | null> {
  if (id == null) return null;
  const [row] = await recordRows(db, eq(activationRecords.id, id), [asc(activationRecords.id)], 1, 0);
  return row ?? null;
}

/** GET /activation_record/export: the filtered records, in the list's order, as CSV or XLSX (streamed). */
export async function recordsExport(db: Tx, auth: Auth, q: ActivationRecordExportQuery, ctx: Ctx) {
  const where = await recordConditions(db, auth, q);
  const lang = ctx.lang;
  const columns: ExportColumn<ActivationRecordRow>[] = [
    { title: label(LABELS.time, lang), value: (r) => dateCell(r.created_at), width: 20 },
    { title: label(LABELS.codeMasked, lang), value: (r) => r.code, width: 22 },
    { title: label(LABELS.batch, lang), value: (r) => r.batch_no, width: 18 },
    { title: label(LABELS.scope, lang), value: (r) => label(LABELS.scopes[r.scope], lang) },
    { title: label(LABELS.institution, lang), value: (r) => r.institution_name, width: 28 },
    { title: label(LABELS.device, lang), value: (r) => r.device_serial ?? '', width: 14 },
    { title: label(LABELS.grant, lang), value: (r) => r.package_name ?? (r.days != null ? label(LABELS.days, lang, r.days) : ''), width: 20 },
    { title: label(LABELS.termBefore, lang), value: (r) => dateCell(r.term_before), width: 20 },
    { title: label(LABELS.termAfter, lang), value: (r) => dateCell(r.term_after), width: 20 },
    { title: label(LABELS.usesBefore, lang), value: (r) => r.uses_before },
    { title: label(LABELS.usesAfter, lang), value: (r) => r.uses_after },
    { title: label(LABELS.operator, lang), value: (r) => r.operator_name, width: 16 },
  ];
  return exportRows(db, ctx.reply, {
    format: q.format,
    filename: 'activation-records',
    sheet: label(LABELS.sheetRecords, lang),
    columns,
    where,
    key: recordKey(q),
    fetch: (w, order, limit) => recordRows(db, w, order, limit, 0),
    count: sql`from ${activationRecords} where ${where ?? sql`true`}`,
  });
}

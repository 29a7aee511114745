/** Activation codes: the codes of batches (grade 0): their list and export, void, assignment to an institution, a batch's export in full. */
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  type BulkAnswer,
  formatCode,
  type CodeAssignBody,
  type CodeBulkVoidBody,
  type CodeCountAnswer,
  type CodeExportBody,
  type CodeListExportQuery,
  type CodeListQuery,
  type CodeRow,
  type Lang,
  type ListResult,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { activationCodes, codeBatches, devices, institutions, packages } from '../../db/schema';
import type { Auth } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { badRequest } from '../../lib/errors';
import { type ExportColumn, exportList as exportRows, sendExport, dateCell } from '../../lib/export';
import { fieldError } from '../../lib/form';
import { eachRow } from '../../lib/bulk';
import { userAgentOf } from '../../lib/sessions';
import { cappedCount, offsetOf, sortBy, sortKey } from '../../lib/list';
import type { CodeKeys } from './key';
import { LABELS, label } from './labels';
import { isoOrNull } from '../../lib/time';
import { batchOf, owner } from './batches';
import { keysOf, maskedOf, statusCondition, statusOf } from './shared';

const usedInst = alias(institutions, 'used_inst');
const CODE_SORTS = { created_at: activationCodes.createdAt, used_at: activationCodes.usedAt, valid_until: activationCodes.validUntil } as const;

function codeConditions(q: Partial<CodeListQuery>): SQL | undefined {
  const conds: (SQL | undefined)[] = [];
  if (q.batch_id) conds.push(eq(activationCodes.batchId, q.batch_id));
  if (q.scope) conds.push(eq(activationCodes.scope, q.scope));
  if (q.status) conds.push(statusCondition(q.status));
  if (q.owner_institution_id) conds.push(eq(activationCodes.ownerInstitutionId, q.owner_institution_id));
  return and(...conds);
}

/** Codes as the list shows them: masked. */
async function codeRows(db: Tx, keys: CodeKeys, where: SQL | undefined, order: SQL[], limit: number, offset: number): Promise<CodeRow[]> {
  const rows = await db
    .select({
      c: activationCodes,
      batchNo: codeBatches.batchNo,
      days: codeBatches.days,
      packageId: codeBatches.packageId,
      packageName: packages.name,
      ownerName: owner.name,
      usedName: usedInst.name,
      deviceSerial: devices.serial,
    })
    .from(activationCodes)
    .innerJoin(codeBatches, eq(codeBatches.id, activationCodes.batchId))
    .leftJoin(packages, eq(packages.id, codeBatches.packageId))
    .leftJoin(owner, eq(owner.id, activationCodes.ownerInstitutionId))
    .leftJoin(usedInst, eq(usedInst.id, activationCodes.usedByInstitutionId))
    .leftJoin(devices, eq(devices.id, activationCodes.usedByDeviceId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  const now = Date.now();
  return rows.map(({ c, ...r }) => ({
    id: c.id,
    batch_id: c.batchId,
    batch_no: r.batchNo,
    code: maskedOf(keys, c.sealed),
    scope: c.scope,
    days: r.days,
    package_id: r.packageId,
    package_name: r.packageName ?? null,
    status: statusOf(c.status, c.validUntil, now),
    owner_institution_id: c.ownerInstitutionId,
    owner_institution_name: r.ownerName ?? null,
    valid_until: isoOrNull(c.validUntil),
    used_at: isoOrNull(c.usedAt),
    used_by_institution_id: c.usedByInstitutionId,
    used_by_institution_name: r.usedName ?? null,
    used_by_device_id: c.usedByDeviceId,
    used_by_device_serial: r.deviceSerial ?? null,
    created_at: c.createdAt.toISOString(),
  }));
}

/** GET /activation_code/list: codes masked, filtered by batch, scope, status and owner. */
export async function list(db: Tx, _auth: Auth, q: CodeListQuery, ctx: Ctx): Promise<ListResult<CodeRow>> {
  const where = codeConditions(q);
  const [list, count] = await Promise.all([
    codeRows(db, keysOf(ctx.config), where, sortBy(CODE_SORTS, q, 'created_at', activationCodes.id), q.limit, offsetOf(q)),
    cappedCount(db, sql`from ${activationCodes} where ${where ?? sql`true`}`),
  ]);
  return { list, ...count };
}

/** GET /activation_code/list_export: the filtered codes, masked as the list shows them, in its order, as CSV or XLSX. */
export async function exportList(db: Tx, _auth: Auth, q: CodeListExportQuery, ctx: Ctx) {
  const keys = keysOf(ctx.config);
  const where = codeConditions(q);
  const lang = ctx.lang;
  const columns: ExportColumn<CodeRow>[] = [
    { title: label(LABELS.codeMasked, lang), value: (r) => r.code, width: 22 },
    { title: label(LABELS.batch, lang), value: (r) => r.batch_no, width: 18 },
    { title: label(LABELS.scope, lang), value: (r) => label(LABELS.scopes[r.scope], lang) },
    { title: label(LABELS.grant, lang), value: (r) => grantText(lang, r.days, r.package_name), width: 20 },
    { title: label(LABELS.status, lang), value: (r) => label(LABELS.statuses[r.status], lang) },
    { title: label(LABELS.owner, lang), value: (r) => r.owner_institution_name ?? label(LABELS.platform, lang), width: 28 },
    { title: label(LABELS.validUntil, lang), value: (r) => dateCell(r.valid_until), width: 20 },
    { title: label(LABELS.usedBy, lang), value: (r) => r.used_by_device_serial ?? r.used_by_institution_name ?? '', width: 28 },
    { title: label(LABELS.usedAt, lang), value: (r) => dateCell(r.used_at), width: 20 },
    { title: label(LABELS.created, lang), value: (r) => dateCell(r.created_at), width: 20 },
  ];
  return exportRows(db, ctx.reply, {
    format: q.format,
    filename: 'activation-codes',
    sheet: label(LABELS.sheetCodes, lang),
    columns,
    where,
    key: sortKey(CODE_SORTS, q, 'created_at', activationCodes.id),
    fetch: (w, order, limit) => codeRows(db, keys, w, order, limit, 0),
    count: sql`from ${activationCodes} where ${where ?? sql`true`}`,
  });
}

/** POST /activation_code/void: unused codes of a batch (the selected ones, or all) become void. */
export async function voidCodes(db: Tx, _auth: Auth, body: { id: number; code_ids?: number[] }): Promise<CodeCountAnswer> {
  await batchOf(db, body.id);
  if (body.code_ids && !body.code_ids.length) throw badRequest('codeNothingToVoid');
  const voided = await db
    .update(activationCodes)
    .set({ status: 'void', voidedAt: new Date() })
    .where(and(eq(activationCodes.batchId, body.id), eq(activationCodes.status, 'unused'), body.code_ids ? inArray(activationCodes.id, body.code_ids) : undefined))
    .returning({ id: activationCodes.id });
  if (!voided.length) throw badRequest('codeNothingToVoid');
  return { count: voided.length };
}

/**
 * POST /activation_code/bulk_void: codes of any batches, each voided by `voidCodes` itself (its batch and
 * that one code), per row; a refused code is named as the list shows it.
 */
export async function bulkVoid(db: Tx, auth: Auth, body: CodeBulkVoidBody, ctx: Ctx): Promise<BulkAnswer> {
  const keys = keysOf(ctx.config);
  const found = await db.select({ id: activationCodes.id, batchId: activationCodes.batchId, sealed: activationCodes.sealed }).from(activationCodes).where(inArray(activationCodes.id, body.ids));
  const batchOfCode = new Map(found.map((c) => [c.id, c.batchId]));
  return eachRow(db, ctx.lang, body.ids, new Map(found.map((c) => [c.id, maskedOf(keys, c.sealed)])), (tx, id) => voidCodes(tx, auth, { id: batchOfCode.get(id)!, code_ids: [id] }), {
    actor: auth,
    endpoint: ctx.req.endpoint!,
    ip: ctx.ip,
    userAgent: userAgentOf(ctx.req.headers),
    recordType: 'activation_code',
    snapshot: codeSnapshot,
    input: (id) => ({ id: batchOfCode.get(id), code_ids: [id] }),
  });
}

/** A code's state for the audit trail (never the code). */
async function codeSnapshot(db: Tx, id: number | null) {
  if (id == null) return null;
  const [c] = await db
    .select({ id: activationCodes.id, batch_id: activationCodes.batchId, status: activationCodes.status, voided_at: activationCodes.voidedAt })
    .from(activationCodes)
    .where(eq(activationCodes.id, id));
  return c ?? null;
}

/** POST /activation_code/assign: the batch's unused codes go to an institution to sell (null: back to the platform). */
export async function assign(db: Tx, _auth: Auth, body: CodeAssignBody): Promise<CodeCountAnswer> {
  await batchOf(db, body.id);
  if (body.institution_id != null) {
    const [inst] = await db.select({ id: institutions.id }).from(institutions).where(eq(institutions.id, body.institution_id));
    if (!inst) throw fieldError('institution_id', 'institutionMissing');
  }
  const moved = await db
    .update(activationCodes)
    .set({ ownerInstitutionId: body.institution_id })
    .where(and(eq(activationCodes.batchId, body.id), eq(activationCodes.status, 'unused')))
    .returning({ id: activationCodes.id });
  if (!moved.length) throw badRequest('codeNothingToAssign');
  await db.update(codeBatches).set({ ownerInstitutionId: body.institution_id }).where(eq(codeBatches.id, body.id));
  return { count: moved.length };
}

/** What a batch's codes grant, as the files say it. */
const grantText = (lang: Lang, days: number | null, packageName: string | null) => (days != null ? label(LABELS.days, lang, days) : (packageName ?? ''));

/**
 * POST /activation_code/export: every code of a batch in full, with its state, as CSV or XLSX. Audited
 * (the registrar writes the row in this call's transaction). Refused when the codes cannot be opened
 * with this server's key (a changed CODE_KEY or code.key), before anything is sent.
 */
export async function exportBatch(db: Tx, _auth: Auth, body: CodeExportBody, ctx: Ctx) {
  const keys = keysOf(ctx.config);
  const batch = await batchOf(db, body.id);
  const pkg = batch.packageId ? (await db.select({ name: packages.name }).from(packages).where(eq(packages.id, batch.packageId)))[0] : undefined;
  const rows = await db
    .select({ c: activationCodes, ownerName: owner.name, usedName: usedInst.name, deviceSerial: devices.serial })
    .from(activationCodes)
    .leftJoin(owner, eq(owner.id, activationCodes.ownerInstitutionId))
    .leftJoin(usedInst, eq(usedInst.id, activationCodes.usedByInstitutionId))
    .leftJoin(devices, eq(devices.id, activationCodes.usedByDeviceId))
    .where(eq(activationCodes.batchId, batch.id))
    .orderBy(asc(activationCodes.id));
  const opened = rows.map((r) => Object.assign({}, r, { code: keys.open(r.c.sealed) }));
  if (opened.some((r) => r.code == null)) throw badRequest('codeKeyMismatch');
  const lang = ctx.lang;
  const now = Date.now();
  const columns: ExportColumn<(typeof opened)[number]>[] = [
    { title: label(LABELS.code, lang), value: (r) => formatCode(r.code!), width: 22 },
    { title: label(LABELS.batch, lang), value: () => batch.batchNo, width: 18 },
    { title: label(LABELS.scope, lang), value: () => label(LABELS.scopes[batch.scope], lang) },
    { title: label(LABELS.grant, lang), value: () => grantText(lang, batch.days, pkg?.name ?? null), width: 20 },
    { title: label(LABELS.status, lang), value: (r) => label(LABELS.statuses[statusOf(r.c.status, r.c.validUntil, now)], lang) },
    { title: label(LABELS.owner, lang), value: (r) => r.ownerName ?? label(LABELS.platform, lang), width: 28 },
    { title: label(LABELS.validUntil, lang), value: (r) => r.c.validUntil, width: 20 },
    { title: label(LABELS.usedBy, lang), value: (r) => r.deviceSerial ?? r.usedName ?? '', width: 28 },
    { title: label(LABELS.usedAt, lang), value: (r) => r.c.usedAt, width: 20 },
  ];
  return sendExport(ctx.reply, { format: body.format, filename: `activation-codes-${batch.batchNo}`, sheet: label(LABELS.sheetCodes, lang), columns, rows: opened });
}

import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { DoctorAddBody, DoctorDetail, DoctorEditBody, DoctorExportQuery, DoctorListQuery, DoctorRow, IdInput, ListResult } from '@app/contract';
import type { Tx } from '../../db/client';
import { doctors, institutions } from '../../db/schema';
import type { Auth } from '../../http/access';
import { notFound } from '../../lib/errors';
import { assertExists, pagedList } from '../../lib/list';
import { maskPhone } from '../../lib/mask';
import { fromWhere, iso, keywordMatch } from '../../lib/masterdata';
import { sortBy, sortKey } from '../../lib/list';
import { type ExportColumn, exportList as exportRows } from '../../lib/export';
import { GENDER_LABELS, label, t } from '../../lib/labels';
import type { Ctx } from '../../http/endpoints';

const SORT_COLUMNS = { name: doctors.name, created_at: doctors.createdAt, inspection_count: doctors.inspectionCount, status: doctors.status } as const;
const live = isNull(doctors.deletedAt);

const selectRows = (db: Tx) => db.select({ d: doctors, institutionName: institutions.name }).from(doctors).leftJoin(institutions, eq(institutions.id, doctors.institutionId));

function toRow(d: typeof doctors.$inferSelect, institutionName: string | null, full: boolean): DoctorRow {
  return {
    id: d.id,
    name: d.name,
    gender: d.gender,
    phone: full ? d.phone : maskPhone(d.phone)!,
    title: d.title,
    institution_id: d.institutionId,
    institution_name: institutionName,
    status: d.status,
    inspection_count: d.inspectionCount,
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
  };
}

function listConditions(q: DoctorListQuery | DoctorExportQuery): SQL | undefined {
  const conds: (SQL | undefined)[] = [live, keywordMatch(q.keyword, { plain: [doctors.name, doctors.phone] })];
  if (q.institution_id) conds.push(eq(doctors.institutionId, q.institution_id));
  if (q.status) conds.push(eq(doctors.status, q.status));
  return and(...conds);
}

/** Rows as the list shows them: phones masked. */
const listRows = async (db: Tx, where: SQL | undefined, order: SQL[], limit: number, offset: number) =>
  (
    await selectRows(db)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset)
  ).map((r) => toRow(r.d, r.institutionName, false));

/** Doctors with masked phones; newest first unless a sort is asked for. */
export async function list(db: Tx, _auth: Auth, q: DoctorListQuery): Promise<ListResult<DoctorRow>> {
  const where = listConditions(q);
  return pagedList(db, q, fromWhere(doctors, where), (limit, offset) => listRows(db, where, sortBy(SORT_COLUMNS, q, 'created_at', doctors.id), limit, offset));
}

const LABELS = {
  name: t('姓名', 'Name', 'Nombre', '氏名'),
  gender: t('性别', 'Gender', 'Sexo', '性別'),
  phone: t('手机号（部分隐藏）', 'Phone (masked)', 'Teléfono (oculto)', '電話番号（一部非表示）'),
  title: t('职称', 'Title', 'Cargo', '職位'),
  institution: t('所属机构', 'Institution', 'Institución', '所属機関'),
  status: t('状态', 'Status', 'Estado', '状態'),
  inspections: t('检测次数', 'Inspections', 'Inspecciones', '検査回数'),
  createdAt: t('创建时间 (UTC)', 'Created (UTC)', 'Creado (UTC)', '作成日時 (UTC)'),
  sheet: t('医生', 'Doctors', 'Médicos', '医師'),
  statuses: { enabled: t('启用', 'Enabled', 'Activo', '有効'), disabled: t('停用', 'Disabled', 'Desactivado', '無効') },
};

/** GET /doctor/export: the filtered doctors (phones masked as in the list), in its order, as CSV or XLSX. */
export async function exportList(db: Tx, _auth: Auth, q: DoctorExportQuery, ctx: Ctx) {
  const where = listConditions(q);
  const lang = ctx.lang;
  const columns: ExportColumn<DoctorRow>[] = [
    { title: label(LABELS.name, lang), value: (r) => r.name, width: 16 },
    { title: label(LABELS.gender, lang), value: (r) => label(GENDER_LABELS[r.gender], lang) },
    { title: label(LABELS.phone, lang), value: (r) => r.phone, width: 16 },
    { title: label(LABELS.title, lang), value: (r) => r.title, width: 16 },
    { title: label(LABELS.institution, lang), value: (r) => r.institution_name ?? '', width: 28 },
    { title: label(LABELS.status, lang), value: (r) => label(LABELS.statuses[r.status], lang) },
    { title: label(LABELS.inspections, lang), value: (r) => r.inspection_count },
    { title: label(LABELS.createdAt, lang), value: (r) => new Date(r.created_at), width: 20 },
  ];
  return exportRows(db, ctx.reply, {
    format: q.format,
    filename: 'doctors',
    sheet: label(LABELS.sheet, lang),
    columns,
    where,
    key: sortKey(SORT_COLUMNS, q, 'created_at', doctors.id),
    fetch: (w, order, limit) => listRows(db, w, order, limit, 0),
    count: fromWhere(doctors, where),
  });
}

/** The full record, phone included. */
export async function detail(db: Tx, _auth: Auth, { id }: IdInput): Promise<DoctorDetail> {
  const [r] = await selectRows(db).where(and(eq(doctors.id, id), live));
  if (!r) throw notFound();
  return toRow(r.d, r.institutionName, true);
}

/**
 * The audit trail's view of a doctor: the stored record in full (phone unmasked: the trail is for
 * admins), deleted or not.
 */
export async function snapshot(db: Tx, id: number | null): Promise<(DoctorDetail & { deleted_at: string | null }) | null> {
  if (id == null) return null;
  const [r] = await selectRows(db).where(eq(doctors.id, id));
  return r ? Object.assign(toRow(r.d, r.institutionName, true), { deleted_at: r.d.deletedAt ? iso(r.d.deletedAt) : null }) : null;
}

const values = (b: DoctorAddBody) => ({ name: b.name, gender: b.gender, phone: b.phone, title: b.title, institutionId: b.institution_id, status: b.status });

export async function add(db: Tx, _auth: Auth, body: DoctorAddBody): Promise<{ id: number }> {
  await assertExists(db, institutions, body.institution_id, 'institution_id', 'institutionMissing');
  const [row] = await db.insert(doctors).values(values(body)).returning({ id: doctors.id });
  return { id: row!.id };
}

export async function edit(db: Tx, _auth: Auth, body: DoctorEditBody): Promise<null> {
  const [found] = await db
    .select({ id: doctors.id })
    .from(doctors)
    .where(and(eq(doctors.id, body.id), live));
  if (!found) throw notFound();
  await assertExists(db, institutions, body.institution_id, 'institution_id', 'institutionMissing');
  await db
    .update(doctors)
    .set(Object.assign(values(body), { updatedAt: new Date() }))
    .where(and(eq(doctors.id, body.id), live));
  return null;
}

/** Soft delete: inspections (a later issue) keep naming the doctor. */
export async function remove(db: Tx, _auth: Auth, { id }: IdInput): Promise<null> {
  const deleted = await db
    .update(doctors)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(doctors.id, id), live))
    .returning({ id: doctors.id });
  if (!deleted.length) throw notFound();
  return null;
}

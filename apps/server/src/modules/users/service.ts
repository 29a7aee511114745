import { and, eq, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  canUseButton,
  normalizePhone,
  PHONE_MASK_KEEP,
  type IdInput,
  type ListResult,
  type UserAddBody,
  type UserDetail,
  type UserEditBody,
  type UserExportQuery,
  type UserListQuery,
  type UserRow,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { endUsers, institutions } from '../../db/schema';
import type { Auth } from '../../http/access';
import { notFound } from '../../lib/errors';
import { assertExists, pagedList } from '../../lib/list';
import { fieldError, isUniqueViolation } from '../../lib/form';
import { likeEscape, sortBy, sortKey } from '../../lib/list';
import { type ExportColumn, exportList as exportRows } from '../../lib/export';
import { GENDER_LABELS, label, t } from '../../lib/labels';
import type { Ctx } from '../../http/endpoints';
import { maskIdNumber, maskPhone } from '../../lib/mask';
import { fromWhere, iso } from '../../lib/masterdata';

const SORT_COLUMNS = {
  name: endUsers.name,
  birth_date: endUsers.birthDate,
  created_at: endUsers.createdAt,
  inspection_count: endUsers.inspectionCount,
  last_inspection_at: endUsers.lastInspectionAt,
} as const;
const live = isNull(endUsers.deletedAt);
/** Digits a list viewer may search the end of a phone by without user:detail: no more than the mask shows. */
const MASKED_SUFFIX_DIGITS = PHONE_MASK_KEEP.tail;

const selectRows = (db: Tx) => db.select({ u: endUsers, institutionName: institutions.name }).from(endUsers).leftJoin(institutions, eq(institutions.id, endUsers.institutionId));

const fromTenths = (v: number | null) => (v === null ? null : v / 10);
const toTenths = (v: number | null | undefined) => (v == null ? null : Math.round(v * 10));

function toRow(u: typeof endUsers.$inferSelect, institutionName: string | null, full: boolean): UserRow {
  return {
    id: u.id,
    name: u.name,
    gender: u.gender,
    birth_date: u.birthDate,
    phone: full ? u.phone : maskPhone(u.phone),
    id_number: full ? u.idNumber : maskIdNumber(u.idNumber),
    height_cm: fromTenths(u.heightTenths),
    weight_kg: fromTenths(u.weightTenths),
    institution_id: u.institutionId,
    institution_name: institutionName,
    inspection_count: u.inspectionCount,
    last_inspection_at: u.lastInspectionAt ? iso(u.lastInspectionAt) : null,
    created_at: iso(u.createdAt),
    updated_at: iso(u.updatedAt),
  };
}

/**
 * keyword: the name (contains) or the end of the phone number. A caller without user:detail matches
 * at most the last 4 digits (what the mask shows) or a whole number, so searching cannot reveal more
 * of a number than the list does.
 */
function keywordCond(keyword: string | undefined, auth: Auth): SQL | undefined {
  if (!keyword) return undefined;
  const byName = sql`${endUsers.name} ilike ${`%${likeEscape(keyword)}%`}`;
  const phone = normalizePhone(keyword);
  if (!/^\+?\d+$/.test(phone)) return byName;
  const mayProbe = canUseButton('user:detail', auth.viewer) || phone.replace('+', '').length <= MASKED_SUFFIX_DIGITS;
  return or(byName, mayProbe ? sql`${endUsers.phone} like ${`%${phone}`}` : eq(endUsers.phone, phone));
}

function listConditions(auth: Auth, q: UserListQuery | UserExportQuery): SQL | undefined {
  const conds: (SQL | undefined)[] = [live, keywordCond(q.keyword, auth)];
  if (q.institution_id) conds.push(eq(endUsers.institutionId, q.institution_id));
  if (q.gender) conds.push(eq(endUsers.gender, q.gender));
  return and(...conds);
}

/** Rows as the list shows them: phone and ID numbers masked. */
const listRows = async (db: Tx, where: SQL | undefined, order: SQL[], limit: number, offset: number) =>
  (
    await selectRows(db)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset)
  ).map((r) => toRow(r.u, r.institutionName, false));

/** Users with masked phone and ID numbers; newest first unless a sort is asked for. */
export async function list(db: Tx, auth: Auth, q: UserListQuery): Promise<ListResult<UserRow>> {
  const where = listConditions(auth, q);
  return pagedList(db, q, fromWhere(endUsers, where), (limit, offset) => listRows(db, where, sortBy(SORT_COLUMNS, q, 'created_at', endUsers.id), limit, offset));
}

const LABELS = {
  name: t('姓名', 'Name', 'Nombre', '氏名'),
  gender: t('性别', 'Gender', 'Sexo', '性別'),
  birthDate: t('出生日期', 'Date of birth', 'Fecha de nacimiento', '生年月日'),
  phone: t('手机号（部分隐藏）', 'Phone (masked)', 'Teléfono (oculto)', '電話番号（一部非表示）'),
  idNumber: t('身份证号（部分隐藏）', 'ID number (masked)', 'N.º de documento (oculto)', '身分証番号（一部非表示）'),
  height: t('身高 (cm)', 'Height (cm)', 'Altura (cm)', '身長 (cm)'),
  weight: t('体重 (kg)', 'Weight (kg)', 'Peso (kg)', '体重 (kg)'),
  institution: t('所属机构', 'Institution', 'Institución', '所属機関'),
  inspections: t('检测次数', 'Inspections', 'Inspecciones', '検査回数'),
  lastInspection: t('最近检测 (UTC)', 'Last inspection (UTC)', 'Última inspección (UTC)', '最終検査 (UTC)'),
  createdAt: t('创建时间 (UTC)', 'Created (UTC)', 'Creado (UTC)', '作成日時 (UTC)'),
  sheet: t('用户', 'Users', 'Usuarios', 'ユーザー'),
};

/** GET /user/export: the filtered users (phone and ID numbers masked as in the list), in its order, as CSV or XLSX. */
export async function exportList(db: Tx, auth: Auth, q: UserExportQuery, ctx: Ctx) {
  const where = listConditions(auth, q);
  const lang = ctx.lang;
  const columns: ExportColumn<UserRow>[] = [
    { title: label(LABELS.name, lang), value: (r) => r.name, width: 16 },
    { title: label(LABELS.gender, lang), value: (r) => label(GENDER_LABELS[r.gender], lang) },
    { title: label(LABELS.birthDate, lang), value: (r) => r.birth_date ?? '', width: 12 },
    { title: label(LABELS.phone, lang), value: (r) => r.phone ?? '', width: 16 },
    { title: label(LABELS.idNumber, lang), value: (r) => r.id_number ?? '', width: 22 },
    { title: label(LABELS.height, lang), value: (r) => r.height_cm },
    { title: label(LABELS.weight, lang), value: (r) => r.weight_kg },
    { title: label(LABELS.institution, lang), value: (r) => r.institution_name ?? '', width: 28 },
    { title: label(LABELS.inspections, lang), value: (r) => r.inspection_count },
    { title: label(LABELS.lastInspection, lang), value: (r) => (r.last_inspection_at ? new Date(r.last_inspection_at) : null), width: 20 },
    { title: label(LABELS.createdAt, lang), value: (r) => new Date(r.created_at), width: 20 },
  ];
  return exportRows(db, ctx.reply, {
    format: q.format,
    filename: 'users',
    sheet: label(LABELS.sheet, lang),
    columns,
    where,
    key: sortKey(SORT_COLUMNS, q, 'created_at', endUsers.id),
    fetch: (w, order, limit) => listRows(db, w, order, limit, 0),
    count: fromWhere(endUsers, where),
  });
}

/** The full record, phone and ID number included (route access: the user:detail button). */
export async function detail(db: Tx, _auth: Auth, { id }: IdInput): Promise<UserDetail> {
  const [r] = await selectRows(db).where(and(eq(endUsers.id, id), live));
  if (!r) throw notFound();
  return toRow(r.u, r.institutionName, true);
}

/**
 * The audit trail's view of a user: the stored record in full (phone and ID number unmasked: the trail
 * is for admins), deleted or not. Users have no secrets.
 */
export async function snapshot(db: Tx, id: number | null): Promise<(UserDetail & { deleted_at: string | null }) | null> {
  if (id == null) return null;
  const [r] = await selectRows(db).where(eq(endUsers.id, id));
  return r ? Object.assign(toRow(r.u, r.institutionName, true), { deleted_at: r.u.deletedAt ? iso(r.u.deletedAt) : null }) : null;
}

/** An ID number belongs to one live user. */
async function assertIdNumberFree(db: Tx, idNumber: string | null | undefined, selfId: number | null) {
  if (!idNumber) return;
  const [taken] = await db
    .select({ id: endUsers.id })
    .from(endUsers)
    .where(and(live, eq(endUsers.idNumber, idNumber), selfId ? ne(endUsers.id, selfId) : undefined))
    .limit(1);
  if (taken) throw fieldError('id_number', 'idNumberTaken');
}

async function idNumberGuard<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('id_number', 'idNumberTaken');
    throw error;
  }
}

const values = (b: UserAddBody | UserEditBody) => ({
  name: b.name,
  gender: b.gender,
  birthDate: b.birth_date ?? null,
  institutionId: b.institution_id,
  heightTenths: toTenths(b.height_cm),
  weightTenths: toTenths(b.weight_kg),
});

export async function add(db: Tx, _auth: Auth, body: UserAddBody): Promise<{ id: number }> {
  await assertExists(db, institutions, body.institution_id, 'institution_id', 'institutionMissing');
  await assertIdNumberFree(db, body.id_number, null);
  const [row] = await idNumberGuard(() =>
    db
      .insert(endUsers)
      .values(Object.assign(values(body), { phone: body.phone ?? null, idNumber: body.id_number ?? null }))
      .returning({ id: endUsers.id }),
  );
  return { id: row!.id };
}

/** The whole record; phone and id_number left out keep their stored values. */
export async function edit(db: Tx, _auth: Auth, body: UserEditBody): Promise<null> {
  const [found] = await db
    .select({ id: endUsers.id })
    .from(endUsers)
    .where(and(eq(endUsers.id, body.id), live));
  if (!found) throw notFound();
  await assertExists(db, institutions, body.institution_id, 'institution_id', 'institutionMissing');
  await assertIdNumberFree(db, body.id_number, body.id);
  await idNumberGuard(() =>
    db
      .update(endUsers)
      .set({
        ...values(body),
        ...(body.phone !== undefined ? { phone: body.phone } : {}),
        ...(body.id_number !== undefined ? { idNumber: body.id_number } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(endUsers.id, body.id), live)),
  );
  return null;
}

/** Soft delete: inspections (a later issue) keep naming the user; the ID number is free again. */
export async function remove(db: Tx, _auth: Auth, { id }: IdInput): Promise<null> {
  const deleted = await db
    .update(endUsers)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(endUsers.id, id), live))
    .returning({ id: endUsers.id });
  if (!deleted.length) throw notFound();
  return null;
}

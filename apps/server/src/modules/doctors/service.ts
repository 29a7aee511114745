import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { DoctorAddBody, DoctorDetail, DoctorEditBody, DoctorListQuery, DoctorRow, IdInput, ListResult } from '@app/contract';
import type { Tx } from '../../db/client';
import { doctors, institutions } from '../../db/schema';
import type { Auth } from '../../http/access';
import { notFound } from '../../lib/errors';
import { assertExists, pagedList } from '../../lib/list';
import { maskPhone } from '../../lib/mask';
import { fromWhere, iso, keywordMatch } from '../../lib/masterdata';
import { sortBy } from '../../lib/list';

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

/** Doctors with masked phones; newest first unless a sort is asked for. */
export async function list(db: Tx, _auth: Auth, q: DoctorListQuery): Promise<ListResult<DoctorRow>> {
  const conds: (SQL | undefined)[] = [live, keywordMatch(q.keyword, { plain: [doctors.name, doctors.phone] })];
  if (q.institution_id) conds.push(eq(doctors.institutionId, q.institution_id));
  if (q.status) conds.push(eq(doctors.status, q.status));
  const where = and(...conds);
  return pagedList(db, q, fromWhere(doctors, where), async (limit, offset) =>
    (
      await selectRows(db)
        .where(where)
        .orderBy(...sortBy(SORT_COLUMNS, q, 'created_at', doctors.id))
        .limit(limit)
        .offset(offset)
    ).map((r) => toRow(r.d, r.institutionName, false)),
  );
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
  return r ? { ...toRow(r.d, r.institutionName, true), deleted_at: r.d.deletedAt ? iso(r.d.deletedAt) : null } : null;
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
    .set({ ...values(body), updatedAt: new Date() })
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

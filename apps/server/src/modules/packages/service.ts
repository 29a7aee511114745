import { and, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { IdInput, ListResult, PackageAddBody, PackageDetail, PackageEditBody, PackageListQuery, PackageRow, PackageSetStatusBody } from '@app/contract';
import type { Tx } from '../../db/client';
import { packages } from '../../db/schema';
import type { Auth } from '../../http/access';
import { badRequest, notFound } from '../../lib/errors';
import { pagedList } from '../../lib/list';
import { fieldError, isUniqueViolation } from '../../lib/form';
import { editorOrder, fromWhere, iso, keywordMatch, refuseIfHeld, type Holder } from '../../lib/masterdata';

const SORT_COLUMNS = { sort: packages.sortOrder, price: packages.priceCents, created_at: packages.createdAt, name: packages.name } as const;
const live = isNull(packages.deletedAt);

function toRow(p: typeof packages.$inferSelect): PackageRow {
  return {
    id: p.id,
    name: p.name,
    kind: p.kind,
    uses: p.uses,
    days: p.days,
    price_cents: p.priceCents,
    commission_rate_l1_bp: p.commissionRateL1Bp,
    commission_rate_l2_bp: p.commissionRateL2Bp,
    status: p.status,
    sort_order: p.sortOrder,
    description: p.description,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  };
}

/** Packages in the editor's order (sort order, then id) unless a sort is asked for. */
export async function list(db: Tx, _auth: Auth, q: PackageListQuery): Promise<ListResult<PackageRow>> {
  const conds: (SQL | undefined)[] = [live, keywordMatch(q.keyword, { plain: [packages.name, packages.description] })];
  if (q.kind) conds.push(eq(packages.kind, q.kind));
  if (q.status) conds.push(eq(packages.status, q.status));
  const where = and(...conds);
  return pagedList(db, q, fromWhere(packages, where), async (limit, offset) =>
    (
      await db
        .select()
        .from(packages)
        .where(where)
        .orderBy(...editorOrder(SORT_COLUMNS, q, packages.sortOrder, packages.id))
        .limit(limit)
        .offset(offset)
    ).map(toRow),
  );
}

export async function detail(db: Tx, _auth: Auth, { id }: IdInput): Promise<PackageDetail> {
  const [p] = await db
    .select()
    .from(packages)
    .where(and(eq(packages.id, id), live));
  if (!p) throw notFound();
  return toRow(p);
}

/** The audit trail's view of a package: the stored row, deleted or not. */
export async function snapshot(db: Tx, id: number | null): Promise<(PackageRow & { deleted_at: string | null }) | null> {
  if (id == null) return null;
  const [p] = await db.select().from(packages).where(eq(packages.id, id));
  return p ? Object.assign(toRow(p), { deleted_at: p.deletedAt ? iso(p.deletedAt) : null }) : null;
}

/** Names are unique among live packages, case-insensitively. */
async function assertNameFree(db: Tx, name: string, selfId: number | null) {
  const [taken] = await db
    .select({ id: packages.id })
    .from(packages)
    .where(and(live, sql`lower(${packages.name}) = lower(${name})`, selfId ? ne(packages.id, selfId) : undefined))
    .limit(1);
  if (taken) throw fieldError('name', 'packageNameTaken', { name });
}

/** The columns an add or edit writes (status changes only through setStatus). */
const values = (b: PackageAddBody | PackageEditBody) => ({
  name: b.name,
  kind: b.kind,
  uses: b.uses,
  days: b.days,
  priceCents: b.price_cents,
  commissionRateL1Bp: b.commission_rate_l1_bp,
  commissionRateL2Bp: b.commission_rate_l2_bp,
  sortOrder: b.sort_order,
  description: b.description,
});

/** A concurrent add of the same name loses on the unique index: the same field message. */
async function nameGuard<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('name', 'packageNameTaken', { name });
    throw error;
  }
}

export async function add(db: Tx, _auth: Auth, body: PackageAddBody): Promise<{ id: number }> {
  await assertNameFree(db, body.name, null);
  const [row] = await nameGuard(body.name, () =>
    db
      .insert(packages)
      .values(Object.assign(values(body), { status: body.status }))
      .returning({ id: packages.id }),
  );
  return { id: row!.id };
}

export async function edit(db: Tx, auth: Auth, body: PackageEditBody): Promise<null> {
  await detail(db, auth, body);
  await assertNameFree(db, body.name, body.id);
  await nameGuard(body.name, () =>
    db
      .update(packages)
      .set(Object.assign(values(body), { updatedAt: new Date() }))
      .where(and(eq(packages.id, body.id), live)),
  );
  return null;
}

/** POST /package/set_status (button package:edit): put on sale or take off sale. */
export async function setStatus(db: Tx, _auth: Auth, body: PackageSetStatusBody): Promise<null> {
  const updated = await db
    .update(packages)
    .set({ status: body.status, updatedAt: new Date() })
    .where(and(eq(packages.id, body.id), live))
    .returning({ id: packages.id });
  if (!updated.length) throw notFound();
  return null;
}

/**
 * What still holds a package, so that it cannot be deleted: nothing today. Payments and activation codes
 * refer to packages, but a deletion is soft (`deleted_at`), so their rows keep pointing at it and read its
 * name; a record that must refuse the deletion adds its `{ key, count, names }` here.
 */
export async function packageUsage(_tx: Tx, _id: number): Promise<Holder[]> {
  return [];
}

/** Soft delete. Refused while the package is on sale (take it off sale first) or while anything holds it. */
export async function remove(db: Tx, _auth: Auth, { id }: IdInput): Promise<null> {
  await db.transaction(async (tx) => {
    const [p] = await tx
      .select({ status: packages.status })
      .from(packages)
      .where(and(eq(packages.id, id), live))
      .for('update');
    if (!p) throw notFound();
    if (p.status === 'on_sale') throw badRequest('packageOnSale');
    refuseIfHeld(await packageUsage(tx, id));
    await tx.update(packages).set({ deletedAt: new Date(), updatedAt: new Date() }).where(eq(packages.id, id));
  });
  return null;
}

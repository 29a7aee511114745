import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type {
  DiseaseBody,
  DiseaseCategoryBody,
  DiseaseCategoryEditBody,
  DiseaseCategoryListQuery,
  DiseaseCategoryRow,
  DiseaseDetail,
  DiseaseEditBody,
  DiseaseListQuery,
  DiseaseRow,
  DiseaseTreeNode,
  IdInput,
  ListResult,
  MasterStatus,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { acupoints, diseaseAcupoints, diseaseCategories, diseases, diseaseSystems, systems } from '../../db/schema';
import type { Auth } from '../../http/access';
import { notFound } from '../../lib/errors';
import { pagedList } from '../../lib/list';
import { assertIdsExist, editorOrder, fromWhere, guardedDelete, isForeignKeyViolation, iso, keywordMatch } from '../../lib/masterdata';
import { together } from '../../db/together';

// ---------------------------------------------------------------------------------------------
// Categories
// ---------------------------------------------------------------------------------------------

const CATEGORY_SORTS = { sort: diseaseCategories.sort, id: diseaseCategories.id, created_at: diseaseCategories.createdAt } as const;
const diseaseCount = sql<number>`(select count(*)::int from diseases d where d.category_id = "disease_categories"."id")`;

const toCategoryRow = (c: typeof diseaseCategories.$inferSelect, n: number): DiseaseCategoryRow => ({ id: c.id, name: c.name, sort: c.sort, disease_count: Number(n), created_at: iso(c.createdAt) });

/** Categories with their diseases, both in the editor's order. */
export async function tree(db: Tx, _auth: Auth, _input: unknown): Promise<DiseaseTreeNode[]> {
  const [cats, rows] = await Promise.all([
    db.select().from(diseaseCategories).orderBy(asc(diseaseCategories.sort), asc(diseaseCategories.id)),
    db.select({ id: diseases.id, categoryId: diseases.categoryId, name: diseases.name, sort: diseases.sort, status: diseases.status }).from(diseases).orderBy(asc(diseases.sort), asc(diseases.id)),
  ]);
  const nodes = cats.map((c): DiseaseTreeNode => ({ id: c.id, name: c.name, sort: c.sort, children: [] }));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const d of rows) byId.get(d.categoryId)?.children.push({ id: d.id, name: d.name, sort: d.sort, status: d.status as MasterStatus });
  return nodes;
}

export async function categoryList(db: Tx, _auth: Auth, q: DiseaseCategoryListQuery): Promise<ListResult<DiseaseCategoryRow>> {
  const where = keywordMatch(q.keyword, { l10n: [diseaseCategories.name] });
  return pagedList(db, q, fromWhere(diseaseCategories, where), async (limit, offset) =>
    (
      await db
        .select({ c: diseaseCategories, n: diseaseCount })
        .from(diseaseCategories)
        .where(where)
        .orderBy(...editorOrder(CATEGORY_SORTS, q, diseaseCategories.sort, diseaseCategories.id))
        .limit(limit)
        .offset(offset)
    ).map((r) => toCategoryRow(r.c, r.n)),
  );
}

async function categoryById(db: Tx, id: number): Promise<DiseaseCategoryRow | null> {
  const [r] = await db.select({ c: diseaseCategories, n: diseaseCount }).from(diseaseCategories).where(eq(diseaseCategories.id, id));
  return r ? toCategoryRow(r.c, r.n) : null;
}

export async function categoryDetail(db: Tx, _auth: Auth, { id }: IdInput): Promise<DiseaseCategoryRow> {
  const row = await categoryById(db, id);
  if (!row) throw notFound();
  return row;
}

/** The audit trail's view of a category (deletes are hard: gone = null). */
export async function categorySnapshot(db: Tx, id: number | null): Promise<DiseaseCategoryRow | null> {
  return id == null ? null : categoryById(db, id);
}

export async function categoryAdd(db: Tx, _auth: Auth, body: DiseaseCategoryBody): Promise<{ id: number }> {
  const [row] = await db.insert(diseaseCategories).values({ name: body.name, sort: body.sort }).returning({ id: diseaseCategories.id });
  return { id: row!.id };
}

export async function categoryEdit(db: Tx, _auth: Auth, body: DiseaseCategoryEditBody): Promise<null> {
  const done = await db.update(diseaseCategories).set({ name: body.name, sort: body.sort }).where(eq(diseaseCategories.id, body.id)).returning({ id: diseaseCategories.id });
  if (!done.length) throw notFound();
  return null;
}

/** Refused while the category still has diseases. */
export async function categoryRemove(db: Tx, _auth: Auth, { id }: IdInput): Promise<null> {
  const [found] = await db.select({ id: diseaseCategories.id }).from(diseaseCategories).where(eq(diseaseCategories.id, id));
  if (!found) throw notFound();
  await guardedDelete(
    db,
    async () => {
      const held = await db.select({ name: diseases.name }).from(diseases).where(eq(diseases.categoryId, id)).orderBy(asc(diseases.sort), asc(diseases.id));
      return [{ key: 'holderDiseases', count: held.length, names: held.map((d) => d.name) }];
    },
    (tx) => tx.delete(diseaseCategories).where(eq(diseaseCategories.id, id)),
  );
  return null;
}

// ---------------------------------------------------------------------------------------------
// Diseases
// ---------------------------------------------------------------------------------------------

const DISEASE_SORTS = { sort: diseases.sort, id: diseases.id, created_at: diseases.createdAt } as const;

type DiseaseSelect = { d: typeof diseases.$inferSelect; categoryName: DiseaseRow['category_name'] };

/** Answer rows for a page of diseases, with their related system and acupoint ids (two queries for the page). */
async function toRows(db: Tx, rows: DiseaseSelect[]): Promise<DiseaseRow[]> {
  const ids = rows.map((r) => r.d.id);
  const [sys, acu] = ids.length
    ? await together(db, [
        () => db.select().from(diseaseSystems).where(inArray(diseaseSystems.diseaseId, ids)).orderBy(asc(diseaseSystems.sort)),
        () => db.select().from(diseaseAcupoints).where(inArray(diseaseAcupoints.diseaseId, ids)).orderBy(asc(diseaseAcupoints.sort)),
      ])
    : [[], []];
  return rows.map(({ d, categoryName }) => ({
    id: d.id,
    category_id: d.categoryId,
    category_name: categoryName,
    name: d.name,
    description: d.description,
    advice: d.advice,
    system_ids: sys.filter((s) => s.diseaseId === d.id).map((s) => s.systemId),
    acupoint_ids: acu.filter((a) => a.diseaseId === d.id).map((a) => a.acupointId),
    pattern: d.pattern,
    sort: d.sort,
    status: d.status as MasterStatus,
    created_at: iso(d.createdAt),
  }));
}

const selectDiseases = (db: Tx) => db.select({ d: diseases, categoryName: diseaseCategories.name }).from(diseases).innerJoin(diseaseCategories, eq(diseaseCategories.id, diseases.categoryId));

export async function list(db: Tx, _auth: Auth, q: DiseaseListQuery): Promise<ListResult<DiseaseRow>> {
  const conds: (SQL | undefined)[] = [keywordMatch(q.keyword, { l10n: [diseases.name] })];
  if (q.category_id) conds.push(eq(diseases.categoryId, q.category_id));
  if (q.status !== undefined) conds.push(eq(diseases.status, q.status));
  if (q.meridian) conds.push(sql`${diseases.pattern} @> ${JSON.stringify([{ meridian: q.meridian }])}::jsonb`);
  if (q.system_id) conds.push(sql`exists (select 1 from disease_systems x where x.disease_id = "diseases"."id" and x.system_id = ${q.system_id})`);
  if (q.acupoint_id) conds.push(sql`exists (select 1 from disease_acupoints x where x.disease_id = "diseases"."id" and x.acupoint_id = ${q.acupoint_id})`);
  const where = and(...conds);
  return pagedList(db, q, fromWhere(diseases, where), async (limit, offset) =>
    toRows(
      db,
      await selectDiseases(db)
        .where(where)
        .orderBy(...editorOrder(DISEASE_SORTS, q, diseases.sort, diseases.id))
        .limit(limit)
        .offset(offset),
    ),
  );
}

/** The audit trail's view of a disease: the row with its system and acupoint ids (deletes are hard: gone = null). */
export async function snapshot(db: Tx, id: number | null): Promise<DiseaseRow | null> {
  if (id == null) return null;
  const [r] = await selectDiseases(db).where(eq(diseases.id, id));
  if (!r) return null;
  const [row] = await toRows(db, [r]);
  return row ?? null;
}

export async function detail(db: Tx, _auth: Auth, { id }: IdInput): Promise<DiseaseDetail> {
  const [r] = await selectDiseases(db).where(eq(diseases.id, id));
  if (!r) throw notFound();
  const [row] = await toRows(db, [r]);
  const [sys, acu] = await Promise.all([
    db
      .select({ id: systems.id, name: systems.name, parent_id: systems.parentId, sort: diseaseSystems.sort })
      .from(diseaseSystems)
      .innerJoin(systems, eq(systems.id, diseaseSystems.systemId))
      .where(eq(diseaseSystems.diseaseId, id))
      .orderBy(asc(diseaseSystems.sort)),
    db
      .select({ id: acupoints.id, code: acupoints.code, name: acupoints.name, sort: diseaseAcupoints.sort })
      .from(diseaseAcupoints)
      .innerJoin(acupoints, eq(acupoints.id, diseaseAcupoints.acupointId))
      .where(eq(diseaseAcupoints.diseaseId, id))
      .orderBy(asc(diseaseAcupoints.sort)),
  ]);
  return Object.assign({}, row!, {
    systems: sys.map(({ id: sid, name, parent_id }) => ({ id: sid, name, parent_id })),
    acupoints: acu.map(({ id: aid, code, name }) => ({ id: aid, code, name })),
  });
}

async function checkRefs(db: Tx, body: DiseaseBody) {
  await assertIdsExist(db, diseaseCategories.id, [body.category_id], 'category_id');
  await assertIdsExist(db, systems.id, body.system_ids, 'system_ids');
  await assertIdsExist(db, acupoints.id, body.acupoint_ids, 'acupoint_ids');
}

const values = (b: DiseaseBody) => ({
  categoryId: b.category_id,
  name: b.name,
  description: b.description,
  advice: b.advice,
  pattern: b.pattern,
  sort: b.sort,
  status: b.status,
});

async function writeLinks(tx: Tx, id: number, body: DiseaseBody) {
  await tx.delete(diseaseSystems).where(eq(diseaseSystems.diseaseId, id));
  await tx.delete(diseaseAcupoints).where(eq(diseaseAcupoints.diseaseId, id));
  if (body.system_ids.length) await tx.insert(diseaseSystems).values(body.system_ids.map((systemId, i) => ({ diseaseId: id, systemId, sort: i + 1 })));
  if (body.acupoint_ids.length) await tx.insert(diseaseAcupoints).values(body.acupoint_ids.map((acupointId, i) => ({ diseaseId: id, acupointId, sort: i + 1 })));
}

/** A referenced row deleted between the check and the write: answer the same field error as the check. */
async function withRefGuard<T>(db: Tx, body: DiseaseBody, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isForeignKeyViolation(err)) await checkRefs(db, body);
    throw err;
  }
}

export async function add(db: Tx, _auth: Auth, body: DiseaseBody): Promise<{ id: number }> {
  await checkRefs(db, body);
  return withRefGuard(db, body, () =>
    db.transaction(async (tx) => {
      const [row] = await tx.insert(diseases).values(values(body)).returning({ id: diseases.id });
      await writeLinks(tx, row!.id, body);
      return { id: row!.id };
    }),
  );
}

export async function edit(db: Tx, _auth: Auth, body: DiseaseEditBody): Promise<null> {
  const [found] = await db.select({ id: diseases.id }).from(diseases).where(eq(diseases.id, body.id));
  if (!found) throw notFound();
  await checkRefs(db, body);
  await withRefGuard(db, body, () =>
    db.transaction(async (tx) => {
      const done = await tx.update(diseases).set(values(body)).where(eq(diseases.id, body.id)).returning({ id: diseases.id });
      if (!done.length) throw notFound();
      await writeLinks(tx, body.id, body);
    }),
  );
  return null;
}

/** Nothing in the master data references a disease: its links go with it (a future foreign key still answers "Cannot delete"). */
export async function remove(db: Tx, _auth: Auth, { id }: IdInput): Promise<null> {
  const [found] = await db.select({ id: diseases.id }).from(diseases).where(eq(diseases.id, id));
  if (!found) throw notFound();
  await guardedDelete(
    db,
    async () => [],
    (tx) => tx.delete(diseases).where(eq(diseases.id, id)),
  );
  return null;
}

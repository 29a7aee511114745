import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { IdInput, ListResult, SaveMarkersBody, SchematicBody, SchematicDetail, SchematicEditBody, SchematicListQuery, SchematicMarker, SchematicRow } from '@app/contract';
import type { Tx } from '../../db/client';
import { acupoints, schematicMarkers, schematics } from '../../db/schema';
import type { Auth } from '../../http/access';
import { notFound } from '../../lib/errors';
import { pagedList } from '../../lib/list';
import { assertIdsExist, editorOrder, fromWhere, guardedDelete, isForeignKeyViolation, iso, keywordMatch } from '../../lib/masterdata';

const SORT_COLUMNS = { sort: schematics.sort, kind: schematics.kind, id: schematics.id, created_at: schematics.createdAt } as const;
const markerCount = sql<number>`(select count(*)::int from schematic_markers m where m.schematic_id = "schematics"."id")`;

const toRow = (s: typeof schematics.$inferSelect, markers: number): SchematicRow => ({
  id: s.id,
  title: s.title,
  kind: s.kind,
  image: s.image,
  width: s.width,
  height: s.height,
  sort: s.sort,
  marker_count: Number(markers),
  created_at: iso(s.createdAt),
});

export async function list(db: Tx, _auth: Auth, q: SchematicListQuery): Promise<ListResult<SchematicRow>> {
  const conds: (SQL | undefined)[] = [keywordMatch(q.keyword, { l10n: [schematics.title] })];
  if (q.kind) conds.push(eq(schematics.kind, q.kind));
  if (q.acupoint_id) conds.push(sql`exists (select 1 from schematic_markers x where x.schematic_id = "schematics"."id" and x.acupoint_id = ${q.acupoint_id})`);
  const where = and(...conds);
  return pagedList(db, q, fromWhere(schematics, where), async (limit, offset) =>
    (
      await db
        .select({ s: schematics, n: markerCount })
        .from(schematics)
        .where(where)
        .orderBy(...editorOrder(SORT_COLUMNS, q, schematics.sort, schematics.id))
        .limit(limit)
        .offset(offset)
    ).map((r) => toRow(r.s, r.n)),
  );
}

/** The audit trail's view of a diagram: the row with its markers (deletes are hard: gone = null). */
export async function snapshot(db: Tx, id: number | null): Promise<(SchematicRow & { markers: SchematicMarker[] }) | null> {
  if (id == null) return null;
  const [r] = await db.select({ s: schematics, n: markerCount }).from(schematics).where(eq(schematics.id, id));
  if (!r) return null;
  const markers = await db
    .select({ acupoint_id: schematicMarkers.acupointId, x: schematicMarkers.x, y: schematicMarkers.y })
    .from(schematicMarkers)
    .where(eq(schematicMarkers.schematicId, id))
    .orderBy(asc(schematicMarkers.sort), asc(schematicMarkers.id));
  return Object.assign(toRow(r.s, r.n), { markers });
}

export async function detail(db: Tx, _auth: Auth, { id }: IdInput): Promise<SchematicDetail> {
  const [r] = await db.select({ s: schematics, n: markerCount }).from(schematics).where(eq(schematics.id, id));
  if (!r) throw notFound();
  const markers = await db
    .select({ acupoint_id: schematicMarkers.acupointId, x: schematicMarkers.x, y: schematicMarkers.y, code: acupoints.code, name: acupoints.name })
    .from(schematicMarkers)
    .innerJoin(acupoints, eq(acupoints.id, schematicMarkers.acupointId))
    .where(eq(schematicMarkers.schematicId, id))
    .orderBy(asc(schematicMarkers.sort), asc(schematicMarkers.id));
  return Object.assign(toRow(r.s, r.n), { markers });
}

const values = (b: SchematicBody) => ({ title: b.title, kind: b.kind, image: b.image, width: b.width, height: b.height, sort: b.sort });

async function writeMarkers(tx: Tx, id: number, markers: SchematicMarker[]) {
  await tx.delete(schematicMarkers).where(eq(schematicMarkers.schematicId, id));
  if (markers.length) {
    await tx.insert(schematicMarkers).values(
      markers.map((m, i) => ({
        schematicId: id,
        acupointId: m.acupoint_id,
        x: round4(m.x),
        y: round4(m.y),
        sort: i + 1,
      })),
    );
  }
}

/** Positions are kept to 1/10 000 of the image: finer than any display. */
const round4 = (v: number) => Math.round(v * 10_000) / 10_000;

const checkMarkers = (db: Tx, markers: SchematicMarker[] | undefined) =>
  assertIdsExist(
    db,
    acupoints.id,
    (markers ?? []).map((m) => m.acupoint_id),
    'markers',
  );

/** An acupoint deleted between the check and the write: answer the same field error as the check. */
async function withRefGuard<T>(db: Tx, markers: SchematicMarker[] | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isForeignKeyViolation(err)) await checkMarkers(db, markers);
    throw err;
  }
}

export async function add(db: Tx, _auth: Auth, body: SchematicBody): Promise<{ id: number }> {
  await checkMarkers(db, body.markers);
  return withRefGuard(db, body.markers, () =>
    db.transaction(async (tx) => {
      const [row] = await tx.insert(schematics).values(values(body)).returning({ id: schematics.id });
      await writeMarkers(tx, row!.id, body.markers ?? []);
      return { id: row!.id };
    }),
  );
}

/** Edits the diagram; `markers`, when given, replace the markers. */
export async function edit(db: Tx, _auth: Auth, body: SchematicEditBody): Promise<null> {
  await checkMarkers(db, body.markers);
  await withRefGuard(db, body.markers, () =>
    db.transaction(async (tx) => {
      const done = await tx.update(schematics).set(values(body)).where(eq(schematics.id, body.id)).returning({ id: schematics.id });
      if (!done.length) throw notFound();
      if (body.markers) await writeMarkers(tx, body.id, body.markers);
    }),
  );
  return null;
}

export async function saveMarkers(db: Tx, _auth: Auth, body: SaveMarkersBody): Promise<null> {
  await checkMarkers(db, body.markers);
  await withRefGuard(db, body.markers, () =>
    db.transaction(async (tx) => {
      const [found] = await tx.select({ id: schematics.id }).from(schematics).where(eq(schematics.id, body.id)).for('update');
      if (!found) throw notFound();
      await writeMarkers(tx, body.id, body.markers);
    }),
  );
  return null;
}

/** Markers go with the diagram; nothing else in the master data references a diagram. */
export async function remove(db: Tx, _auth: Auth, { id }: IdInput): Promise<null> {
  const [found] = await db.select({ id: schematics.id }).from(schematics).where(eq(schematics.id, id));
  if (!found) throw notFound();
  await guardedDelete(
    db,
    async () => [],
    (tx) => tx.delete(schematics).where(eq(schematics.id, id)),
  );
  return null;
}

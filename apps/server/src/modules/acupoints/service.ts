import { and, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type {
  AcupointActions,
  AcupointBody,
  AcupointDetail,
  AcupointEditBody,
  AcupointListQuery,
  AcupointOption,
  AcupointRow,
  IdInput,
  ListResult,
  SaveActionsBody,
  TreatmentAction,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { acupointActions, acupoints, diseaseAcupoints, diseases, schematicMarkers, schematics } from '../../db/schema';
import type { Auth } from '../../http/access';
import { notFound } from '../../lib/errors';
import { pagedList } from '../../lib/list';
import { fieldError, isUniqueViolation } from '../../lib/form';
import { editorOrder, fromWhere, guardedDelete, iso, keywordMatch } from '../../lib/masterdata';
import { together } from '../../db/together';

const SORT_COLUMNS = { sort: acupoints.sort, code: acupoints.code, meridian: acupoints.meridian, id: acupoints.id, created_at: acupoints.createdAt } as const;
const actionCount = sql<number>`(select count(*)::int from acupoint_actions a where a.acupoint_id = "acupoints"."id")`;

function toRow(a: typeof acupoints.$inferSelect, actions: number): AcupointRow {
  return {
    id: a.id,
    code: a.code,
    name: a.name,
    meridian: a.meridian,
    location: a.location,
    indications: a.indications,
    is_measurement_point: a.isMeasurementPoint,
    is_treatment_point: a.isTreatmentPoint,
    image: a.image,
    sort: a.sort,
    status: a.status as 0 | 1,
    action_count: Number(actions),
    created_at: iso(a.createdAt),
  };
}

export async function list(db: Tx, _auth: Auth, q: AcupointListQuery): Promise<ListResult<AcupointRow>> {
  const conds: (SQL | undefined)[] = [keywordMatch(q.keyword, { l10n: [acupoints.name], plain: [acupoints.code] })];
  if (q.meridian) conds.push(eq(acupoints.meridian, q.meridian));
  if (q.is_measurement_point !== undefined) conds.push(eq(acupoints.isMeasurementPoint, q.is_measurement_point));
  if (q.is_treatment_point !== undefined) conds.push(eq(acupoints.isTreatmentPoint, q.is_treatment_point));
  if (q.status !== undefined) conds.push(eq(acupoints.status, q.status));
  const where = and(...conds);
  return pagedList(db, q, fromWhere(acupoints, where), async (limit, offset) =>
    (
      await db
        .select({ a: acupoints, actionCount })
        .from(acupoints)
        .where(where)
        .orderBy(...editorOrder(SORT_COLUMNS, q, acupoints.sort, acupoints.id))
        .limit(limit)
        .offset(offset)
    ).map((r) => toRow(r.a, r.actionCount)),
  );
}

/** Every acupoint, short, in the editor's order: for pickers (disease acupoints, schematic markers). */
export async function options(db: Tx, _auth: Auth, _input: unknown): Promise<AcupointOption[]> {
  const rows = await db
    .select({ id: acupoints.id, code: acupoints.code, name: acupoints.name, meridian: acupoints.meridian, status: acupoints.status })
    .from(acupoints)
    .orderBy(asc(acupoints.sort), asc(acupoints.id));
  return rows.map((r) => ({ id: r.id, code: r.code, name: r.name, meridian: r.meridian, status: r.status as 0 | 1 }));
}

async function actionsOf(db: Tx, acupointId: number): Promise<TreatmentAction[]> {
  const rows = await db.select().from(acupointActions).where(eq(acupointActions.acupointId, acupointId)).orderBy(asc(acupointActions.sort), asc(acupointActions.id));
  return rows.map((r) => ({ waveform: r.waveform, frequency_hz: r.frequencyHz, intensity_min: r.intensityMin, intensity_max: r.intensityMax, minutes: r.minutes }));
}

async function holdersOf(db: Tx, id: number) {
  const [onSchematics, inDiseases] = await together(db, [
    () =>
      db
        .selectDistinct({ id: schematics.id, title: schematics.title, sort: schematics.sort })
        .from(schematicMarkers)
        .innerJoin(schematics, eq(schematics.id, schematicMarkers.schematicId))
        .where(eq(schematicMarkers.acupointId, id))
        .orderBy(asc(schematics.sort), asc(schematics.id)),
    () =>
      db
        .select({ id: diseases.id, name: diseases.name })
        .from(diseaseAcupoints)
        .innerJoin(diseases, eq(diseases.id, diseaseAcupoints.diseaseId))
        .where(eq(diseaseAcupoints.acupointId, id))
        .orderBy(asc(diseases.sort), asc(diseases.id)),
  ]);
  return { onSchematics, inDiseases };
}

export async function detail(db: Tx, _auth: Auth, { id }: IdInput): Promise<AcupointDetail> {
  const [r] = await db.select({ a: acupoints, actionCount }).from(acupoints).where(eq(acupoints.id, id));
  if (!r) throw notFound();
  const [actions, holders] = await Promise.all([actionsOf(db, id), holdersOf(db, id)]);
  return Object.assign(toRow(r.a, r.actionCount), {
    actions,
    schematics: holders.onSchematics.map((s) => ({ id: s.id, title: s.title })),
    diseases: holders.inDiseases,
  });
}

/** The audit trail's view of an acupoint: the row with its treatment actions (deletes are hard: gone = null). */
export async function snapshot(db: Tx, id: number | null): Promise<(AcupointRow & { actions: TreatmentAction[] }) | null> {
  if (id == null) return null;
  const [r] = await db.select({ a: acupoints, actionCount }).from(acupoints).where(eq(acupoints.id, id));
  return r ? Object.assign(toRow(r.a, r.actionCount), { actions: await actionsOf(db, id) }) : null;
}

async function assertCodeFree(db: Tx, code: string, selfId: number | null) {
  const [taken] = await db
    .select({ id: acupoints.id })
    .from(acupoints)
    .where(and(eq(acupoints.code, code), selfId === null ? undefined : ne(acupoints.id, selfId)));
  if (taken) throw fieldError('code', 'duplicate', { field: code });
}

const values = (b: AcupointBody) => ({
  code: b.code,
  name: b.name,
  meridian: b.meridian,
  location: b.location,
  indications: b.indications,
  isMeasurementPoint: b.is_measurement_point,
  isTreatmentPoint: b.is_treatment_point,
  image: b.image,
  sort: b.sort,
  status: b.status,
});

/** A concurrent write may take the code between the check and the write: same message. */
async function withCodeGuard<T>(code: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw fieldError('code', 'duplicate', { field: code });
    throw err;
  }
}

export async function add(db: Tx, _auth: Auth, body: AcupointBody): Promise<{ id: number }> {
  await assertCodeFree(db, body.code, null);
  const [row] = await withCodeGuard(body.code, () => db.insert(acupoints).values(values(body)).returning({ id: acupoints.id }));
  return { id: row!.id };
}

export async function edit(db: Tx, _auth: Auth, body: AcupointEditBody): Promise<null> {
  const [found] = await db.select({ id: acupoints.id }).from(acupoints).where(eq(acupoints.id, body.id));
  if (!found) throw notFound();
  await assertCodeFree(db, body.code, body.id);
  await withCodeGuard(body.code, () => db.update(acupoints).set(values(body)).where(eq(acupoints.id, body.id)));
  return null;
}

/** Refused while a schematic diagram shows it or a disease names it; its treatment actions go with it. */
export async function remove(db: Tx, _auth: Auth, { id }: IdInput): Promise<null> {
  const [found] = await db.select({ id: acupoints.id }).from(acupoints).where(eq(acupoints.id, id));
  if (!found) throw notFound();
  await guardedDelete(
    db,
    async () => {
      const { onSchematics, inDiseases } = await holdersOf(db, id);
      return [
        { key: 'holderSchematics', count: onSchematics.length, names: onSchematics.map((s) => s.title) },
        { key: 'holderDiseases', count: inDiseases.length, names: inDiseases.map((d) => d.name) },
      ];
    },
    (tx) => tx.delete(acupoints).where(eq(acupoints.id, id)),
  );
  return null;
}

export async function actions(db: Tx, _auth: Auth, { id }: IdInput): Promise<AcupointActions> {
  const [a] = await db.select({ id: acupoints.id, code: acupoints.code, name: acupoints.name, isTreatmentPoint: acupoints.isTreatmentPoint }).from(acupoints).where(eq(acupoints.id, id));
  if (!a) throw notFound();
  return { acupoint: { id: a.id, code: a.code, name: a.name, is_treatment_point: a.isTreatmentPoint }, list: await actionsOf(db, id) };
}

/** Replaces the acupoint's treatment actions with the given list, in its order. */
export async function saveActions(db: Tx, _auth: Auth, body: SaveActionsBody): Promise<null> {
  const [a] = await db.select({ id: acupoints.id }).from(acupoints).where(eq(acupoints.id, body.id)).for('update');
  if (!a) throw notFound();
  await db.delete(acupointActions).where(eq(acupointActions.acupointId, body.id));
  if (body.actions.length) {
    await db.insert(acupointActions).values(
      body.actions.map((x, i) => ({
        acupointId: body.id,
        waveform: x.waveform,
        frequencyHz: Math.round(x.frequency_hz * 100) / 100,
        intensityMin: x.intensity_min,
        intensityMax: x.intensity_max,
        minutes: x.minutes,
        sort: i + 1,
      })),
    );
  }
  return null;
}

/** Acupoint ids by code (seeds of other modules). */
export async function acupointIdsByCode(db: Tx, codes: string[]): Promise<Map<string, number>> {
  if (!codes.length) return new Map();
  const rows = await db.select({ id: acupoints.id, code: acupoints.code }).from(acupoints).where(inArray(acupoints.code, codes));
  return new Map(rows.map((r) => [r.code, r.id]));
}

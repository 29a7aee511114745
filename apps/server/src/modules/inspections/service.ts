import { and, asc, eq, gte, ilike, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import {
  analyse,
  type Analysis,
  type InspectionDetail,
  type InspectionDetailQuery,
  type InspectionExportQuery,
  type InspectionListQuery,
  type InspectionReportData,
  type InspectionResultData,
  type InspectionRisk,
  type InspectionRow,
  type InspectionVersion,
  type IdInput,
  type L10n,
  type ListResult,
  type Meridian,
  type Readings,
  type RecomputeAnswer,
  type SystemLevel,
  type TreatmentSessionBody,
  type TreatmentSessionRow,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { acupointActions, acupoints, devices, diseases, doctors, endUsers, inspectionAnalyses, inspections, institutions, schematicMarkers, treatmentSessions } from '../../db/schema';
import type { Auth } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { forbidden, notFound } from '../../lib/errors';
import { type ExportColumn, exportList as exportRows } from '../../lib/export';
import { fieldError } from '../../lib/form';
import { cappedCountColumn, countOfPage, isoText, likeEscape, offsetOf, orderOf, pageWindow, type SortKey } from '../../lib/list';
import { type Bind, bound, inline, ShapedStatements } from '../../db/shaped';
import { maskIdNumber, maskPhone } from '../../lib/mask';
import { readParams } from '../../lib/params';
import { loadAnalysisMaster } from '../deviceapi';
import { institutionSubtreeIds, isInSubtree } from '../institutions';
import { LABELS, label } from './labels';

/*
 * Inspections as the back office reads them: the list of the caller's subtree with its headline (worst
 * system level, top risk: generated columns of the inspections table, kept by PostgreSQL from the stored
 * analysis), the export, the detail with its analysis versions, the report and result data, the grade-0
 * recompute (a new version; the old ones stay in inspection_analyses) and the treatment sessions.
 * Everything is scoped by the caller's subtree; for an institution an inspection outside it and a missing
 * one are refused alike (forbidden), so ids reveal nothing.
 */

const DAY = 86_400_000;

const iso = (d: Date) => d.toISOString();

/** The caller's scope: its subtree (institutions), everything (the platform). */
const scopeOf = (auth: Auth, bind: Bind = inline): SQL | undefined =>
  auth.kind === 'institution' ? sql`${inspections.institutionId} in ${institutionSubtreeIds(auth.institution!.path, bind)}` : undefined;

/** An institution filter must lie in an institution caller's subtree. */
async function assertInstitution(db: Tx, auth: Auth, q: Partial<InspectionListQuery>) {
  if (q.institution_id && auth.kind === 'institution' && !(await isInSubtree(db, auth.institution!.path, q.institution_id))) throw forbidden();
}

/** The list's filters in the caller's scope, each value bound by `bind` (db/shaped.ts). */
function listConditions(auth: Auth, q: Partial<InspectionListQuery>, bind: Bind): SQL | undefined {
  const conds: (SQL | undefined)[] = [scopeOf(auth, bind)];
  if (q.institution_id) conds.push(eq(inspections.institutionId, bind('institution', q.institution_id)));
  if (q.device_id) conds.push(eq(inspections.deviceId, bind('device', q.device_id)));
  if (q.doctor_id) conds.push(eq(inspections.doctorId, bind('doctor', q.doctor_id)));
  if (q.user_id) conds.push(eq(inspections.endUserId, bind('user', q.user_id)));
  if (q.keyword) conds.push(ilike(inspections.inspectionNo, bind('keyword', `%${likeEscape(q.keyword)}%`)));
  if (q.person) conds.push(ilike(endUsers.name, bind('person', `%${likeEscape(q.person)}%`)));
  if (q.date_from) conds.push(gte(inspections.measuredAt, bind('dateFrom', new Date(`${q.date_from}T00:00:00Z`))));
  if (q.date_to) conds.push(lt(inspections.measuredAt, bind('dateTo', new Date(new Date(`${q.date_to}T00:00:00Z`).getTime() + DAY))));
  if (q.risk) conds.push(eq(inspections.topRisk, bind('risk', q.risk)));
  if (q.level) conds.push(eq(inspections.worstLevel, bind('level', q.level)));
  return and(...conds);
}

/** What the list's page subquery carries of each inspection. */
const pageColumns = {
  id: inspections.id,
  inspectionNo: inspections.inspectionNo,
  measuredAt: inspections.measuredAt,
  endUserId: inspections.endUserId,
  doctorId: inspections.doctorId,
  deviceId: inspections.deviceId,
  institutionId: inspections.institutionId,
  worstLevel: inspections.worstLevel,
  topRisk: inspections.topRisk,
  analysis: inspections.analysis,
  analysisVersion: inspections.analysisVersion,
};

/**
 * Rows of the list as the API shows them (its names; they go out as read), with `total` (the list's capped
 * count, or 0 where it is not asked for: the export's batches). The inspections are filtered, ordered and
 * cut (LIMIT and OFFSET, by `window`) in a subquery of the inspections table alone (and the person, when the
 * person's name is a filter); only its rows are then joined with their person, device, institution and
 * doctor. In one flat join PostgreSQL plans six relations at every call (the scope's subquery too, and the
 * devices' fourteen indexes): at a million inspections a grade-3 clinic's first page spent 2.9 ms planning
 * and 3.0 ms executing, and a deep page joined every row it skipped (docs/decisions.md).
 */
function selectPage(db: Tx, q: { person?: string }, where: SQL | undefined, key: SortKey, window: <Q extends PgSelect>(query: Q) => Q, total: SQL<number> = sql<number>`0`) {
  let inner = db.select(pageColumns).from(inspections).$dynamic();
  if (q.person) inner = inner.innerJoin(endUsers, eq(endUsers.id, inspections.endUserId));
  const p = window(inner.where(where).orderBy(...orderOf(key))).as('p');
  return db
    .select({
      id: p.id,
      inspection_no: p.inspectionNo,
      measured_at: isoText(p.measuredAt),
      user_id: p.endUserId,
      user_name: endUsers.name,
      doctor_id: p.doctorId,
      doctor_name: doctors.name,
      device_id: p.deviceId,
      device_serial: devices.serial,
      institution_id: p.institutionId,
      institution_name: institutions.name,
      worst_level: sql<SystemLevel | null>`${p.worstLevel}`,
      top_risk: sql<InspectionRisk | null>`${p.topRisk}`,
      top_disease: sql<L10n | null>`${p.analysis}->'diseases'->0->'name'`,
      analysis_version: p.analysisVersion,
      total,
    })
    .from(p)
    .innerJoin(endUsers, eq(endUsers.id, p.endUserId))
    .innerJoin(devices, eq(devices.id, p.deviceId))
    .innerJoin(institutions, eq(institutions.id, p.institutionId))
    .leftJoin(doctors, eq(doctors.id, p.doctorId))
    .orderBy(...orderOf({ columns: [p.measuredAt], id: p.id, ascending: key.ascending }));
}
type ListedRow = Awaited<ReturnType<typeof selectPage>>[number];
const withoutTotal = ({ total: _, ...row }: ListedRow): InspectionRow => row;

/** Newest first, unless the oldest first is asked for. */
const keyOf = (q: { sort?: string; order?: 'ascend' | 'descend' }): SortKey => ({ columns: [inspections.measuredAt], id: inspections.id, ascending: q.sort === 'measured_at' && q.order === 'ascend' });

/** The count joins the person only when the person's name is a filter. */
const countFrom = (q: { person?: string }, where: SQL | undefined) =>
  sql`${q.person ? sql`from ${inspections} inner join ${endUsers} on ${endUsers.id} = ${inspections.endUserId}` : sql`from ${inspections}`} where ${where ?? sql`true`}`;

/** The inspection list's statements, one per shape (its filters set, the caller's kind, its order). */
const listStatements = new ShapedStatements<ListedRow[]>();

/** GET /inspection/list: the caller's subtree (everything for the platform), newest first. */
export async function list(db: Tx, auth: Auth, q: InspectionListQuery): Promise<ListResult<InspectionRow>> {
  await assertInstitution(db, auth, q);
  const { bind, values, shape } = bound();
  const where = listConditions(auth, q, bind);
  const key = keyOf(q);
  // The platform's first page with no filter (the list's landing call) keeps one plan (pageWindow).
  const paging = pageWindow(q, where === undefined);
  // The page and its capped count in one statement (one round trip), its SQL built once per shape.
  const statement = listStatements.get(db, `${shape()}|${key.ascending}${paging.key}`, (db) => selectPage(db, q, where, key, paging.apply, cappedCountColumn(countFrom(q, where))), {
    // With no filter (the platform's whole list) the values change no plan: PostgreSQL may keep one.
    named: where === undefined,
  });
  const rows = await statement.execute(Object.assign({}, values, { limit: q.limit, offset: offsetOf(q) }));
  const count = await countOfPage(db, rows, q, () => countFrom(q, listConditions(auth, q, inline)));
  return { list: rows.map(withoutTotal), ...count };
}

/** GET /inspection/export: the filtered list, in its order, as CSV or XLSX (streamed). */
export async function exportList(db: Tx, auth: Auth, q: InspectionExportQuery, ctx: Ctx) {
  await assertInstitution(db, auth, q);
  const where = listConditions(auth, q, inline);
  const key = keyOf(q);
  const lang = ctx.lang;
  const pick = (text: L10n | null) => (text ? label(text, lang) : '');
  const columns: ExportColumn<InspectionRow>[] = [
    { title: label(LABELS.number, lang), value: (r) => r.inspection_no, width: 22 },
    { title: label(LABELS.time, lang), value: (r) => new Date(r.measured_at), width: 20 },
    { title: label(LABELS.person, lang), value: (r) => r.user_name, width: 16 },
    { title: label(LABELS.doctor, lang), value: (r) => r.doctor_name ?? '', width: 16 },
    { title: label(LABELS.device, lang), value: (r) => r.device_serial, width: 14 },
    { title: label(LABELS.institution, lang), value: (r) => r.institution_name, width: 28 },
    { title: label(LABELS.worstLevel, lang), value: (r) => (r.worst_level ? label(LABELS.levels[r.worst_level], lang) : '') },
    { title: label(LABELS.topRisk, lang), value: (r) => (r.top_risk ? label(LABELS.risks[r.top_risk], lang) : '') },
    { title: label(LABELS.topDisease, lang), value: (r) => pick(r.top_disease), width: 24 },
    { title: label(LABELS.version, lang), value: (r) => r.analysis_version },
  ];
  return exportRows(db, ctx.reply, {
    format: q.format,
    filename: 'inspections',
    sheet: label(LABELS.sheet, lang),
    columns,
    where,
    key,
    // The keyset walk's order is the key's (orderOf), which selectPage writes from the key itself.
    fetch: async (w, _order, limit) => (await selectPage(db, q, w, key, <Q extends PgSelect>(query: Q) => query.limit(limit) as Q)).map(withoutTotal),
    count: countFrom(q, where),
  });
}

type InspectionRecord = typeof inspections.$inferSelect;

/** The inspection when the caller may see it; otherwise refused (a foreign id and a missing one alike). */
async function scopedInspection(db: Tx, auth: Auth, id: number, lock = false): Promise<InspectionRecord> {
  const query = db
    .select()
    .from(inspections)
    .where(and(eq(inspections.id, id), scopeOf(auth)));
  const [row] = lock ? await query.for('update') : await query;
  // An institution is told the same for a missing id and one outside its subtree (as institutions do).
  if (!row) throw auth.kind === 'institution' ? forbidden() : notFound();
  return row;
}

async function versionsOf(db: Tx, row: InspectionRecord): Promise<InspectionVersion[]> {
  const stored = await db
    .select({ version: inspectionAnalyses.version, createdAt: inspectionAnalyses.createdAt, createdBy: inspectionAnalyses.createdBy })
    .from(inspectionAnalyses)
    .where(eq(inspectionAnalyses.inspectionId, row.id))
    .orderBy(asc(inspectionAnalyses.version));
  if (!stored.length) return [{ version: row.analysisVersion, created_at: iso(row.createdAt), created_by: 'device' }];
  return stored.map((v) => ({ version: v.version, created_at: iso(v.createdAt), created_by: v.createdBy }));
}

async function detailOf(db: Tx, row: InspectionRecord, version?: number): Promise<InspectionDetail> {
  const [[inst], [device], [doctor], [user], versions] = await Promise.all([
    db.select({ id: institutions.id, name: institutions.name }).from(institutions).where(eq(institutions.id, row.institutionId)),
    db.select({ id: devices.id, serial: devices.serial, name: devices.name, model: devices.model }).from(devices).where(eq(devices.id, row.deviceId)),
    row.doctorId == null ? Promise.resolve([]) : db.select({ id: doctors.id, name: doctors.name, title: doctors.title }).from(doctors).where(eq(doctors.id, row.doctorId)),
    db.select().from(endUsers).where(eq(endUsers.id, row.endUserId)),
    versionsOf(db, row),
  ]);
  let analysis = (row.analysis as Analysis | null) ?? null;
  let shown = row.analysisVersion;
  if (version != null && version !== row.analysisVersion) {
    const [older] = await db
      .select({ analysis: inspectionAnalyses.analysis })
      .from(inspectionAnalyses)
      .where(and(eq(inspectionAnalyses.inspectionId, row.id), eq(inspectionAnalyses.version, version)));
    if (!older) throw notFound();
    analysis = older.analysis as Analysis;
    shown = version;
  }
  return {
    id: row.id,
    inspection_no: row.inspectionNo,
    measured_at: iso(row.measuredAt),
    created_at: iso(row.createdAt),
    institution: { id: inst!.id, name: inst!.name },
    device: { id: device!.id, serial: device!.serial, name: device!.name, model: device!.model },
    doctor: doctor ? { id: doctor.id, name: doctor.name, title: doctor.title } : null,
    user: {
      id: user!.id,
      name: user!.name,
      gender: user!.gender,
      birth_date: user!.birthDate ?? null,
      phone: maskPhone(user!.phone),
      id_number: maskIdNumber(user!.idNumber),
    },
    vitals: row.vitals ?? null,
    readings: row.readings as Record<Meridian, [number, number]>,
    analysis,
    version: shown,
    latest_version: row.analysisVersion,
    versions,
  };
}

/** GET /inspection/detail: the latest analysis (or an older version) and every version. */
export async function detail(db: Tx, auth: Auth, q: InspectionDetailQuery): Promise<InspectionDetail> {
  return detailOf(db, await scopedInspection(db, auth, q.id), q.version);
}

/** GET /inspection/report: the detail, the found diseases' texts, the advised acupoints and diagrams, the disclaimer. */
export async function report(db: Tx, auth: Auth, q: IdInput): Promise<InspectionReportData> {
  const inspection = await detailOf(db, await scopedInspection(db, auth, q.id));
  const a = inspection.analysis;
  const diseaseIds = a?.diseases.map((d) => d.id) ?? [];
  const pointIds = a?.advice.acupoints.map((p) => p.id) ?? [];
  const diagramIds = a?.advice.schematics.map((s) => s.id) ?? [];
  const [texts, points, markers, params] = await Promise.all([
    diseaseIds.length ? db.select({ id: diseases.id, description: diseases.description, advice: diseases.advice }).from(diseases).where(inArray(diseases.id, diseaseIds)) : Promise.resolve([]),
    pointIds.length ? db.select({ id: acupoints.id, meridian: acupoints.meridian, location: acupoints.location }).from(acupoints).where(inArray(acupoints.id, pointIds)) : Promise.resolve([]),
    diagramIds.length
      ? db
          .select({ schematicId: schematicMarkers.schematicId, acupointId: schematicMarkers.acupointId, code: acupoints.code, x: schematicMarkers.x, y: schematicMarkers.y })
          .from(schematicMarkers)
          .innerJoin(acupoints, eq(acupoints.id, schematicMarkers.acupointId))
          .where(inArray(schematicMarkers.schematicId, diagramIds))
          .orderBy(asc(schematicMarkers.sort), asc(schematicMarkers.id))
      : Promise.resolve([]),
    auth.params ? Promise.resolve(auth.params) : readParams(db),
  ]);
  const advised = new Set(pointIds);
  const textOf = new Map(texts.map((t) => [t.id, t]));
  const pointOf = new Map(points.map((p) => [p.id, p]));
  return {
    inspection,
    diseases: diseaseIds.map((id) => ({ id, description: (textOf.get(id)?.description as L10n | undefined) ?? null, advice: (textOf.get(id)?.advice as L10n | undefined) ?? null })),
    acupoints: (a?.advice.acupoints ?? []).map((p) => Object.assign({}, p, { meridian: pointOf.get(p.id)?.meridian ?? '', location: (pointOf.get(p.id)?.location as L10n | undefined) ?? null })),
    schematics: (a?.advice.schematics ?? []).map((s) =>
      Object.assign({}, s, {
        markers: markers.filter((m) => m.schematicId === s.id).map((m) => ({ acupoint_id: m.acupointId, code: m.code, x: m.x, y: m.y, advised: advised.has(m.acupointId) })),
      }),
    ),
    disclaimer: params.report_disclaimer,
  };
}

async function sessionsOf(db: Tx, inspectionId: number, where?: SQL): Promise<TreatmentSessionRow[]> {
  const rows = await db
    .select()
    .from(treatmentSessions)
    .where(where ?? eq(treatmentSessions.inspectionId, inspectionId))
    .orderBy(asc(treatmentSessions.sessionDate), asc(treatmentSessions.id));
  const ids = [...new Set(rows.flatMap((r) => r.acupointIds))];
  const points = ids.length ? await db.select({ id: acupoints.id, code: acupoints.code, name: acupoints.name }).from(acupoints).where(inArray(acupoints.id, ids)) : [];
  const byId = new Map(points.map((p) => [p.id, { id: p.id, code: p.code, name: p.name as L10n }]));
  return rows.map((r) => ({
    id: r.id,
    session_date: r.sessionDate,
    acupoints: r.acupointIds.flatMap((id) => byId.get(id) ?? []),
    minutes: r.minutes,
    notes: r.notes,
    created_by: r.createdBy,
    created_at: iso(r.createdAt),
  }));
}

/** GET /inspection/result: the detail, each advised acupoint with its treatment actions, the sessions given. */
export async function result(db: Tx, auth: Auth, q: IdInput): Promise<InspectionResultData> {
  const inspection = await detailOf(db, await scopedInspection(db, auth, q.id));
  const advised = inspection.analysis?.advice.acupoints ?? [];
  const ids = advised.map((p) => p.id);
  const [actions, flags, sessions] = await Promise.all([
    ids.length ? db.select().from(acupointActions).where(inArray(acupointActions.acupointId, ids)).orderBy(asc(acupointActions.sort), asc(acupointActions.id)) : Promise.resolve([]),
    ids.length ? db.select({ id: acupoints.id, isTreatmentPoint: acupoints.isTreatmentPoint }).from(acupoints).where(inArray(acupoints.id, ids)) : Promise.resolve([]),
    sessionsOf(db, q.id),
  ]);
  const treatment = new Map(flags.map((f) => [f.id, f.isTreatmentPoint]));
  return {
    inspection,
    plan: advised.map((p) =>
      Object.assign({}, p, {
        is_treatment_point: treatment.get(p.id) ?? false,
        actions: actions
          .filter((x) => x.acupointId === p.id)
          .map((x) => ({ waveform: x.waveform, frequency_hz: x.frequencyHz, intensity_min: x.intensityMin, intensity_max: x.intensityMax, minutes: x.minutes })),
      }),
    ),
    sessions,
  };
}

const accountName = (auth: Auth) => (auth.kind === 'admin' ? auth.admin!.username : auth.institution!.username);

/**
 * POST /inspection/recompute (grade 0): the analysis again from today's master data, as the next version.
 * The inspection row is locked, so concurrent recomputes get consecutive versions; the first recompute
 * moves the analysis computed on arrival to inspection_analyses as version 1 (by 'device').
 */
export async function recompute(db: Tx, auth: Auth, q: IdInput): Promise<RecomputeAnswer> {
  if (auth.kind !== 'admin') throw forbidden();
  const row = await scopedInspection(db, auth, q.id, true);
  const [kept] = await db.select({ n: sql<number>`count(*)::int` }).from(inspectionAnalyses).where(eq(inspectionAnalyses.inspectionId, row.id));
  if (!kept!.n && row.analysis != null)
    await db.insert(inspectionAnalyses).values({ inspectionId: row.id, version: row.analysisVersion, analysis: row.analysis, createdAt: row.createdAt, createdBy: 'device' });
  const analysis = analyse(row.readings as unknown as Readings, await loadAnalysisMaster(db));
  const version = row.analysisVersion + 1;
  await db.insert(inspectionAnalyses).values({ inspectionId: row.id, version, analysis, createdBy: accountName(auth) });
  await db.update(inspections).set({ analysis, analysisVersion: version }).where(eq(inspections.id, row.id));
  return { id: row.id, version };
}

/** The audit trail's view of an inspection: its number, the analysis version and headline. */
export async function snapshot(db: Tx, id: number | null) {
  if (id == null) return null;
  const [row] = await db
    .select({ id: inspections.id, inspection_no: inspections.inspectionNo, analysis_version: inspections.analysisVersion, worst_level: inspections.worstLevel, top_risk: inspections.topRisk })
    .from(inspections)
    .where(eq(inspections.id, id));
  return row ?? null;
}

/**
 * POST /inspection/add_session: a treatment session given after an inspection of the caller's subtree.
 * The acupoints must be among those the inspection's latest analysis advises (the result page's plan).
 */
export async function addSession(db: Tx, auth: Auth, body: TreatmentSessionBody): Promise<{ id: number }> {
  const row = await scopedInspection(db, auth, body.inspection_id);
  const advised = new Set(((row.analysis as Analysis | null)?.advice.acupoints ?? []).map((p) => p.id));
  if (body.acupoint_ids.some((id) => !advised.has(id))) throw fieldError('acupoint_ids', 'sessionAcupointNotAdvised');
  const [created] = await db
    .insert(treatmentSessions)
    .values({
      inspectionId: row.id,
      institutionId: row.institutionId,
      sessionDate: body.session_date,
      acupointIds: body.acupoint_ids,
      minutes: body.minutes,
      notes: body.notes,
      createdBy: accountName(auth),
      createdByKind: auth.kind,
    })
    .returning({ id: treatmentSessions.id });
  return { id: created!.id };
}

/** The audit trail's view of a treatment session. */
export async function sessionSnapshot(db: Tx, id: number | null) {
  if (id == null) return null;
  const [row] = await db.select().from(treatmentSessions).where(eq(treatmentSessions.id, id));
  if (!row) return null;
  return {
    id: row.id,
    inspection_id: row.inspectionId,
    institution_id: row.institutionId,
    session_date: row.sessionDate,
    acupoint_ids: row.acupointIds,
    minutes: row.minutes,
    notes: row.notes,
    created_by: row.createdBy,
    created_at: iso(row.createdAt),
  };
}

import { and, asc, desc, eq, gt, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { create as contentDisposition } from 'content-disposition';
import {
  analyse,
  type Analysis,
  type InspectionDetail,
  type InspectionDetailQuery,
  type InspectionHistoryEntry,
  HISTORY_MAX,
  type AnalysisIndices,
  type InspectionReportData,
  type InspectionResultData,
  type InspectionVersion,
  type IdInput,
  type L10n,
  type Lang,
  type Meridian,
  type ReportPdfQuery,
  type Readings,
  type RecomputeAnswer,
  type SystemLevel,
  type TreatmentSessionBody,
  type TreatmentSessionRow,
} from '@app/contract';
import type { Tx } from '../../db/client';
import {
  acupointActions,
  acupoints,
  devices,
  diseases,
  doctors,
  endUsers,
  inspectionAnalyses,
  inspectionShares,
  inspections,
  institutions,
  schematicMarkers,
  treatmentSessions,
} from '../../db/schema';
import { type Auth, callerRef } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { forbidden, notFound } from '../../lib/errors';
import { fieldError } from '../../lib/form';
import { maskIdNumber, maskPhone } from '../../lib/mask';
import { readParams } from '../../lib/params';
import { loadAnalysisMaster } from '../deviceapi';
import { iso } from '../../lib/time';
import { locate } from '../uploads';
import { scopeOf } from './scope';
import { serverSealer } from '../codes';
import { pdfFileName } from './pdf';
import { drawReportPdf } from './pdf-pool';

/*
 * Inspections as the back office reads them (the list and its export are ./list.ts): the detail with its
 * analysis versions, the report and result data, the grade-0
 * recompute (a new version; the old ones stay in inspection_analyses) and the treatment sessions.
 * Everything is scoped by the caller's subtree; for an institution an inspection outside it and a missing
 * one are refused alike (forbidden), so ids reveal nothing.
 */

type InspectionRecord = typeof inspections.$inferSelect;

/** The inspection when the caller may see it; otherwise refused (a foreign id and a missing one alike). */
export async function scopedInspection(db: Tx, auth: Auth, id: number, lock = false): Promise<InspectionRecord> {
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

/**
 * The person's earlier inspections (InspectionHistoryEntry): a person is one end-user record, so these are
 * the inspections of `row.end_user_id` measured before `row` (by time, then id), within `scope` (the
 * caller's subtree, or the shared inspection's institution's), with an analysis; newest first, at most 8.
 */
async function historyOf(db: Tx, row: InspectionRecord, scope: SQL | undefined): Promise<InspectionHistoryEntry[]> {
  const rows = await db
    .select({
      id: inspections.id,
      measuredAt: inspections.measuredAt,
      indices: sql<AnalysisIndices>`${inspections.analysis}->'indices'`,
      systems: sql<{ id: number; score: number; level: SystemLevel }[]>`${inspections.analysis}->'systems'`,
    })
    .from(inspections)
    .where(
      and(
        eq(inspections.endUserId, row.endUserId),
        sql`${inspections.analysis} is not null`,
        or(lt(inspections.measuredAt, row.measuredAt), and(eq(inspections.measuredAt, row.measuredAt), lt(inspections.id, row.id))),
        scope,
      ),
    )
    .orderBy(desc(inspections.measuredAt), desc(inspections.id))
    .limit(HISTORY_MAX);
  return rows.map((r) => ({
    id: r.id,
    measured_at: iso(r.measuredAt),
    indices: r.indices,
    systems: (r.systems ?? []).map((x) => ({ id: x.id, score: x.score, level: x.level })),
  }));
}

/** The sealer of the links' tokens (the server key's, purpose `report-share`). */
export const shareSealer = (config: Ctx['config']) => serverSealer(config, 'report-share');

/** A link's address: the page `/share/<token>` on the origin the caller reached the server by. */
export const shareUrl = (ctx: Pick<Ctx, 'req'>, token: string) => `${ctx.req.protocol}://${ctx.req.host}/share/${token}`;

/** An inspection's active links: neither revoked nor expired. */
export const activeLinksOf = (inspectionId: number) => and(eq(inspectionShares.inspectionId, inspectionId), isNull(inspectionShares.revokedAt), gt(inspectionShares.expiresAt, sql`now()`));

/** The newest active link of an inspection, as the sheet prints it (null: none, or sealed under another key). */
async function activeShare(db: Tx, inspectionId: number, ctx: Pick<Ctx, 'req' | 'config'>): Promise<{ url: string; expires_at: string } | null> {
  const [row] = await db
    .select({ sealed: inspectionShares.tokenSealed, expiresAt: inspectionShares.expiresAt })
    .from(inspectionShares)
    .where(activeLinksOf(inspectionId))
    .orderBy(desc(inspectionShares.id))
    .limit(1);
  const token = row ? shareSealer(ctx.config).open(row.sealed) : null;
  return row && token ? { url: shareUrl(ctx, token), expires_at: iso(row.expiresAt) } : null;
}

/**
 * What the report shows of an inspection: the detail, the history in `scope`, the found diseases' texts,
 * the advised acupoints and diagrams, the disclaimer, and the active link when `share` is given.
 */
export async function reportOf(
  db: Tx,
  row: InspectionRecord,
  scope: SQL | undefined,
  params: Auth['params'] | undefined,
  share: (() => Promise<InspectionReportData['share']>) | null,
): Promise<InspectionReportData> {
  const [inspection, history, link] = await Promise.all([detailOf(db, row), historyOf(db, row, scope), share ? share() : Promise.resolve(null)]);
  const a = inspection.analysis;
  const diseaseIds = a?.diseases.map((d) => d.id) ?? [];
  const pointIds = a?.advice.acupoints.map((p) => p.id) ?? [];
  const diagramIds = a?.advice.schematics.map((s) => s.id) ?? [];
  const [texts, points, markers, disclaimer] = await Promise.all([
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
    params ? Promise.resolve(params.report_disclaimer) : readParams(db).then((p) => p.report_disclaimer),
  ]);
  const advised = new Set(pointIds);
  const textOf = new Map(texts.map((t) => [t.id, t]));
  const pointOf = new Map(points.map((p) => [p.id, p]));
  return {
    inspection,
    history,
    share: link,
    diseases: diseaseIds.map((id) => ({ id, description: (textOf.get(id)?.description as L10n | undefined) ?? null, advice: (textOf.get(id)?.advice as L10n | undefined) ?? null })),
    acupoints: (a?.advice.acupoints ?? []).map((p) => Object.assign({}, p, { meridian: pointOf.get(p.id)?.meridian ?? '', location: (pointOf.get(p.id)?.location as L10n | undefined) ?? null })),
    schematics: (a?.advice.schematics ?? []).map((s) =>
      Object.assign({}, s, {
        markers: markers.filter((m) => m.schematicId === s.id).map((m) => ({ acupoint_id: m.acupointId, code: m.code, x: m.x, y: m.y, advised: advised.has(m.acupointId) })),
      }),
    ),
    disclaimer,
  };
}

/** GET /inspection/report: the detail, the history, the found diseases' texts, the advised acupoints and diagrams, the disclaimer, the active link. */
export async function report(db: Tx, auth: Auth, q: IdInput, ctx: Ctx): Promise<InspectionReportData> {
  const row = await scopedInspection(db, auth, q.id);
  return reportOf(db, row, scopeOf(auth), auth.params, () => activeShare(db, row.id, ctx));
}

/** The images the PDF draws: the diagrams' uploads (stored or built in), by their URL. */
const uploadImages = (db: Tx) => async (url: string) => {
  const name = /\/uploads\/([^/?#]+)$/.exec(url)?.[1];
  return name ? ((await locate(db, name))?.body ?? null) : null;
};

/** Sends a report as a PDF file, named after the person and the day (the registrar audits the read first). */
export async function sendPdf(data: InspectionReportData, lang: Lang, ctx: Ctx, db: Tx): Promise<Buffer> {
  const pdf = await drawReportPdf(data, { lang, images: uploadImages(db) });
  const name = pdfFileName(data, lang);
  ctx.reply.header('content-type', 'application/pdf').header('content-disposition', contentDisposition(name)).header('cache-control', 'no-store');
  return pdf;
}

/** GET /inspection/report_pdf: the report as an A4 PDF in `lang` (default: the reader's language). */
export async function reportPdf(db: Tx, auth: Auth, q: ReportPdfQuery, ctx: Ctx): Promise<Buffer> {
  const row = await scopedInspection(db, auth, q.id);
  const data = await reportOf(db, row, scopeOf(auth), auth.params, () => activeShare(db, row.id, ctx));
  return sendPdf(data, q.lang ?? ctx.lang, ctx, db);
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
  const row = await scopedInspection(db, auth, q.id);
  const [inspection, history] = await Promise.all([detailOf(db, row), historyOf(db, row, scopeOf(auth))]);
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
    history,
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

const accountName = (auth: Auth) => callerRef(auth).username;

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

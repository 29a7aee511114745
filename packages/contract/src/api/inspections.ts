import { z } from 'zod';
import type { Analysis, AnalysisIndices, SystemLevel } from '../analysis';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idAnswer, idInput, idList, idSchema, optionalId, post } from '../endpoint';
import { LANGS, type L10n } from '../i18n';
import type { TreatmentAction } from './acupoints';
import { exportQuery, listQuery, optionalText, withMessage } from './common';
import type { Meridian } from './meridians';
import type { Gender } from './person';

/*
 * Inspections (`/inspection/management`, route InspectionList, grades 0-3 scoped to the caller's subtree)
 * with the hidden report (`/inspection/report/:id`) and result (`/inspection/result/:id`) pages. Devices
 * send inspections through the device API (api/deviceapi.ts); the analysis (analysis.ts) is stored with
 * the inspection as computed from the master data of that moment. A grade-0 recompute writes a new
 * version and keeps the old ones. The endpoint table is `inspectionsApi` at the end of this file.
 */

/** The headline risk of an inspection: the highest disease risk, or none found. */
export const INSPECTION_RISKS = ['high', 'medium', 'low', 'none'] as const;
export type InspectionRisk = (typeof INSPECTION_RISKS)[number];
export const INSPECTION_LEVELS = ['normal', 'attention', 'abnormal'] as const;
export const INSPECTION_LIMITS = { notesLength: 500, maxAcupoints: 30, minutes: { min: 1, max: 240 }, personLength: 50, numberLength: 64 } as const;

const dateOnly = z.iso.date();
export const inspectionFilters = {
  /** Inspection number (contains). */
  keyword: optionalText(INSPECTION_LIMITS.numberLength),
  institution_id: optionalId,
  device_id: optionalId,
  doctor_id: optionalId,
  /** One person (the user detail's inspection history). */
  user_id: optionalId,
  /** Person's name (contains). */
  person: optionalText(INSPECTION_LIMITS.personLength),
  /** Measured on or after this day / on or before this day (UTC days). */
  date_from: dateOnly.optional(),
  date_to: dateOnly.optional(),
  risk: z.enum(INSPECTION_RISKS).optional(),
  level: z.enum(INSPECTION_LEVELS).optional(),
};
export const INSPECTION_SORTS = ['measured_at'] as const;
export const inspectionListQuery = listQuery(inspectionFilters, INSPECTION_SORTS);
export type InspectionListQuery = z.infer<typeof inspectionListQuery>;
export const inspectionExportQuery = exportQuery(inspectionListQuery);
export type InspectionExportQuery = z.infer<typeof inspectionExportQuery>;

export interface InspectionRow {
  id: number;
  inspection_no: string;
  measured_at: string;
  user_id: number;
  user_name: string;
  doctor_id: number | null;
  doctor_name: string | null;
  device_id: number;
  device_serial: string;
  institution_id: number;
  institution_name: string;
  /** The worst system level of the latest analysis (null: no analysis). */
  worst_level: SystemLevel | null;
  /** The highest disease risk ('none': no disease found; null: no analysis). */
  top_risk: InspectionRisk | null;
  /** The disease of the highest risk. */
  top_disease: L10n | null;
  analysis_version: number;
}

export interface InspectionVersion {
  version: number;
  created_at: string;
  /** An admin's account name, or 'device' for the analysis computed when the inspection arrived. */
  created_by: string;
}

export interface InspectionDetail {
  id: number;
  inspection_no: string;
  measured_at: string;
  created_at: string;
  institution: { id: number; name: string };
  device: { id: number; serial: string; name: string; model: string };
  doctor: { id: number; name: string; title: string } | null;
  /** The person; phone and ID number masked. */
  user: { id: number; name: string; gender: Gender; birth_date: string | null; phone: string | null; id_number: string | null };
  vitals: Record<string, number | string> | null;
  readings: Record<Meridian, [number, number]>;
  /** The analysis of `version` (the latest unless another was asked for). */
  analysis: Analysis | null;
  version: number;
  latest_version: number;
  /** Every version, oldest first (one entry until a recompute). */
  versions: InspectionVersion[];
}

export const inspectionDetailQuery = z.object({ id: idSchema, version: z.coerce.number().int().min(1).max(100_000).optional() });
export type InspectionDetailQuery = z.infer<typeof inspectionDetailQuery>;

/**
 * One earlier inspection of the same person in a report's history. A person is one end-user record
 * (`inspections.end_user_id`): a device sends the person with each inspection and the server files it
 * under the end user of that ID number (or a new one); the history is that record's other inspections
 * measured before this one, in the reader's scope, newest first, at most `HISTORY_MAX`.
 */
export interface InspectionHistoryEntry {
  id: number;
  measured_at: string;
  indices: AnalysisIndices;
  systems: { id: number; score: number; level: SystemLevel }[];
}
/** How many earlier inspections a report shows (as the body-composition sheets clinics know: the last 8). */
export const HISTORY_MAX = 8;

/** An active link to a report's public page (`/share/<token>`). */
export interface InspectionShare {
  id: number;
  url: string;
  created_at: string;
  expires_at: string;
  created_by: string;
}

/** The report: the detail, the found diseases' advice and the diagrams with their markers, the disclaimer. */
export interface InspectionReportData {
  inspection: InspectionDetail;
  /** Up to 8 earlier inspections of the same person, newest first (InspectionHistoryEntry). */
  history: InspectionHistoryEntry[];
  /** The newest active link to this report's public page, shown as a QR code on the sheet (null: none). */
  share: { url: string; expires_at: string } | null;
  /** Description and advice of each disease of the analysis (master data as it is now), by id. */
  diseases: { id: number; description: L10n | null; advice: L10n | null }[];
  /** The advised acupoints with their meridian and location. */
  acupoints: { id: number; code: string; name: L10n; meridian: string; location: L10n | null }[];
  /** The advised diagrams with every marker; `advised` marks the advised acupoints. */
  schematics: { id: number; title: L10n; url: string; markers: { acupoint_id: number; code: string; x: number; y: number; advised: boolean }[] }[];
  /** The report disclaimer (system parameter `report_disclaimer`). */
  disclaimer: string;
}

export interface TreatmentSessionRow {
  id: number;
  session_date: string;
  acupoints: { id: number; code: string; name: L10n }[];
  minutes: number;
  notes: string;
  created_by: string;
  created_at: string;
}

/** The result page: the detail, the treatment plan (each advised acupoint's actions) and the sessions given. */
export interface InspectionResultData {
  inspection: InspectionDetail;
  /** As the report's: up to 8 earlier inspections of the same person, newest first. */
  history: InspectionHistoryEntry[];
  plan: { id: number; code: string; name: L10n; is_treatment_point: boolean; actions: TreatmentAction[] }[];
  sessions: TreatmentSessionRow[];
}

const { minutes } = INSPECTION_LIMITS;
export const treatmentSessionBody = z.object({
  inspection_id: idSchema,
  session_date: dateOnly.refine((d) => d <= new Date(Date.now() + 14 * 3600_000).toISOString().slice(0, 10), withMessage('sessionDateFuture')),
  acupoint_ids: idList(INSPECTION_LIMITS.maxAcupoints).refine((ids) => ids.length > 0, withMessage('sessionAcupointsRequired')),
  minutes: z.number().int().min(minutes.min).max(minutes.max),
  notes: z.string().trim().max(INSPECTION_LIMITS.notesLength).optional().default(''),
});
export type TreatmentSessionBody = z.infer<typeof treatmentSessionBody>;

export interface RecomputeAnswer {
  id: number;
  version: number;
}

/** A language of the PDF: one of the four (default: the reader's). */
const pdfLang = z.enum(LANGS).optional();
export const reportPdfQuery = z.object({ id: idSchema, lang: pdfLang });
export type ReportPdfQuery = z.infer<typeof reportPdfQuery>;

export const SHARE_LIMITS = { days: { min: 1, max: 90 }, tokenLength: 128 } as const;
export const shareBody = z.object({ id: idSchema, days: z.number().int().min(SHARE_LIMITS.days.min).max(SHARE_LIMITS.days.max).optional() });
export type ShareBody = z.infer<typeof shareBody>;
/** `id` the inspection: every active link of it is revoked, or only `share_id` when given. */
export const unshareBody = z.object({ id: idSchema, share_id: idSchema.optional() });
export type UnshareBody = z.infer<typeof unshareBody>;
export interface ShareAnswer {
  token: string;
  url: string;
  expires_at: string;
  id: number;
}
/** A token as a link carries it; any other text is answered `share_unknown` by the service (never a field error). */
export const shareTokenQuery = z.object({ token: z.string().max(SHARE_LIMITS.tokenLength) });
export const sharePdfQuery = z.object({ token: z.string().max(SHARE_LIMITS.tokenLength), lang: pdfLang });
export type ShareTokenQuery = z.infer<typeof shareTokenQuery>;
export type SharePdfQuery = z.infer<typeof sharePdfQuery>;
/** Why a link does not open: `datas.error.reason` of the public calls' 400. */
export const SHARE_REASONS = ['share_unknown', 'share_expired', 'share_revoked'] as const;
export type ShareReason = (typeof SHARE_REASONS)[number];

const readPages = ['InspectionList', 'InspectionReport', 'InspectionResult'] as const;

export const inspectionsApi = defineEndpoints('inspections', {
  /** The caller's subtree (everything for the platform), newest first; filters as in `inspectionFilters`. */
  list: get('/inspection/list', { page: 'InspectionList' }, inspectionListQuery, answer<ListResult<InspectionRow>>()),
  /** The filtered list (at most 10 000 rows, newest first) as CSV or XLSX; column titles in the caller's language. */
  exportList: get('/inspection/export', { button: 'inspection:export' }, inspectionExportQuery, answer<unknown>(), { raw: true, summary: 'Inspections as a CSV or XLSX file' }),
  /** One inspection in the caller's subtree with the latest analysis (or `version`) and the list of versions. */
  detail: get('/inspection/detail', { page: readPages }, inspectionDetailQuery, answer<InspectionDetail>(), { read: 'inspection' }),
  /** What the printable report shows. Its PDF and a shared report, when built, read as `read: 'inspection'` too (access audit). */
  report: get('/inspection/report', { page: 'InspectionReport' }, idInput, answer<InspectionReportData>(), { read: 'inspection' }),
  /** What the result page shows: the analysis, the treatment plan and the sessions. */
  result: get('/inspection/result', { page: 'InspectionResult' }, idInput, answer<InspectionResultData>(), { read: 'inspection' }),
  /** The report as an A4 PDF made by the server (charts, history trend, fonts embedded), in `lang` or the reader's language. */
  reportPdf: get('/inspection/report_pdf', { page: 'InspectionReport' }, reportPdfQuery, answer<unknown>(), { raw: true, read: 'inspection', summary: 'The report as a PDF file' }),
  /** A link to the report's public page for the person, valid `days` (default: parameter share_days). */
  share: post('/inspection/share', { button: 'inspection:share' }, shareBody, answer<ShareAnswer>(), { audit: 'inspection_share' }),
  /** Revokes the report's active links (or the one `share_id`). */
  unshare: post('/inspection/unshare', { button: 'inspection:share' }, unshareBody, answer<{ revoked: number }>(), { audit: 'inspection_share' }),
  /** The report's active links, newest first. */
  shareList: get('/inspection/share_list', { button: 'inspection:share' }, idInput, answer<{ list: InspectionShare[] }>()),
  /** Public: the shared report, read-only, without ids of other records (`id` fields are positions within the answer). */
  sharedReport: get('/share/report', { public: true }, shareTokenQuery, answer<InspectionReportData>()),
  /** Public: the shared report as a PDF. */
  sharedPdf: get('/share/pdf', { public: true }, sharePdfQuery, answer<unknown>(), { raw: true, summary: 'A shared report as a PDF file' }),
  /** Grade 0: computes the analysis again from today's master data as a new version; the old ones stay. */
  recompute: post('/inspection/recompute', { button: 'inspection:recompute' }, idInput, answer<RecomputeAnswer>(), { audit: 'inspection' }),
  /** Records a treatment session given after an inspection of the caller's subtree. */
  addSession: post('/inspection/add_session', { button: 'inspection:treat' }, treatmentSessionBody, idAnswer, { audit: 'treatment_session' }),
});

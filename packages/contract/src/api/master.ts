/**
 * Master data (grade 0): disease categories, system categories, acupoints, schematic diagrams, and
 * the uploads they use.
 *
 * Calls (all under API_BASE; reads need the page, writes the button, as in routes.ts):
 *
 * | Method | Path                         | Access                    | Payload                      | Answer                          |
 * |--------|------------------------------|---------------------------|------------------------------|---------------------------------|
 * | GET    | /disease/tree                | page DiseaseManage        | -                            | DiseaseTreeNode[]               |
 * | GET    | /disease/category_list       | page DiseaseManage        | diseaseCategoryListQuery     | ListResult<DiseaseCategoryRow>  |
 * | GET    | /disease/category_detail     | page DiseaseManage        | id                           | DiseaseCategoryRow              |
 * | POST   | /disease/category_add        | button disease:add        | diseaseCategoryBody          | { id }                          |
 * | POST   | /disease/category_edit       | button disease:edit       | diseaseCategoryEditBody      | null                            |
 * | POST   | /disease/category_del        | button disease:delete     | { id }                       | null                            |
 * | GET    | /disease/list                | page DiseaseManage        | diseaseListQuery             | ListResult<DiseaseRow>          |
 * | GET    | /disease/detail              | page DiseaseManage        | id                           | DiseaseDetail                   |
 * | POST   | /disease/add                 | button disease:add        | diseaseBody                  | { id }                          |
 * | POST   | /disease/edit                | button disease:edit       | diseaseEditBody              | null                            |
 * | POST   | /disease/del                 | button disease:delete     | { id }                       | null                            |
 * | GET    | /system/tree                 | page SystemManage         | -                            | SystemTreeNode[]                |
 * | GET    | /system/options              | any admin (grade 0)       | -                            | SystemTreeNode[] (pickers)      |
 * | GET    | /system/list                 | page SystemManage         | systemListQuery              | ListResult<SystemRow>           |
 * | GET    | /system/detail               | page SystemManage         | id                           | SystemRow                       |
 * | POST   | /system/add                  | button system:add         | systemBody                   | { id }                          |
 * | POST   | /system/edit                 | button system:edit        | systemEditBody               | null                            |
 * | POST   | /system/del                  | button system:delete      | { id }                       | null                            |
 * | GET    | /acupoint/list               | page AcupointManage       | acupointListQuery            | ListResult<AcupointRow>         |
 * | GET    | /acupoint/options            | any admin (grade 0)       | -                            | AcupointOption[] (pickers)      |
 * | GET    | /acupoint/detail             | page AcupointManage       | id                           | AcupointDetail                  |
 * | POST   | /acupoint/add                | button acupoint:add       | acupointBody                 | { id }                          |
 * | POST   | /acupoint/edit               | button acupoint:edit      | acupointEditBody             | null                            |
 * | POST   | /acupoint/del                | button acupoint:delete    | { id }                       | null                            |
 * | GET    | /acupoint/actions            | page AcupointAction       | id                           | AcupointActions                 |
 * | POST   | /acupoint/save_actions       | button acupoint:action    | saveActionsBody              | null                            |
 * | GET    | /schematic/list              | page SchematicManage      | schematicListQuery           | ListResult<SchematicRow>        |
 * | GET    | /schematic/detail            | page SchematicManage      | id                           | SchematicDetail                 |
 * | POST   | /schematic/add               | button schematic:add      | schematicBody                | { id }                          |
 * | POST   | /schematic/edit              | button schematic:edit     | schematicEditBody            | null                            |
 * | POST   | /schematic/save_markers      | button schematic:edit     | saveMarkersBody              | null                            |
 * | POST   | /schematic/del               | button schematic:delete   | { id }                       | null                            |
 * | POST   | /base/upload_img             | any session (any grade)   | multipart, field `file`      | UploadAnswer                    |
 * | POST   | /base/upload_file            | any session (any grade)   | multipart, field `file`      | UploadAnswer                    |
 * | GET    | /uploads/<name>              | public (names are random) | -                            | the file                        |
 *
 * Disease categories and diseases share the `disease` prefix: categories use `category_*` calls,
 * diseases the plain ones (the tree call answers both levels). Systems are one table with two levels:
 * `parent_id` null = body system, otherwise a subsystem/organ of that body system.
 *
 * Uploads: the body is multipart/form-data, so the session key travels in the query string
 * (`?key=...`, as for GET calls) or in an `Authorization: Bearer` header, not as a form field.
 */
import { z } from 'zod';
import { API_BASE } from '../constants';
import type { L10n } from '../i18n';
import { listQuery, optionalText, withMessage } from './common';

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

/** The 12 meridians, in the order the device reads them: hand LU PC HT SI TE LI, foot SP LR KI BL GB ST. */
export const MERIDIANS = ['LU', 'PC', 'HT', 'SI', 'TE', 'LI', 'SP', 'LR', 'KI', 'BL', 'GB', 'ST'] as const;
export type Meridian = (typeof MERIDIANS)[number];
export const YIN_MERIDIANS: readonly Meridian[] = ['LU', 'PC', 'HT', 'SP', 'LR', 'KI'];
export const HAND_MERIDIANS: readonly Meridian[] = ['LU', 'PC', 'HT', 'SI', 'TE', 'LI'];
/** The source (yuan) point of each meridian: the measurement points (left and right are sides of one reading). */
export const SOURCE_POINTS: Record<Meridian, string> = {
  LU: 'LU9', PC: 'PC7', HT: 'HT7', SI: 'SI4', TE: 'TE4', LI: 'LI4', SP: 'SP3', LR: 'LR3', KI: 'KI3', BL: 'BL64', GB: 'GB40', ST: 'ST42',
};
/** An acupoint's channel: the 12 meridians, the conception (CV) and governing (GV) vessels, or extra points (EX). */
export const ACUPOINT_MERIDIANS = [...MERIDIANS, 'CV', 'GV', 'EX'] as const;
export type AcupointMeridian = (typeof ACUPOINT_MERIDIANS)[number];

export const PATTERN_STATUSES = ['excess', 'deficient', 'imbalanced'] as const;
export type PatternStatus = (typeof PATTERN_STATUSES)[number];

export const WAVEFORMS = ['continuous', 'intermittent', 'dense-sparse', 'sawtooth'] as const;
export type Waveform = (typeof WAVEFORMS)[number];

export const SCHEMATIC_KINDS = ['measurement_map', 'treatment_placement', 'meridian_chart'] as const;
export type SchematicKind = (typeof SCHEMATIC_KINDS)[number];

/** 1 enabled, 0 disabled. */
export const MASTER_STATUSES = [0, 1] as const;
export type MasterStatus = 0 | 1;

const INT_MAX = 2_147_483_647;
/** A row id: positive and within PostgreSQL integer range (query strings are coerced). */
export const masterId = z.coerce.number().int().positive().max(INT_MAX);
export const masterIdQuery = z.object({ id: masterId });
export const masterIdBody = z.object({ id: masterId });
export type MasterIdBody = z.infer<typeof masterIdBody>;

const text = (max: number) => z.string().trim().max(max);
/** A name in the four languages: zh and en required, es and ja optional (empty = falls back to en). */
export const l10nRequired = (max = 100) =>
  z.object({ zh: text(max).min(1), en: text(max).min(1), es: text(max).default(''), ja: text(max).default('') });
/** A longer text in the four languages, every one optional. */
export const l10nOptional = (max = 2000) =>
  z.object({ zh: text(max).default(''), en: text(max).default(''), es: text(max).default(''), ja: text(max).default('') }).prefault({});

const sortOrder = z.number().int().min(0).max(99_999).default(0);
const status = z.union([z.literal(0), z.literal(1)]).default(1);
/** Query-string flag: 1/true or 0/false. */
const queryFlag = z.enum(['0', '1', 'true', 'false']).optional().transform((v) => (v === undefined ? undefined : v === '1' || v === 'true'));
const queryStatus = z.enum(['0', '1']).optional().transform((v) => (v === undefined ? undefined : (Number(v) as MasterStatus)));
const idList = (max: number) => z.array(z.number().int().positive().max(INT_MAX)).max(max).default([]).transform((ids) => [...new Set(ids)]);

const UPLOAD_NAME = '(?:[0-9a-f]{32}|builtin-[a-z0-9-]{1,40})';
/** URL of an uploaded image (png, jpg, gif or webp), as answered by /base/upload_img. */
export const UPLOADED_IMAGE_RE = new RegExp(`^${API_BASE}/uploads/${UPLOAD_NAME}\\.(?:png|jpg|gif|webp)$`);
export const uploadedImageUrl = z.string().trim().regex(UPLOADED_IMAGE_RE);

// ---------------------------------------------------------------------------------------------
// Disease categories and diseases
// ---------------------------------------------------------------------------------------------

export const meridianCondition = z.object({ meridian: z.enum(MERIDIANS), status: z.enum(PATTERN_STATUSES) });
export type MeridianCondition = z.infer<typeof meridianCondition>;

export const diseaseCategoryBody = z.object({ name: l10nRequired(), sort: sortOrder });
export const diseaseCategoryEditBody = diseaseCategoryBody.extend({ id: masterId });
export type DiseaseCategoryBody = z.infer<typeof diseaseCategoryBody>;
export type DiseaseCategoryEditBody = z.infer<typeof diseaseCategoryEditBody>;
export const DISEASE_CATEGORY_SORTS = ['sort', 'id', 'created_at'] as const;
export const diseaseCategoryListQuery = listQuery({ keyword: optionalText(64) }, DISEASE_CATEGORY_SORTS);
export type DiseaseCategoryListQuery = z.infer<typeof diseaseCategoryListQuery>;

/** The meridian conditions that flag a disease: at least one; each once; a meridian not both excess and deficient. */
export const meridianPattern = z.array(meridianCondition).min(1).max(24).superRefine((list, ctx) => {
  const seen = new Set<string>();
  list.forEach((c, i) => {
    const opposite = c.status === 'excess' ? 'deficient' : c.status === 'deficient' ? 'excess' : null;
    if (seen.has(`${c.meridian}:${c.status}`)) ctx.addIssue({ code: 'custom', path: [i], input: c, ...withMessage('patternDuplicate', { meridian: c.meridian, status: c.status }) });
    else if (opposite && seen.has(`${c.meridian}:${opposite}`)) ctx.addIssue({ code: 'custom', path: [i], input: c, ...withMessage('patternConflict', { meridian: c.meridian }) });
    seen.add(`${c.meridian}:${c.status}`);
  });
});

/** A disease of a category, with its related systems and acupoints (ids, in order) and its meridian pattern. */
export const diseaseBody = z.object({
  category_id: masterId,
  name: l10nRequired(),
  description: l10nOptional(),
  advice: l10nOptional(),
  system_ids: idList(50),
  acupoint_ids: idList(50),
  pattern: meridianPattern,
  sort: sortOrder,
  status,
});
export const diseaseEditBody = diseaseBody.extend({ id: masterId });
export type DiseaseBody = z.infer<typeof diseaseBody>;
export type DiseaseEditBody = z.infer<typeof diseaseEditBody>;
export const DISEASE_SORTS = ['sort', 'id', 'created_at'] as const;
export const diseaseListQuery = listQuery(
  {
    keyword: optionalText(64),
    category_id: masterId.optional(),
    status: queryStatus,
    meridian: z.enum(MERIDIANS).optional(),
    system_id: masterId.optional(),
    acupoint_id: masterId.optional(),
  },
  DISEASE_SORTS,
);
export type DiseaseListQuery = z.infer<typeof diseaseListQuery>;

export interface DiseaseCategoryRow {
  id: number;
  name: L10n;
  sort: number;
  disease_count: number;
  created_at: string;
}

export interface DiseaseRow {
  id: number;
  category_id: number;
  category_name: L10n;
  name: L10n;
  description: L10n;
  advice: L10n;
  system_ids: number[];
  acupoint_ids: number[];
  pattern: MeridianCondition[];
  sort: number;
  status: MasterStatus;
  created_at: string;
}

export interface DiseaseDetail extends DiseaseRow {
  systems: { id: number; name: L10n; parent_id: number | null }[];
  acupoints: { id: number; code: string; name: L10n }[];
}

export interface DiseaseTreeNode {
  id: number;
  name: L10n;
  sort: number;
  children: { id: number; name: L10n; sort: number; status: MasterStatus }[];
}

// ---------------------------------------------------------------------------------------------
// System categories
// ---------------------------------------------------------------------------------------------

/** Meridian weights of a system: meridian -> positive weight (score = round(100 x sum(w x d) / sum(w))). */
export const meridianWeights = z.partialRecord(z.enum(MERIDIANS), z.number().positive().max(100)).default({});
export type MeridianWeights = Partial<Record<Meridian, number>>;

export const systemBody = z.object({
  /** Null or absent: a body system; otherwise the body system this subsystem belongs to. */
  parent_id: masterId.nullable().default(null),
  name: l10nRequired(),
  weights: meridianWeights,
  sort: sortOrder,
});
export const systemEditBody = systemBody.extend({ id: masterId });
export type SystemBody = z.infer<typeof systemBody>;
export type SystemEditBody = z.infer<typeof systemEditBody>;
export const SYSTEM_SORTS = ['sort', 'id', 'created_at'] as const;
export const systemListQuery = listQuery(
  {
    keyword: optionalText(64),
    parent_id: masterId.optional(),
    /** 1 body systems, 2 subsystems. */
    level: z.enum(['1', '2']).optional().transform((v) => (v ? (Number(v) as 1 | 2) : undefined)),
  },
  SYSTEM_SORTS,
);
export type SystemListQuery = z.infer<typeof systemListQuery>;

export interface SystemRow {
  id: number;
  parent_id: number | null;
  parent_name: L10n | null;
  level: 1 | 2;
  name: L10n;
  weights: MeridianWeights;
  sort: number;
  child_count: number;
  created_at: string;
}

export interface SystemTreeNode {
  id: number;
  name: L10n;
  weights: MeridianWeights;
  sort: number;
  children: { id: number; parent_id: number; name: L10n; weights: MeridianWeights; sort: number }[];
}

// ---------------------------------------------------------------------------------------------
// Acupoints and their treatment actions
// ---------------------------------------------------------------------------------------------

/** Acupoint code: stored upper case, e.g. LU9, GV20, EX-HN3. */
export const acupointCode = z.string().trim().toUpperCase().regex(/^[A-Z][A-Z0-9-]{1,15}$/);

export const acupointBody = z.object({
  code: acupointCode,
  name: l10nRequired(),
  meridian: z.enum(ACUPOINT_MERIDIANS),
  location: l10nOptional(),
  indications: l10nOptional(),
  is_measurement_point: z.boolean().default(false),
  is_treatment_point: z.boolean().default(true),
  /** '' or an uploaded image URL. */
  image: z.union([z.literal(''), uploadedImageUrl]).default(''),
  sort: sortOrder,
  status,
});
export const acupointEditBody = acupointBody.extend({ id: masterId });
export type AcupointBody = z.infer<typeof acupointBody>;
export type AcupointEditBody = z.infer<typeof acupointEditBody>;
export const ACUPOINT_SORTS = ['sort', 'code', 'meridian', 'id', 'created_at'] as const;
export const acupointListQuery = listQuery(
  {
    keyword: optionalText(64),
    meridian: z.enum(ACUPOINT_MERIDIANS).optional(),
    is_measurement_point: queryFlag,
    is_treatment_point: queryFlag,
    status: queryStatus,
  },
  ACUPOINT_SORTS,
);
export type AcupointListQuery = z.infer<typeof acupointListQuery>;

export interface AcupointRow {
  id: number;
  code: string;
  name: L10n;
  meridian: AcupointMeridian;
  location: L10n;
  indications: L10n;
  is_measurement_point: boolean;
  is_treatment_point: boolean;
  image: string;
  sort: number;
  status: MasterStatus;
  action_count: number;
  created_at: string;
}

export interface AcupointDetail extends AcupointRow {
  actions: TreatmentAction[];
  /** Where it is referenced: schematic diagrams and diseases (ids and names). */
  schematics: { id: number; title: L10n }[];
  diseases: { id: number; name: L10n }[];
}

/** For pickers in other pages (diseases, schematics): every acupoint, short. */
export interface AcupointOption {
  id: number;
  code: string;
  name: L10n;
  meridian: AcupointMeridian;
  status: MasterStatus;
}

/** One treatment action: intensity 0-100 with min <= max, 1-60 minutes. */
export const treatmentAction = z.object({
  waveform: z.enum(WAVEFORMS),
  frequency_hz: z.number().min(0.1).max(1000),
  intensity_min: z.number().int().min(0).max(100),
  intensity_max: z.number().int().min(0).max(100),
  minutes: z.number().int().min(1).max(60),
}).refine((a) => a.intensity_min <= a.intensity_max, { path: ['intensity_max'], ...withMessage('intensityRange') });
export type TreatmentAction = z.infer<typeof treatmentAction>;
export const saveActionsBody = z.object({ id: masterId, actions: z.array(treatmentAction).max(20) });
export type SaveActionsBody = z.infer<typeof saveActionsBody>;

export interface AcupointActions {
  acupoint: { id: number; code: string; name: L10n; is_treatment_point: boolean };
  list: TreatmentAction[];
}

// ---------------------------------------------------------------------------------------------
// Schematic diagrams
// ---------------------------------------------------------------------------------------------

/** A marker: an acupoint at (x, y), fractions 0..1 of the image width and height (top-left origin). */
export const schematicMarker = z.object({
  acupoint_id: z.number().int().positive().max(INT_MAX),
  x: z.number().min(0).max(1),
  y: z.number().min(0).max(1),
});
export type SchematicMarker = z.infer<typeof schematicMarker>;
const markerList = z.array(schematicMarker).max(300);

export const schematicBody = z.object({
  title: l10nRequired(),
  kind: z.enum(SCHEMATIC_KINDS),
  image: uploadedImageUrl,
  /** Natural size of the image in pixels (the upload answer gives it). */
  width: z.number().int().min(1).max(20_000),
  height: z.number().int().min(1).max(20_000),
  sort: sortOrder,
  /** Add: the markers (default none). Edit: absent keeps the markers, present replaces them. */
  markers: markerList.optional(),
});
export const schematicEditBody = schematicBody.extend({ id: masterId });
export type SchematicBody = z.infer<typeof schematicBody>;
export type SchematicEditBody = z.infer<typeof schematicEditBody>;
export const saveMarkersBody = z.object({ id: masterId, markers: markerList });
export type SaveMarkersBody = z.infer<typeof saveMarkersBody>;
export const SCHEMATIC_SORTS = ['sort', 'kind', 'id', 'created_at'] as const;
export const schematicListQuery = listQuery(
  { keyword: optionalText(64), kind: z.enum(SCHEMATIC_KINDS).optional(), acupoint_id: masterId.optional() },
  SCHEMATIC_SORTS,
);
export type SchematicListQuery = z.infer<typeof schematicListQuery>;

export interface SchematicRow {
  id: number;
  title: L10n;
  kind: SchematicKind;
  image: string;
  width: number;
  height: number;
  sort: number;
  marker_count: number;
  created_at: string;
}

export interface SchematicDetail extends SchematicRow {
  markers: (SchematicMarker & { code: string; name: L10n })[];
}

// ---------------------------------------------------------------------------------------------
// Uploads
// ---------------------------------------------------------------------------------------------

export const UPLOAD_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const UPLOAD_FILE_MAX_BYTES = 20 * 1024 * 1024;
export const UPLOAD_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const UPLOAD_FILE_TYPES = [
  ...UPLOAD_IMAGE_TYPES,
  'application/pdf',
  'application/zip',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/csv',
  'text/plain',
] as const;
export type UploadType = (typeof UPLOAD_FILE_TYPES)[number];

export interface UploadAnswer {
  /** Where to read it back: `${API_BASE}/uploads/<name>`; store this URL in records. */
  url: string;
  /** The stored name: random, 128 bits, with the extension of the detected type. */
  name: string;
  /** The client's file name, cleaned, for display only. */
  original_name: string;
  size: number;
  /** Detected from the content (magic bytes), never from the client's name or header. */
  type: UploadType;
  width?: number;
  height?: number;
}

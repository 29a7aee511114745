/**
 * Acupoints (grade 0, the AcupointManage page, acupoint:* buttons) and their treatment actions (the
 * hidden AcupointAction page, button acupoint:action). The endpoint table is `acupointsApi` at the end
 * of this file.
 */
import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idAnswer, idInput, idSchema, noInput, nullAnswer, post } from '../endpoint';
import type { L10n } from '../i18n';
import { listQuery, optionalText, withMessage } from './common';
import { ACUPOINT_MERIDIANS, l10nOptional, l10nRequired, masterSort, masterStatus, queryFlag, queryStatus, uploadedImageUrl, WAVEFORMS, type AcupointMeridian, type MasterStatus } from './meridians';

/** Acupoint code: a letter, then 1-15 letters, digits or dashes (LU9, GV20, EX-HN3), stored upper case. */
export const ACUPOINT_CODE_RE = /^[A-Z][A-Z0-9-]{1,15}$/;
export const ACUPOINT_CODE_MAX = 16;
export const acupointCode = z.string().trim().toUpperCase().regex(ACUPOINT_CODE_RE);

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
  sort: masterSort,
  status: masterStatus,
});
export const acupointEditBody = acupointBody.extend({ id: idSchema });
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

/** Bounds of a treatment action, and the most actions an acupoint has. */
export const TREATMENT_LIMITS = {
  frequency: { min: 0.1, max: 1000 },
  intensity: { min: 0, max: 100 },
  minutes: { min: 1, max: 60 },
  maxActions: 20,
} as const;
const { frequency, intensity, minutes } = TREATMENT_LIMITS;

/** One treatment action: intensity 0-100 with min <= max, 1-60 minutes. */
export const treatmentAction = z
  .object({
    waveform: z.enum(WAVEFORMS),
    frequency_hz: z.number().min(frequency.min).max(frequency.max),
    intensity_min: z.number().int().min(intensity.min).max(intensity.max),
    intensity_max: z.number().int().min(intensity.min).max(intensity.max),
    minutes: z.number().int().min(minutes.min).max(minutes.max),
  })
  .refine((a) => a.intensity_min <= a.intensity_max, { path: ['intensity_max'], ...withMessage('intensityRange') });
export type TreatmentAction = z.infer<typeof treatmentAction>;
export const saveActionsBody = z.object({ id: idSchema, actions: z.array(treatmentAction).max(TREATMENT_LIMITS.maxActions) });
export type SaveActionsBody = z.infer<typeof saveActionsBody>;

export interface AcupointActions {
  acupoint: { id: number; code: string; name: L10n; is_treatment_point: boolean };
  list: TreatmentAction[];
}

const page = { page: 'AcupointManage' } as const;

export const acupointsApi = defineEndpoints('acupoints', {
  /** Filtered (keyword, meridian, flags, status), sorted and paged. */
  list: get('/acupoint/list', page, acupointListQuery, answer<ListResult<AcupointRow>>()),
  /** Every acupoint, short, for the pickers of the pages that show one (disease acupoints, schematic markers). */
  options: get('/acupoint/options', { page: ['DiseaseManage', 'SchematicManage'] }, noInput, answer<AcupointOption[]>()),
  /** With its treatment actions and where it is referenced. */
  detail: get('/acupoint/detail', page, idInput, answer<AcupointDetail>()),
  /** A taken code answers a message on `code`. */
  add: post('/acupoint/add', { button: 'acupoint:add' }, acupointBody, idAnswer, { audit: 'acupoint' }),
  edit: post('/acupoint/edit', { button: 'acupoint:edit' }, acupointEditBody, nullAnswer, { audit: 'acupoint' }),
  /** Refused while a schematic diagram shows it or a disease names it; its treatment actions go with it. */
  remove: post('/acupoint/del', { button: 'acupoint:delete' }, idInput, nullAnswer, { audit: 'acupoint' }),
  /** The acupoint (code, name) and its treatment actions in order. */
  actions: get('/acupoint/actions', { page: 'AcupointAction' }, idInput, answer<AcupointActions>()),
  /** Replaces the acupoint's treatment actions with the given list, in its order. */
  saveActions: post('/acupoint/save_actions', { button: 'acupoint:action' }, saveActionsBody, nullAnswer, { audit: 'acupoint' }),
});

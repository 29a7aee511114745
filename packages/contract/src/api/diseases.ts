/**
 * Disease categories and diseases (grade 0, the DiseaseManage page, disease:* buttons). Categories use
 * the `category_*` calls, diseases the plain ones; the tree call answers both levels. A disease names
 * its related systems and acupoints (ids, in order) and the meridian pattern that flags it.
 * The endpoint table is `diseasesApi` at the end of this file.
 */
import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idAnswer, idInput, idList, idSchema, noInput, nullAnswer, optionalId, post } from '../endpoint';
import type { L10n } from '../i18n';
import { listQuery, optionalText, withMessage } from './common';
import { l10nOptional, l10nRequired, masterSort, masterStatus, MERIDIANS, PATTERN_STATUSES, queryStatus, type MasterStatus } from './meridians';

/** The most meridian conditions of a pattern, and of related systems / acupoints of a disease. */
export const DISEASE_LIMITS = { maxConditions: 24, maxRelated: 50 } as const;

export const meridianCondition = z.object({ meridian: z.enum(MERIDIANS), status: z.enum(PATTERN_STATUSES) });
export type MeridianCondition = z.infer<typeof meridianCondition>;

export const diseaseCategoryBody = z.object({ name: l10nRequired(), sort: masterSort });
export const diseaseCategoryEditBody = diseaseCategoryBody.extend({ id: idSchema });
export type DiseaseCategoryBody = z.infer<typeof diseaseCategoryBody>;
export type DiseaseCategoryEditBody = z.infer<typeof diseaseCategoryEditBody>;
export const DISEASE_CATEGORY_SORTS = ['sort', 'id', 'created_at'] as const;
export const diseaseCategoryListQuery = listQuery({ keyword: optionalText(64) }, DISEASE_CATEGORY_SORTS);
export type DiseaseCategoryListQuery = z.infer<typeof diseaseCategoryListQuery>;

/** The meridian conditions that flag a disease: at least one; each once; a meridian not both excess and deficient. */
export const meridianPattern = z
  .array(meridianCondition)
  .min(1)
  .max(DISEASE_LIMITS.maxConditions)
  .superRefine((list, ctx) => {
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
  category_id: idSchema,
  name: l10nRequired(),
  description: l10nOptional(),
  advice: l10nOptional(),
  system_ids: idList(DISEASE_LIMITS.maxRelated).default([]),
  acupoint_ids: idList(DISEASE_LIMITS.maxRelated).default([]),
  pattern: meridianPattern,
  sort: masterSort,
  status: masterStatus,
});
export const diseaseEditBody = diseaseBody.extend({ id: idSchema });
export type DiseaseBody = z.infer<typeof diseaseBody>;
export type DiseaseEditBody = z.infer<typeof diseaseEditBody>;
export const DISEASE_SORTS = ['sort', 'id', 'created_at'] as const;
export const diseaseListQuery = listQuery(
  {
    keyword: optionalText(64),
    category_id: optionalId,
    status: queryStatus,
    meridian: z.enum(MERIDIANS).optional(),
    system_id: optionalId,
    acupoint_id: optionalId,
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

const page = { page: 'DiseaseManage' } as const;

export const diseasesApi = defineEndpoints('diseases', {
  /** Categories with their diseases, in the editor's order (the page's left panel). */
  tree: get('/disease/tree', page, noInput, answer<DiseaseTreeNode[]>()),
  categoryList: get('/disease/category_list', page, diseaseCategoryListQuery, answer<ListResult<DiseaseCategoryRow>>()),
  categoryDetail: get('/disease/category_detail', page, idInput, answer<DiseaseCategoryRow>()),
  categoryAdd: post('/disease/category_add', { button: 'disease:add' }, diseaseCategoryBody, idAnswer, { audit: 'disease_category' }),
  categoryEdit: post('/disease/category_edit', { button: 'disease:edit' }, diseaseCategoryEditBody, nullAnswer, { audit: 'disease_category' }),
  /** Refused while the category still has diseases. */
  categoryRemove: post('/disease/category_del', { button: 'disease:delete' }, idInput, nullAnswer, { audit: 'disease_category' }),
  /** Diseases filtered by category_id, keyword, status, meridian, system_id, acupoint_id; sorted and paged. */
  list: get('/disease/list', page, diseaseListQuery, answer<ListResult<DiseaseRow>>()),
  detail: get('/disease/detail', page, idInput, answer<DiseaseDetail>()),
  add: post('/disease/add', { button: 'disease:add' }, diseaseBody, idAnswer, { audit: 'disease' }),
  edit: post('/disease/edit', { button: 'disease:edit' }, diseaseEditBody, nullAnswer, { audit: 'disease' }),
  /** Its system and acupoint links go with it. */
  remove: post('/disease/del', { button: 'disease:delete' }, idInput, nullAnswer, { audit: 'disease' }),
});

/**
 * System categories (grade 0, the SystemManage page, system:* buttons): one table with two levels,
 * `parent_id` null = body system, otherwise a subsystem/organ of that body system. Each carries
 * meridian weights for system scores. The endpoint table is `systemsApi` at the end of this file.
 */
import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idAnswer, idInput, idSchema, noInput, nullableId, nullAnswer, optionalId, post } from '../endpoint';
import type { L10n } from '../i18n';
import { listQuery, optionalText } from './common';
import { l10nRequired, masterSort, MERIDIANS, type Meridian } from './meridians';

/** The largest meridian weight of a system. */
export const MERIDIAN_WEIGHT_MAX = 100;
/** Meridian weights of a system: meridian -> positive weight (score = round(100 x sum(w x d) / sum(w))). */
export const meridianWeights = z.partialRecord(z.enum(MERIDIANS), z.number().positive().max(MERIDIAN_WEIGHT_MAX)).default({});
export type MeridianWeights = Partial<Record<Meridian, number>>;

export const systemBody = z.object({
  /** Null or absent: a body system; otherwise the body system this subsystem belongs to. */
  parent_id: nullableId.default(null),
  name: l10nRequired(),
  weights: meridianWeights,
  sort: masterSort,
});
export const systemEditBody = systemBody.extend({ id: idSchema });
export type SystemBody = z.infer<typeof systemBody>;
export type SystemEditBody = z.infer<typeof systemEditBody>;
export const SYSTEM_SORTS = ['sort', 'id', 'created_at'] as const;
export const systemListQuery = listQuery(
  {
    keyword: optionalText(64),
    parent_id: optionalId,
    /** 1 body systems, 2 subsystems. */
    level: z
      .enum(['1', '2'])
      .optional()
      .transform((v) => (v ? (Number(v) as 1 | 2) : undefined)),
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

const page = { page: 'SystemManage' } as const;

export const systemsApi = defineEndpoints('systems', {
  /** Every body system with its subsystems, in the editor's order. */
  tree: get('/system/tree', page, noInput, answer<SystemTreeNode[]>()),
  /** The same tree for the pickers of the pages that show one (related systems of a disease). */
  options: get('/system/options', { page: ['DiseaseManage'] }, noInput, answer<SystemTreeNode[]>()),
  /** Filtered (keyword, level, parent_id), sorted and paged. */
  list: get('/system/list', page, systemListQuery, answer<ListResult<SystemRow>>()),
  detail: get('/system/detail', page, idInput, answer<SystemRow>()),
  /** Two levels only: the parent must be an existing body system. */
  add: post('/system/add', { button: 'system:add' }, systemBody, idAnswer, { audit: 'system' }),
  /** A body system with subsystems stays a body system. */
  edit: post('/system/edit', { button: 'system:edit' }, systemEditBody, nullAnswer, { audit: 'system' }),
  /** Refused while the system has subsystems or a disease names it. */
  remove: post('/system/del', { button: 'system:delete' }, idInput, nullAnswer, { audit: 'system' }),
});

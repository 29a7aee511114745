import { z } from 'zod';
import { answer, defineEndpoints, get, idAnswer, idInput, idSchema, nullAnswer, post } from '../endpoint';
import { withMessage } from './common';

/*
 * Lists people can shape (issue 36): per account (an admin or an institution) and per list, the columns
 * shown and their order, and saved views (a named set of filters with a sort). Kept on the server, so they
 * follow the person to another browser. A list is named by its list endpoint (`equipment.list`); its
 * columns are the keys below, and a saved view's filters and sort are checked by the server against that
 * endpoint's own query schema (a view the list itself would refuse is refused: 400, nothing stored).
 */

/**
 * The configurable columns of every list, by its list endpoint, in the order the page shows them. A column
 * of the page that is not here (the row actions, a column added later) is always shown, after these.
 */
export const LIST_COLUMNS = {
  'equipment.list': ['serial', 'name', 'model', 'institution', 'status', 'remaining_uses', 'total_inspections', 'activated_at', 'expires_at', 'last_seen_at'],
  'packages.list': ['name', 'kind', 'quantity', 'price', 'commission', 'status', 'sort'],
  'users.list': ['name', 'gender', 'age', 'contact', 'body', 'institution', 'inspection_count', 'last_inspection_at'],
  'diseases.list': ['name', 'category', 'pattern', 'related', 'status', 'sort'],
  'doctors.list': ['name', 'gender', 'phone', 'title', 'institution', 'status', 'inspection_count', 'created_at'],
  'institutions.list': ['name', 'grade', 'username', 'contact', 'region', 'term_expires_at', 'status', 'child_count', 'created_at'],
  'finance.payoutList': ['created_at', 'institution', 'amount', 'account', 'status', 'note', 'decided'],
  'finance.payments': ['paid_at', 'order_no', 'device', 'institution', 'package', 'amount', 'channel', 'commission', 'platform', 'status'],
  'finance.list': ['created_at', 'institution', 'kind', 'amount', 'balance', 'ref'],
  'audit.list': ['created_at', 'actor', 'endpoint', 'record', 'changed', 'outcome', 'ip'],
  'jurisdiction.roleList': ['name', 'description', 'status', 'user_count', 'created_at'],
  'jurisdiction.adminList': ['username', 'name', 'phone', 'role', 'status', 'last_login_at', 'created_at'],
  'systems.list': ['name', 'level', 'parent', 'weights', 'child_count', 'sort'],
  'inspections.list': ['number', 'person', 'doctor', 'device', 'institution', 'measured_at', 'headline'],
  'acupoints.list': ['image', 'code', 'name', 'meridian', 'flags', 'action_count', 'status', 'sort'],
  'branches.list': ['name', 'applicant', 'username', 'contact', 'region', 'state', 'created_at', 'reviewed_at'],
  'codes.records': ['created_at', 'code', 'batch', 'scope', 'target', 'grant', 'term', 'uses', 'operator'],
  'codes.batches': ['batch_no', 'scope', 'grant', 'count', 'states', 'owner', 'valid_until', 'remark', 'created_at'],
  'codes.list': ['code', 'batch_no', 'scope', 'grant', 'status', 'owner', 'valid_until', 'used_by', 'used_at', 'created_at'],
  'distribution.list': ['created_at', 'from', 'to', 'devices', 'operator', 'remark'],
  'schematics.list': ['image', 'title', 'kind', 'marker_count', 'size', 'sort'],
} as const satisfies Record<string, readonly string[]>;

export type ListName = keyof typeof LIST_COLUMNS;
export const LIST_NAMES = Object.keys(LIST_COLUMNS) as [ListName, ...ListName[]];
export const isListName = (v: string): v is ListName => Object.hasOwn(LIST_COLUMNS, v);

export const PREFERENCE_LIMITS = {
  /** Saved views per account and list. */
  viewsPerList: 20,
  viewNameLength: 40,
  /** Filters in one view, and the length of each filter's value (as the address carries it). */
  filtersPerView: 20,
  filterValueLength: 200,
  filterNameLength: 40,
} as const;

const listField = z.string().max(64).refine(isListName, withMessage('listUnknown'));
const FILTER_NAME = /^[a-z][a-z0-9_]*$/;

/** One column's setting, in the order the list shows them. */
export const columnSetting = z.object({ key: z.string().max(40), visible: z.boolean() });
export type ColumnSetting = z.infer<typeof columnSetting>;

/**
 * The columns of a list: every key once, known to the list, at least one visible. `null` goes back to the
 * page's own columns. A key the list does not have is refused (400, nothing stored).
 */
export const saveColumnsBody = z.object({ list: listField, columns: z.array(columnSetting).max(40).nullable() }).superRefine((v, ctx) => {
  if (!v.columns || !isListName(v.list)) return;
  const known = new Set<string>(LIST_COLUMNS[v.list]);
  const seen = new Set<string>();
  v.columns.forEach((c, i) => {
    if (!known.has(c.key)) ctx.addIssue({ code: 'custom', path: ['columns', i, 'key'], ...withMessage('listColumnUnknown', { key: c.key.slice(0, 40) }) });
    else if (seen.has(c.key)) ctx.addIssue({ code: 'custom', path: ['columns', i, 'key'], ...withMessage('listColumnTwice', { key: c.key }) });
    seen.add(c.key);
  });
  if (v.columns.length && !v.columns.some((c) => c.visible)) ctx.addIssue({ code: 'custom', path: ['columns'], ...withMessage('listColumnsNoneVisible') });
});
export type SaveColumnsBody = z.infer<typeof saveColumnsBody>;

const viewName = z.string().trim().min(1).max(PREFERENCE_LIMITS.viewNameLength);
/** A view's filters as the list's address carries them: name -> text. The list's own query schema checks them on the server. */
export const viewFilters = z
  .record(z.string().max(PREFERENCE_LIMITS.filterNameLength).regex(FILTER_NAME), z.string().max(PREFERENCE_LIMITS.filterValueLength))
  .refine((v) => Object.keys(v).length <= PREFERENCE_LIMITS.filtersPerView, withMessage('listViewTooManyFilters', { max: PREFERENCE_LIMITS.filtersPerView }));
const viewSort = z.string().max(64).regex(FILTER_NAME).nullable().optional();
const viewOrder = z.enum(['ascend', 'descend']).nullable().optional();

export const addViewBody = z.object({
  list: listField,
  name: viewName,
  filters: viewFilters,
  sort: viewSort,
  order: viewOrder,
  /** Opened when the list is opened without filters of its own (one default per list: setting it clears the other). */
  is_default: z.boolean().optional().default(false),
});
export type AddViewBody = z.infer<typeof addViewBody>;
/** Rename, make (or stop being) the default; with `filters`, the view takes those filters and sort. */
export const editViewBody = z.object({
  id: idSchema,
  name: viewName.optional(),
  is_default: z.boolean().optional(),
  filters: viewFilters.optional(),
  sort: viewSort,
  order: viewOrder,
});
export type EditViewBody = z.infer<typeof editViewBody>;
export const preferencesQuery = z.object({ list: listField });
export type PreferencesQuery = z.infer<typeof preferencesQuery>;

export interface SavedView {
  id: number;
  name: string;
  filters: Record<string, string>;
  sort: string | null;
  order: 'ascend' | 'descend' | null;
  is_default: boolean;
  updated_at: string;
}
export interface ListPreferences {
  list: ListName;
  /** Null: the page's own columns. */
  columns: ColumnSetting[] | null;
  /** By name. */
  views: SavedView[];
}

export const preferencesApi = defineEndpoints('preferences', {
  /** The caller's own settings of one list. */
  get: get('/preference/list', { session: true }, preferencesQuery, answer<ListPreferences>()),
  /** Answers the id of the stored setting (the audit trail's record). */
  saveColumns: post('/preference/columns', { session: true }, saveColumnsBody, idAnswer, { audit: 'list_columns' }),
  addView: post('/preference/view_add', { session: true }, addViewBody, idAnswer, { audit: 'list_view' }),
  /** Another account's view is refused as not found. */
  editView: post('/preference/view_edit', { session: true }, editViewBody, nullAnswer, { audit: 'list_view' }),
  deleteView: post('/preference/view_delete', { session: true }, idInput, nullAnswer, { audit: 'list_view' }),
});

import { z } from 'zod';
import { COUNT_CAP, MAX_PAGE_SIZE } from '../constants';
import type { MessageKey } from '../messages';

/**
 * Options for a custom refinement whose message is a server message: the server renders `params.msg`
 * from MESSAGES in the caller's language (other params fill its placeholders). Clients may do the same.
 */
export const withMessage = (msg: MessageKey, params: Record<string, string | number> = {}) => ({ params: { msg, ...params } });

/**
 * Query strings carry everything as text: these coerce and bound what lists accept. A page must start
 * within the first COUNT_CAP rows, all that a list's (capped) total lets anyone page to: an offset costs
 * the rows it skips (58-134 ms at offset 999,980 of a bare million-row index against 0.5-1.5 ms within the
 * window; more with a list's joins), so deeper rows are reached by a filter or the other order, and all of
 * them by the export, which reads by keyset (docs/decisions.md, "The paging window").
 */
const pageFields = z.object({
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(1)
    .describe(`From 1. A page must start within the first ${COUNT_CAP} rows: (page - 1) * limit < ${COUNT_CAP}; a deeper page is refused (code 400).`),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
  sort: z.string().max(64).optional(),
  order: z.enum(['ascend', 'descend']).optional(),
});
const withinWindow = (q: unknown) => {
  const { page, limit } = q as { page: number; limit: number };
  return (page - 1) * limit < COUNT_CAP;
};
const beyondWindow = { path: ['page'], ...withMessage('pageBeyondWindow', { max: COUNT_CAP }) };
export const pageQuery = pageFields.refine(withinWindow, beyondWindow);
export type PageQuery = z.infer<typeof pageQuery>;

/** Builds a list query schema: paging plus the module's filters, with sort limited to its columns. */
export function listQuery<S extends z.ZodRawShape, K extends string>(filters: S, sortable: readonly [K, ...K[]]) {
  // biome-ignore lint/plugin/no-property-after-spread: schemas are built once, at start-up
  return pageFields.extend({ ...filters, sort: z.enum(sortable).optional() }).refine(withinWindow, beyondWindow);
}

/** A database id: a positive 32-bit integer. */
export const id = () => z.coerce.number().int().positive().max(2_147_483_647);
export const idParam = z.object({ id: id() });

export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => (v ? v : undefined));
export const dateTime = z.iso.datetime({ offset: true });
export const l10nSchema = z.object({ zh: z.string().trim().max(200), en: z.string().trim().max(200), es: z.string().trim().max(200), ja: z.string().trim().max(200) });

/** The file formats of every list's export. */
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * A list's export query: the list's own filters and sort (so the file holds what the list shows, in
 * its order, every page of it) and the file's format instead of the paging.
 */
export function exportQuery<S extends z.ZodRawShape & { page: z.ZodType; limit: z.ZodType }>(list: z.ZodObject<S>) {
  const { page: _page, limit: _limit, ...filters } = list.shape;
  // biome-ignore lint/plugin/no-property-after-spread: schemas are built once, at start-up
  return z.object({ ...(filters as Omit<S, 'page' | 'limit'>), format: z.enum(EXPORT_FORMATS) });
}

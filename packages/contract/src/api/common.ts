import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../constants';
import type { MessageKey } from '../messages';

/** Query strings carry everything as text: these coerce and bound what lists accept. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
  sort: z.string().max(64).optional(),
  order: z.enum(['ascend', 'descend']).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** Builds a list query schema: paging plus the module's filters, with sort limited to its columns. */
export function listQuery<S extends z.ZodRawShape, K extends string>(filters: S, sortable: readonly [K, ...K[]]) {
  return pageQuery.extend({ ...filters, sort: z.enum(sortable).optional() });
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

/**
 * Options for a custom refinement whose message is a server message: the server renders `params.msg`
 * from MESSAGES in the caller's language (other params fill its placeholders). Clients may do the same.
 */
export const withMessage = (msg: MessageKey, params: Record<string, string | number> = {}) => ({ params: { msg, ...params } });

/** The file formats of every list's export. */
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * A list's export query: the list's own filters and sort (so the file holds what the list shows, in
 * its order, every page of it) and the file's format instead of the paging.
 */
export function exportQuery<S extends z.ZodRawShape & { page: z.ZodType; limit: z.ZodType }>(list: z.ZodObject<S>) {
  const { page: _page, limit: _limit, ...filters } = list.shape;
  return z.object({ ...(filters as Omit<S, 'page' | 'limit'>), format: z.enum(EXPORT_FORMATS) });
}

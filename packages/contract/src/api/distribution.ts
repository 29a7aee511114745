import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idList, nullableId, optionalId, post } from '../endpoint';
import { exportQuery, listQuery, optionalText, withMessage } from './common';

/*
 * Distribution (grade 0): moving devices from platform stock to an institution, between institutions,
 * or back to stock (button `device:distribute` of the device list), and the records of every move
 * (`/distribution-record/index`, route DistributionRecord, grade 0). One move is one transaction: the
 * devices are locked, each one's owner must still be the `from` the operator saw, then they move and
 * one record with one line per device is written. The endpoint table is `distributionApi` at the end.
 */

export const DISTRIBUTION_LIMITS = { maxDevices: 500, remarkLength: 200 } as const;

/** `from` / `to`: an institution id, or null for platform stock. */
export const distributeBody = z
  .object({
    ids: idList(DISTRIBUTION_LIMITS.maxDevices).refine((v) => v.length > 0, withMessage('distributionNoDevices')),
    from: nullableId,
    to: nullableId,
    remark: z.string().trim().max(DISTRIBUTION_LIMITS.remarkLength).optional().default(''),
  })
  .refine((v) => v.from !== v.to, { path: ['to'], ...withMessage('distributionSameOwner') });
export type DistributeBody = z.infer<typeof distributeBody>;
export interface DistributeAnswer {
  /** The distribution record. */
  id: number;
  count: number;
  /** All or nothing: one move is one record; when any device moved meanwhile, none moves and the refusal names them by serial. */
  mode: 'all';
}

const dateOnly = z.iso.date();
export const DISTRIBUTION_SORTS = ['created_at'] as const;
export const distributionFilters = {
  /** Records moving devices from or to this institution. */
  institution_id: optionalId,
  /** Records holding a device whose serial contains this. */
  serial: optionalText(40),
  date_from: dateOnly.optional(),
  date_to: dateOnly.optional(),
};
export const distributionListQuery = listQuery(distributionFilters, DISTRIBUTION_SORTS);
export type DistributionListQuery = z.infer<typeof distributionListQuery>;
export const distributionExportQuery = exportQuery(distributionListQuery);
export type DistributionExportQuery = z.infer<typeof distributionExportQuery>;

export interface DistributionRow {
  id: number;
  /** null: platform stock. */
  from_institution_id: number | null;
  from_institution_name: string | null;
  to_institution_id: number | null;
  to_institution_name: string | null;
  device_count: number;
  /** The moved devices' serials (at most DISTRIBUTION_LIMITS.maxDevices). */
  serials: string[];
  operator_name: string;
  remark: string;
  created_at: string;
}

export const distributionApi = defineEndpoints('distribution', {
  /** Moves the selected devices (all owned by `from`) to `to`; refused, naming them, when any moved meanwhile. */
  distribute: post('/distribution/distribute', { button: 'device:distribute' }, distributeBody, answer<DistributeAnswer>(), { audit: 'distribution' }),
  list: get('/distribution/list', { page: 'DistributionRecord' }, distributionListQuery, answer<ListResult<DistributionRow>>()),
  exportRecords: get('/distribution/export', { button: 'distribution:export' }, distributionExportQuery, answer<unknown>(), { raw: true, summary: 'Distribution records as a CSV or XLSX file' }),
});

import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, optionalId } from '../endpoint';
import { listQuery, optionalText } from './common';

/*
 * Equipment (the device list, `DeviceList`, the home page): the devices of the caller's institution
 * subtree (every device for the platform), filtered, sorted and paged. An institution filter outside
 * the caller's subtree is refused. The endpoint table is `equipmentApi` at the end of this file.
 */

export const DEVICE_STATUSES = ['inactive', 'active', 'disabled'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];
export const DEVICE_SORTS = ['serial', 'name', 'status', 'activated_at', 'expires_at', 'last_seen_at', 'total_inspections', 'created_at'] as const;

const dateOnly = z.iso.date();

export const equipmentListQuery = listQuery(
  {
    keyword: optionalText(64),
    status: z.enum(DEVICE_STATUSES).optional(),
    institution_id: optionalId,
    expires_from: dateOnly.optional(),
    expires_to: dateOnly.optional(),
    expiring: z
      .enum(['1', 'true', '0', 'false'])
      .optional()
      .transform((v) => v === '1' || v === 'true'),
  },
  DEVICE_SORTS,
);
export type EquipmentListQuery = z.infer<typeof equipmentListQuery>;

export interface DeviceRow {
  id: number;
  serial: string;
  model: string;
  name: string;
  status: DeviceStatus;
  institution_id: number | null;
  institution_name: string | null;
  activated_at: string | null;
  expires_at: string | null;
  remaining_uses: number | null;
  total_inspections: number;
  last_seen_at: string | null;
  created_at: string;
  remark: string;
  expiring: boolean;
}

export const equipmentApi = defineEndpoints('equipment', {
  /** Scoped to the caller's institution subtree; `expiring` = expires within the expiring_days parameter. */
  list: get('/equipment/list', { page: 'DeviceList' }, equipmentListQuery, answer<ListResult<DeviceRow>>()),
});

import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idSchema, optionalId, post } from '../endpoint';
import { exportQuery, listQuery, optionalText, withMessage } from './common';
import { type BulkAnswer, bulkIds } from './bulk';

/*
 * Equipment (the device list, `DeviceList`, the home page): the devices of the caller's institution
 * subtree (every device for the platform), filtered, sorted and paged. An institution filter outside
 * the caller's subtree is refused. The endpoint table is `equipmentApi` at the end of this file.
 */

export const DEVICE_STATUSES = ['inactive', 'active', 'disabled'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];
export const DEVICE_SORTS = ['serial', 'name', 'status', 'activated_at', 'expires_at', 'last_seen_at', 'total_inspections', 'created_at'] as const;

const dateOnly = z.iso.date();

/** `X-Device-Version` (trust-api.md, "Device version and presence"): printable ASCII, at most 64 characters. */
export const DEVICE_VERSION_MAX = 64;
export const DEVICE_VERSION_RE = /^[\x20-\x7e]{1,64}$/;

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
    /** Seen within the `device_online_minutes` parameter (true), or not (false). */
    online: z
      .enum(['1', 'true', '0', 'false'])
      .optional()
      .transform((v) => (v === undefined ? undefined : v === '1' || v === 'true')),
    /** The version the device last reported (`X-Device-Version`), exactly. */
    reported_version: optionalText(DEVICE_VERSION_MAX),
  },
  DEVICE_SORTS,
);
export type EquipmentListQuery = z.infer<typeof equipmentListQuery>;
export const equipmentExportQuery = exportQuery(equipmentListQuery);
export type EquipmentExportQuery = z.infer<typeof equipmentExportQuery>;

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
  /** The version the device last sent in `X-Device-Version` (null: none yet). */
  reported_version: string | null;
  /** Seen within the `device_online_minutes` parameter. */
  online: boolean;
}

// ---------------------------------------------------------------------------------------------
// Lifecycle (grade 0): add one or a batch, edit, disable/enable, reset the device API secret
// ---------------------------------------------------------------------------------------------

export const DEVICE_LIMITS = { serialLength: 40, modelLength: 40, nameLength: 100, remarkLength: 500, importMaxRows: 5000, importMaxChars: 900_000 } as const;
/**
 * A serial: letters, digits, `-` and `_`, 3-40 characters, stored upper-cased. No dot: the device API's
 * bearer token is `<serial>.<secret>` and is split at the first dot.
 */
export const SERIAL_RE = /^[A-Z0-9][A-Z0-9_-]{2,39}$/;
export const normalizeSerial = (v: string) => v.trim().toUpperCase();
export const serialSchema = z
  .string()
  .max(DEVICE_LIMITS.serialLength + 20)
  .transform(normalizeSerial)
  .refine((v) => SERIAL_RE.test(v), withMessage('deviceSerialFormat'));

const deviceFields = {
  model: z.string().trim().min(1).max(DEVICE_LIMITS.modelLength),
  name: z.string().trim().min(1).max(DEVICE_LIMITS.nameLength),
  remark: z.string().trim().max(DEVICE_LIMITS.remarkLength).optional().default(''),
};
/** Fixed by device-api.md: `{ serial, model, name, remark? }`, answered `{ id, secret }` (the secret once). */
export const equipmentAddBody = z.object({ serial: serialSchema, ...deviceFields });
export type EquipmentAddBody = z.infer<typeof equipmentAddBody>;
export interface EquipmentAddAnswer {
  id: number;
  /** The device API secret: 32 random bytes, base64url. Shown this once; only its SHA-256 is stored. */
  secret: string;
}
export const equipmentEditBody = z.object({ id: idSchema, ...deviceFields });
export type EquipmentEditBody = z.infer<typeof equipmentEditBody>;
/** Disable (`enabled: false`) or enable again (back to active, or inactive when never activated). */
export const equipmentStatusBody = z.object({ id: idSchema, enabled: z.boolean() });
export type EquipmentStatusBody = z.infer<typeof equipmentStatusBody>;
/** The device list's bulk enable/disable: each device by the single action's own rule, per row (api/bulk.ts). */
export const equipmentBulkStatusBody = z.object({ ids: bulkIds, enabled: z.boolean() });
export type EquipmentBulkStatusBody = z.infer<typeof equipmentBulkStatusBody>;
/** Fixed by device-api.md: `{ id }`, answered `{ secret }` (the old secret stops working at once). */
export const equipmentResetSecretBody = z.object({ id: idSchema });
export type EquipmentResetSecretBody = z.infer<typeof equipmentResetSecretBody>;
export interface EquipmentSecretAnswer {
  secret: string;
}

/**
 * A batch from a file of serials: CSV (UTF-8) or XLSX (first sheet), base64 in `file`. Columns: serial,
 * model, name, remark (only serial is needed; an empty model takes `model`, an empty name the serial).
 * A first row whose first cell is a column title ("serial", "序列号", ...) is skipped. Up to 5,000 rows;
 * every row is checked, and when any is bad nothing is stored and the answer (code 400) lists the bad
 * rows in `datas.fields` as `row.<n>` (1-based, as a spreadsheet numbers them) with the reason.
 */
export const equipmentImportBody = z.object({
  format: z.enum(['csv', 'xlsx']),
  file: z.string().min(1).max(DEVICE_LIMITS.importMaxChars),
  model: z.string().trim().max(DEVICE_LIMITS.modelLength).optional().default(''),
  remark: z.string().trim().max(DEVICE_LIMITS.remarkLength).optional().default(''),
});
export type EquipmentImportBody = z.infer<typeof equipmentImportBody>;
/** Titles a first row may carry in the serial column (any case). */
export const SERIAL_TITLES = ['serial', 'serial no', 'serial number', 'sn', '序列号', '设备序列号', 'número de serie', 'numero de serie', 'シリアル番号'] as const;
/** The new devices' secrets, by serial: shown this once (a file to hand to whoever installs them). */
export interface EquipmentImportAnswer {
  count: number;
  devices: { id: number; serial: string; secret: string }[];
}

export const equipmentApi = defineEndpoints('equipment', {
  /** Scoped to the caller's institution subtree; `expiring` = expires within the expiring_days parameter. */
  list: get('/equipment/list', { page: 'DeviceList' }, equipmentListQuery, answer<ListResult<DeviceRow>>()),
  exportList: get('/equipment/export', { button: 'device:export' }, equipmentExportQuery, answer<unknown>(), { raw: true, summary: 'Devices as a CSV or XLSX file' }),
  /** Fixed path and shape (device-api.md). The new device is inactive, in platform stock. */
  add: post('/equipment/add', { button: 'device:add' }, equipmentAddBody, answer<EquipmentAddAnswer>(), { audit: 'device' }),
  /** A batch of devices from a CSV/XLSX of serials: all rows or none. */
  importFile: post('/equipment/import', { button: 'device:add' }, equipmentImportBody, answer<EquipmentImportAnswer>(), { audit: 'device' }),
  edit: post('/equipment/edit', { button: 'device:edit' }, equipmentEditBody, answer<null>(), { audit: 'device' }),
  setStatus: post('/equipment/status', { button: 'device:status' }, equipmentStatusBody, answer<null>(), { audit: 'device' }),
  /** Per row: each device as `setStatus` does it, refused ones named by serial with the reason. */
  bulkStatus: post('/equipment/bulk_status', { button: 'device:status' }, equipmentBulkStatusBody, answer<BulkAnswer>(), { audit: 'device' }),
  /** Fixed path and shape (device-api.md). */
  resetSecret: post('/equipment/reset_secret', { button: 'device:edit' }, equipmentResetSecretBody, answer<EquipmentSecretAnswer>(), { audit: 'device' }),
});

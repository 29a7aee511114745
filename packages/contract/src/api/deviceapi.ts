import { z } from 'zod';
import { answer, idSchema } from '../endpoint';
import { dateTime } from './common';
import { type Analysis, meridianReadings } from '../analysis';
import type { PackageKind } from './packages';
import { birthDateSchema, GENDERS, idNumberSchema, personName, phoneSchema } from './person';

/*
 * The device API (`/deviceapi/v1`, fixed by device-api.md): what devices in the field call with
 * `Authorization: Bearer <serial>.<secret>`. Not part of the admin endpoint table (no session, no
 * menu): the server's `modules/deviceapi` plugin serves it; the device simulator (`npm run device`)
 * calls it. Answers use the admin envelope `{ code, msg, datas }`.
 */

export const DEVICE_API_BASE = '/deviceapi/v1';
/** Requests one device may make per minute (fixed window); more answer HTTP 429. */
export const DEVICE_RATE_PER_MINUTE = 60;
/** Why an authenticated device is refused (HTTP 403, `datas.error.reason`). */
export const DEVICE_REFUSALS = ['inactive', 'disabled', 'expired', 'no_uses'] as const;
export type DeviceRefusal = (typeof DEVICE_REFUSALS)[number];

export interface DeviceStatusAnswer {
  serial: string;
  status: 'inactive' | 'active' | 'disabled';
  expires_at: string | null;
  remaining_uses: number | null;
  institution: { id: number; name: string } | null;
}
export interface DevicePackage {
  id: number;
  name: string;
  kind: PackageKind;
  uses: number | null;
  days: number | null;
  price_cents: number;
}
export interface DevicePackagesAnswer {
  list: DevicePackage[];
}

/** An end user: a known one by id, or details matched by phone or ID number within the institution (else created). */
export const deviceUserSchema = z.union([
  z.object({ id: idSchema }).strict(),
  z.object({
    name: personName,
    gender: z.enum(GENDERS),
    birth_date: birthDateSchema,
    phone: phoneSchema.optional(),
    id_number: idNumberSchema.optional(),
    height_cm: z.number().min(30).max(260).optional(),
    weight_kg: z.number().min(1).max(400).optional(),
  }),
]);
export type DeviceUser = z.infer<typeof deviceUserSchema>;

export const ORDER_NO_RE = /^[A-Za-z0-9_-]{4,64}$/;
export const devicePaymentBody = z.object({
  order_no: z.string().regex(ORDER_NO_RE),
  package_id: idSchema,
  amount_cents: z.number().int().min(0).max(100_000_000),
  channel: z.string().trim().min(1).max(20),
  paid_at: dateTime,
  end_user: deviceUserSchema.optional(),
});
export type DevicePaymentBody = z.infer<typeof devicePaymentBody>;
export interface DevicePaymentAnswer {
  record_id: number;
  order_no: string;
  remaining_uses: number | null;
  expires_at: string | null;
}

/** `{ LU: [left, right], ... }` for all 12 meridians, integers 0-200 (the analysis module's schema). */
export const readingsSchema = meridianReadings;
export type DeviceReadings = z.infer<typeof readingsSchema>;
/** Optional vital signs as the device measured them: a flat object of short names to numbers or short text. */
export const vitalsSchema = z.record(z.string().regex(/^[a-z][a-z0-9_]{0,31}$/), z.union([z.number().finite(), z.string().max(64)])).refine((v) => Object.keys(v).length <= 20);

export const INSPECTION_NO_RE = /^[A-Za-z0-9_-]{4,64}$/;
export const deviceInspectionBody = z.object({
  inspection_no: z.string().regex(INSPECTION_NO_RE),
  measured_at: dateTime,
  doctor_id: idSchema.nullish(),
  user: deviceUserSchema,
  vitals: vitalsSchema.nullish(),
  readings: readingsSchema,
});
export type DeviceInspectionBody = z.infer<typeof deviceInspectionBody>;
export interface DeviceInspectionAnswer {
  id: number;
  inspection_no: string;
  remaining_uses: number | null;
  /** The analysis object of device-api.md (null only for an inspection stored before analyses existed). */
  analysis: Analysis | null;
}

/**
 * The device API's routes (device-api.md): the server's plugin registers these, the OpenAPI document
 * describes them (answers by the types below, in answer-schemas.json).
 */
export const DEVICE_ROUTES = {
  status: { method: 'GET', path: '/status', input: z.object({}), answer: answer<DeviceStatusAnswer>(), summary: 'The calling device: status, term, uses left, owner' },
  packages: { method: 'GET', path: '/packages', input: z.object({}), answer: answer<DevicePackagesAnswer>(), summary: 'The packages on sale to this device' },
  payments: { method: 'POST', path: '/payments', input: devicePaymentBody, answer: answer<DevicePaymentAnswer>(), summary: 'A package paid on the device (idempotent by order_no)' },
  inspections: {
    method: 'POST',
    path: '/inspections',
    input: deviceInspectionBody,
    answer: answer<DeviceInspectionAnswer>(),
    summary: 'An inspection measured on the device, answered with its analysis (idempotent by inspection_no)',
  },
} as const;

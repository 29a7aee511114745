import { z } from 'zod';
import { listQuery, optionalText, withMessage } from './common';

/*
 * People (grade 0): doctors (`/searchers/management`, DoctorManage, doctor:*) and the users who are
 * inspected (`/user/management`, UserManage, user:* and user:detail). Lists mask phone and ID numbers;
 * full values only come from the detail calls (GET /user/detail needs the user:detail button).
 *
 * | Method | Path           | Access              | Payload          | Answer                 |
 * |--------|----------------|---------------------|------------------|------------------------|
 * | GET    | /doctor/list   | page DoctorManage   | doctorListQuery  | ListResult<DoctorRow>  |
 * | GET    | /doctor/detail | page DoctorManage   | id               | DoctorDetail           |
 * | POST   | /doctor/add    | button doctor:add   | doctorAddBody    | { id }                 |
 * | POST   | /doctor/edit   | button doctor:edit  | doctorEditBody   | null                   |
 * | POST   | /doctor/del    | button doctor:delete| { id }           | null                   |
 * | GET    | /user/list     | page UserManage     | userListQuery    | ListResult<UserRow>    |
 * | GET    | /user/detail   | button user:detail  | id               | UserDetail             |
 * | POST   | /user/add      | button user:add     | userAddBody      | { id }                 |
 * | POST   | /user/edit     | button user:edit    | userEditBody     | null                   |
 * | POST   | /user/del      | button user:delete  | { id }           | null                   |
 *
 * Deletes are soft (inspections will keep pointing at the person). inspection_count and
 * last_inspection_at are read-only here: the inspection module maintains them.
 */


const id = z.coerce.number().int().positive().max(2_147_483_647);

export const GENDERS = ['male', 'female', 'other'] as const;
export type Gender = (typeof GENDERS)[number];

/** 5-20 digits with an optional leading +, after dropping the spaces, dashes, dots and brackets people type. */
export const PHONE_RE = /^\+?\d{5,20}$/;
export const normalizePhone = (v: string) => v.trim().replace(/[\s\-().]/g, '');
const phoneText = z.string().trim().max(40).transform(normalizePhone);
export const phoneSchema = phoneText.refine((v) => PHONE_RE.test(v), withMessage('badPhone'));

/** A Chinese resident ID card number: 17 digits and a check character (digit or X). */
export const CN_ID_RE = /^\d{17}[\dX]$/;
const CN_ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CN_ID_CHECK = '10X98765432';
/** The check character of a Chinese ID number from its first 17 digits (ISO 7064 MOD 11-2). */
export function cnIdCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * CN_ID_WEIGHTS[i]!;
  return CN_ID_CHECK[sum % 11]!;
}
/** Whether an 18-character Chinese ID number has the right check character. */
export function cnIdChecksumOk(value: string): boolean {
  const v = value.toUpperCase();
  return CN_ID_RE.test(v) && cnIdCheckChar(v) === v[17];
}
/** ID card or passport number: letters, digits and dashes, up to 32; upper-cased; checksum checked when it looks like a Chinese ID. */
export const ID_NUMBER_RE = /^[A-Z0-9-]{1,32}$/;
export const idNumberSchema = z.string().trim().max(32).transform((v) => v.replace(/\s+/g, '').toUpperCase())
  .refine((v) => ID_NUMBER_RE.test(v), withMessage('badIdNumber'))
  .refine((v) => !CN_ID_RE.test(v) || cnIdChecksumOk(v), withMessage('idChecksum'));

/** The latest date that is "today" somewhere on Earth (UTC+14), so nobody born today is refused. */
export const latestToday = () => new Date(Date.now() + 14 * 3600_000).toISOString().slice(0, 10);
export const birthDateSchema = z.iso.date()
  .refine((v) => v >= '1900-01-01', withMessage('birthDateTooOld'))
  .refine((v) => v <= latestToday(), withMessage('birthDateFuture'));

/** Optional form value: '' and null clear it, an omitted key stays undefined (edit: unchanged). */
const clearable = <T extends z.ZodType>(schema: T) =>
  z.union([z.literal(''), z.null(), schema]).optional().transform((v) => (v === '' ? null : v) as z.output<T> | null | undefined);

// --------------------------------------------------------------------------------------------- doctors

export const DOCTOR_STATUSES = ['enabled', 'disabled'] as const;
export type DoctorStatus = (typeof DOCTOR_STATUSES)[number];
export const DOCTOR_SORTS = ['name', 'created_at', 'inspection_count', 'status'] as const;

export const doctorListQuery = listQuery(
  {
    /** Name (contains) or phone (contains, digits only). */
    keyword: optionalText(64),
    institution_id: id.optional(),
    status: z.enum(DOCTOR_STATUSES).optional(),
  },
  DOCTOR_SORTS,
);
export type DoctorListQuery = z.infer<typeof doctorListQuery>;

const doctorShape = {
  name: z.string().trim().min(1).max(50),
  gender: z.enum(GENDERS),
  phone: phoneSchema,
  title: z.string().trim().max(50).optional().default(''),
  institution_id: id,
  status: z.enum(DOCTOR_STATUSES).optional().default('enabled'),
};
/** GET /doctor/detail?id= and POST /doctor/del {id}. */
export const doctorIdQuery = z.object({ id });
export const doctorAddBody = z.object(doctorShape);
export type DoctorAddBody = z.infer<typeof doctorAddBody>;
/** Edit sends the whole record. */
export const doctorEditBody = z.object({ id, ...doctorShape });
export type DoctorEditBody = z.infer<typeof doctorEditBody>;

export interface DoctorRow {
  id: number;
  name: string;
  gender: Gender;
  /** Masked in lists (138****8001); full in GET /doctor/detail. */
  phone: string;
  title: string;
  institution_id: number;
  institution_name: string | null;
  status: DoctorStatus;
  inspection_count: number;
  created_at: string;
  updated_at: string;
}
export type DoctorDetail = DoctorRow;

// ----------------------------------------------------------------------------------------------- users

export const USER_SORTS = ['name', 'birth_date', 'created_at', 'inspection_count', 'last_inspection_at'] as const;

export const userListQuery = listQuery(
  {
    /** Name (contains) or the end of the phone number (digits only). */
    keyword: optionalText(64),
    institution_id: id.optional(),
    gender: z.enum(GENDERS).optional(),
  },
  USER_SORTS,
);
export type UserListQuery = z.infer<typeof userListQuery>;

/** Centimetres and kilograms with one decimal (more decimals are rounded). */
const tenths = (min: number, max: number) => z.coerce.number().min(min).max(max).transform((v) => Math.round(v * 10) / 10);
export const USER_LIMITS = { heightCm: [20, 260], weightKg: [1, 500] } as const;

const userShape = {
  name: z.string().trim().min(1).max(50),
  gender: z.enum(GENDERS),
  birth_date: clearable(birthDateSchema),
  phone: clearable(phoneSchema),
  id_number: clearable(idNumberSchema),
  height_cm: clearable(tenths(...USER_LIMITS.heightCm)),
  weight_kg: clearable(tenths(...USER_LIMITS.weightKg)),
  institution_id: id,
};
/** GET /user/detail?id= and POST /user/del {id}. */
export const userIdQuery = z.object({ id });
export const userAddBody = z.object(userShape);
export type UserAddBody = z.infer<typeof userAddBody>;
/**
 * Edit sends the whole record, except that phone and id_number may be left out to keep the stored
 * values (a role without user:detail never sees them in full); null or '' clears a value.
 */
export const userEditBody = z.object({ id, ...userShape });
export type UserEditBody = z.infer<typeof userEditBody>;

export interface UserRow {
  id: number;
  name: string;
  gender: Gender;
  birth_date: string | null;
  /** Masked in lists (138****8001, 330106********1234); full in GET /user/detail. */
  phone: string | null;
  id_number: string | null;
  height_cm: number | null;
  weight_kg: number | null;
  institution_id: number;
  institution_name: string | null;
  inspection_count: number;
  last_inspection_at: string | null;
  created_at: string;
  updated_at: string;
}
export type UserDetail = UserRow;

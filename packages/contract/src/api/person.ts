import { z } from 'zod';
import { withMessage } from './common';

/*
 * What doctors (`api/doctors.ts`) and users (`api/users.ts`) share: genders, the person's name, the
 * phone and ID-number formats (with the Chinese ID check character) and the birth date, plus how lists
 * mask personal numbers. Lists mask phone and ID numbers; full values only come from the detail calls.
 */

export const GENDERS = ['male', 'female', 'other'] as const;
export type Gender = (typeof GENDERS)[number];

/** A person's name: 1-50 characters after trimming. */
export const personName = z.string().trim().min(1).max(50);

/** 5-20 digits with an optional leading +, after dropping the spaces, dashes, dots and brackets people type. */
export const PHONE_RE = /^\+?\d{5,20}$/;
export const normalizePhone = (v: string) => v.trim().replace(/[\s\-().]/g, '');
/** What the phone field accepts before normalising (the separators people type included). */
export const PHONE_INPUT_MAX = 40;
const phoneText = z.string().trim().max(PHONE_INPUT_MAX).transform(normalizePhone);
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
export const ID_NUMBER_MAX = 32;
export const idNumberSchema = z
  .string()
  .trim()
  .max(ID_NUMBER_MAX)
  .transform((v) => v.replace(/\s+/g, '').toUpperCase())
  .refine((v) => ID_NUMBER_RE.test(v), withMessage('badIdNumber'))
  .refine((v) => !CN_ID_RE.test(v) || cnIdChecksumOk(v), withMessage('idChecksum'));

/** The latest date that is "today" somewhere on Earth (UTC+14), so nobody born today is refused. */
export const latestToday = () => new Date(Date.now() + 14 * 3600_000).toISOString().slice(0, 10);
export const EARLIEST_BIRTH_DATE = '1900-01-01';
export const birthDateSchema = z.iso
  .date()
  .refine((v) => v >= EARLIEST_BIRTH_DATE, withMessage('birthDateTooOld'))
  .refine((v) => v <= latestToday(), withMessage('birthDateFuture'));

/** Optional form value: '' and null clear it, an omitted key stays undefined (edit: unchanged). */
export const clearable = <T extends z.ZodType>(schema: T) =>
  z
    .union([z.literal(''), z.null(), schema])
    .optional()
    .transform((v) => (v === '' ? null : v) as z.output<T> | null | undefined);

/**
 * How lists mask personal numbers (the full values come only from the detail calls): the mask is at
 * least `MASK_MIN` stars; a mobile number (11+ characters) keeps its first 3 and last 4 characters
 * (138****8001), shorter ones fewer; an ID card number (15+) its first 6 and last 4 (330106********1234).
 */
export const MASK_MIN = 4;
export const PHONE_MASK_KEEP = { head: 3, tail: 4 } as const;
export const ID_NUMBER_MASK_KEEP = { head: 6, tail: 4 } as const;

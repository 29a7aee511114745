import { ID_NUMBER_MASK_KEEP, MASK_MIN, PHONE_MASK_KEEP } from '@app/contract';

/*
 * Masks for personal numbers in lists; full values only come from detail calls (the rule is the
 * contract's, `api/person.ts`). Phone 13800138001 -> 138****8001; ID 330106199001011234 -> 330106********1234.
 */

/** Keeps the first 3 and last 4 characters of 11+ (the usual mobile number), fewer of shorter numbers. */
export function maskPhone(phone: string | null | undefined): string | null {
  if (!phone) return phone ?? null;
  const n = phone.length;
  const [head, tail] = n >= 11 ? [PHONE_MASK_KEEP.head, PHONE_MASK_KEEP.tail] : n >= 7 ? [2, 2] : [0, Math.min(2, n - 3)];
  return `${phone.slice(0, head)}${'*'.repeat(MASK_MIN)}${tail > 0 ? phone.slice(n - tail) : ''}`;
}

/** Keeps the first 6 (region code) and last 4 of 15+ characters, the first and last 2 of 8+, else the last 1. */
export function maskIdNumber(value: string | null | undefined): string | null {
  if (!value) return value ?? null;
  const n = value.length;
  const [head, tail] = n >= 15 ? [ID_NUMBER_MASK_KEEP.head, ID_NUMBER_MASK_KEEP.tail] : n >= 8 ? [2, 2] : [0, n >= 4 ? 1 : 0];
  return `${value.slice(0, head)}${'*'.repeat(Math.max(MASK_MIN, n - head - tail))}${tail > 0 ? value.slice(n - tail) : ''}`;
}

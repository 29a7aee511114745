/** Pure helpers of the users page: age, BMI and the save body (phone / ID number kept unless changed). */
import type { z } from 'zod';
import type { Gender } from '@app/contract/api/person';
import type { userAddBody } from '@app/contract/api/users';

/** Whole years from a YYYY-MM-DD birth date to `today` (local); null when unknown or in the future. */
export function ageFrom(birthDate: string | null | undefined, today: Date = new Date()): number | null {
  const m = birthDate ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthDate) : null;
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  let age = today.getFullYear() - y;
  const month = today.getMonth() + 1;
  if (month < mo || (month === mo && today.getDate() < d)) age -= 1;
  return age < 0 ? null : age;
}

/** Body mass index with one decimal, when both measures are known. */
export function bmi(heightCm: number | null | undefined, weightKg: number | null | undefined): number | null {
  if (!heightCm || !weightKg) return null;
  return Math.round((weightKg / (heightCm / 100) ** 2) * 10) / 10;
}

export interface UserFormValues {
  name: string;
  gender: Gender;
  /** YYYY-MM-DD (the DatePicker's value is converted by the form). */
  birth_date?: string | null;
  phone?: string | null;
  id_number?: string | null;
  /** Edit: remove the stored value (the input is disabled then). */
  clear_phone?: boolean;
  clear_id_number?: boolean;
  height_cm?: number | null;
  weight_kg?: number | null;
  institution_id: number;
}

/** What the form sends: the contract's add body (edit adds the id). */
export type UserBody = z.input<typeof userAddBody>;

const text = (v: string | null | undefined) => (v ?? '').trim();

/**
 * The add/edit body. Add: empty phone / ID number -> null. Edit: the list only knows masked values, so
 * an empty field is left out (the server keeps the stored value), a typed one replaces it, and the
 * "remove" box sends null.
 */
export function userBody(v: UserFormValues, editing: boolean): UserBody {
  const personal = (value: string | null | undefined, clear: boolean | undefined) => {
    if (!editing) return text(value) || null;
    if (clear) return null;
    return text(value) || undefined;
  };
  const body: UserBody = {
    name: text(v.name),
    gender: v.gender,
    birth_date: v.birth_date || null,
    height_cm: v.height_cm ?? null,
    weight_kg: v.weight_kg ?? null,
    institution_id: v.institution_id,
  };
  const phone = personal(v.phone, v.clear_phone);
  const idNumber = personal(v.id_number, v.clear_id_number);
  if (phone !== undefined) body.phone = phone;
  if (idNumber !== undefined) body.id_number = idNumber;
  return body;
}

import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idAnswer, idInput, idSchema, nullAnswer, optionalId, post } from '../endpoint';
import { exportQuery, listQuery, optionalText } from './common';
import { birthDateSchema, clearable, GENDERS, idNumberSchema, personName, phoneSchema, type Gender } from './person';

/*
 * Users (`/user/management`, grade 0, UserManage, user:*): the people who are inspected (not admin
 * users). Lists mask phone and ID numbers (138****8001, 330106********1234); the full values only come
 * from GET /user/detail, which needs the user:detail button, not just the page. What users share with
 * doctors (genders, phone and ID-number formats, masks) is in `api/person.ts`.
 * The endpoint table is `usersApi` at the end of this file.
 *
 * Delete is soft (inspections will keep pointing at the user); the ID number is free again.
 * inspection_count and last_inspection_at are read-only here: the inspection module maintains them.
 */

export const USER_SORTS = ['name', 'birth_date', 'created_at', 'inspection_count', 'last_inspection_at'] as const;

export const userListQuery = listQuery(
  {
    /** Name (contains) or the end of the phone number (digits only). */
    keyword: optionalText(64),
    institution_id: optionalId,
    gender: z.enum(GENDERS).optional(),
  },
  USER_SORTS,
);
export type UserListQuery = z.infer<typeof userListQuery>;
export const userExportQuery = exportQuery(userListQuery);
export type UserExportQuery = z.infer<typeof userExportQuery>;

/** Centimetres and kilograms with one decimal (more decimals are rounded). */
const tenths = (min: number, max: number) =>
  z.coerce
    .number()
    .min(min)
    .max(max)
    .transform((v) => Math.round(v * 10) / 10);
export const USER_LIMITS = { heightCm: [20, 260], weightKg: [1, 500] } as const;

/** The fields of a user's add / edit, one schema each (forms take their limits from these). */
export const userFields = {
  name: personName,
  gender: z.enum(GENDERS),
  birth_date: clearable(birthDateSchema),
  phone: clearable(phoneSchema),
  id_number: clearable(idNumberSchema),
  height_cm: clearable(tenths(...USER_LIMITS.heightCm)),
  weight_kg: clearable(tenths(...USER_LIMITS.weightKg)),
  institution_id: idSchema,
};
export const userAddBody = z.object(userFields);
export type UserAddBody = z.infer<typeof userAddBody>;
/**
 * Edit sends the whole record, except that phone and id_number may be left out to keep the stored
 * values (a role without user:detail never sees them in full); null or '' clears a value.
 */
export const userEditBody = z.object({ id: idSchema, ...userFields });
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

export const usersApi = defineEndpoints('users', {
  /** Phone and ID numbers masked; newest first unless a sort is asked for. */
  list: get('/user/list', { page: 'UserManage' }, userListQuery, answer<ListResult<UserRow>>()),
  exportList: get('/user/export', { button: 'user:export' }, userExportQuery, answer<unknown>(), { raw: true, summary: 'Users as a CSV or XLSX file' }),
  /** The full record, phone and ID number unmasked: needs the user:detail button, not just the page. */
  detail: get('/user/detail', { button: 'user:detail' }, idInput, answer<UserDetail>(), { read: 'user' }),
  add: post('/user/add', { button: 'user:add' }, userAddBody, idAnswer, { audit: 'user' }),
  /** The whole record; phone / id_number left out keep the stored values. */
  edit: post('/user/edit', { button: 'user:edit' }, userEditBody, nullAnswer, { audit: 'user' }),
  /** Soft delete. */
  remove: post('/user/del', { button: 'user:delete' }, idInput, nullAnswer, { audit: 'user' }),
});

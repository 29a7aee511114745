import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idAnswer, idInput, idSchema, nullAnswer, optionalId, post } from '../endpoint';
import { exportQuery, listQuery, optionalText } from './common';
import { GENDERS, personName, phoneSchema, type Gender } from './person';

/*
 * Doctors (`/searchers/management`, grade 0, DoctorManage, doctor:*): the people who operate devices
 * at the institutions. Lists mask the phone (138****8001); the full number only comes from
 * GET /doctor/detail. What doctors share with users (genders, phone format, masks) is in `api/person.ts`.
 * The endpoint table is `doctorsApi` at the end of this file.
 *
 * Delete is soft (inspections will keep pointing at the doctor). inspection_count is read-only here:
 * the inspection module maintains it.
 */

export const DOCTOR_STATUSES = ['enabled', 'disabled'] as const;
export type DoctorStatus = (typeof DOCTOR_STATUSES)[number];
export const DOCTOR_SORTS = ['name', 'created_at', 'inspection_count', 'status'] as const;

export const doctorListQuery = listQuery(
  {
    /** Name (contains) or phone (contains, digits only). */
    keyword: optionalText(64),
    institution_id: optionalId,
    status: z.enum(DOCTOR_STATUSES).optional(),
  },
  DOCTOR_SORTS,
);
export type DoctorListQuery = z.infer<typeof doctorListQuery>;
export const doctorExportQuery = exportQuery(doctorListQuery);
export type DoctorExportQuery = z.infer<typeof doctorExportQuery>;

/** The fields of a doctor's add / edit, one schema each (forms take their limits from these). */
export const doctorFields = {
  name: personName,
  gender: z.enum(GENDERS),
  phone: phoneSchema,
  /** Job title. */
  title: z.string().trim().max(50).optional().default(''),
  institution_id: idSchema,
  status: z.enum(DOCTOR_STATUSES).optional().default('enabled'),
};
export const doctorAddBody = z.object(doctorFields);
export type DoctorAddBody = z.infer<typeof doctorAddBody>;
/** Edit sends the whole record. */
export const doctorEditBody = z.object({ id: idSchema, ...doctorFields });
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

export const doctorsApi = defineEndpoints('doctors', {
  /** Phones masked; newest first unless a sort is asked for. */
  list: get('/doctor/list', { page: 'DoctorManage' }, doctorListQuery, answer<ListResult<DoctorRow>>()),
  exportList: get('/doctor/export', { button: 'doctor:export' }, doctorExportQuery, answer<unknown>(), { raw: true, summary: 'Doctors as a CSV or XLSX file' }),
  /** The full record, phone unmasked. */
  detail: get('/doctor/detail', { page: 'DoctorManage' }, idInput, answer<DoctorDetail>()),
  add: post('/doctor/add', { button: 'doctor:add' }, doctorAddBody, idAnswer, { audit: 'doctor' }),
  /** The whole record, full phone included. */
  edit: post('/doctor/edit', { button: 'doctor:edit' }, doctorEditBody, nullAnswer, { audit: 'doctor' }),
  /** Soft delete. */
  remove: post('/doctor/del', { button: 'doctor:delete' }, idInput, nullAnswer, { audit: 'doctor' }),
});

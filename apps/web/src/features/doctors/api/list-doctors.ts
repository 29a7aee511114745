import type { DoctorRow } from '@app/contract/api/people';
import { listQueryOptions, useListQuery } from '../../../components/list';

export const DOCTOR_LIST = '/doctor/list';

/** GET /doctor/list: doctors with masked phones, filtered (keyword, institution, status), sorted and paged. */
export const doctorsQueryOptions = (query: Record<string, string | number>) => listQueryOptions<DoctorRow>(DOCTOR_LIST, query);
export const useDoctors = (query: Record<string, string | number>) => useListQuery<DoctorRow>(DOCTOR_LIST, query);

import type { QueryClient } from '@tanstack/react-query';
import type { DoctorDetail } from '@app/contract/api/people';
import { apiQueryOptions, useApiQuery } from '../../../components/list';

export const DOCTOR_DETAIL = '/doctor/detail';
/** The full phone is not kept around once nothing shows it. */
const FRESH = { staleTime: 0, gcTime: 60_000 };

/** GET /doctor/detail?id=: the full record, phone unmasked (page access). */
export const useDoctorDetail = (id: number | null) => useApiQuery<DoctorDetail>(DOCTOR_DETAIL, { id: id ?? 0 }, { enabled: id != null, ...FRESH });
export const fetchDoctorDetail = (qc: QueryClient, id: number): Promise<DoctorDetail> =>
  qc.fetchQuery({ ...apiQueryOptions<DoctorDetail>(DOCTOR_DETAIL, { id }), ...FRESH });

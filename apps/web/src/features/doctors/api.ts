/** The doctors module's calls (contract: `doctorsApi` in `@app/contract/api/doctors`). */
import type { QueryClient } from '@tanstack/react-query';
import { endpointListOptions, endpointQueryOptions, useEndpoint, useEndpointList, useEndpointMutation, type ListInput } from '../../components/list';

/** The full phone is not kept around once nothing shows it. */
const FRESH = { staleTime: 0, gcTime: 60_000 };

/** Doctors with masked phones, filtered (keyword, institution, status), sorted and paged. */
export const doctorsQueryOptions = (query: ListInput) => endpointListOptions('doctors.list', query);
export const useDoctors = (query: ListInput) => useEndpointList('doctors.list', query);

/** The full record, phone unmasked (page access). */
export const useDoctorDetail = (id: number | null) => useEndpoint('doctors.detail', { id: id ?? 0 }, { enabled: id != null, ...FRESH });
export const fetchDoctorDetail = (qc: QueryClient, id: number) => qc.fetchQuery({ ...endpointQueryOptions('doctors.detail', { id }), ...FRESH });

/** -> { id }. */
export const useAddDoctor = () => useEndpointMutation('doctors.add', { invalidate: ['doctors'] });
/** The whole record, full phone included. */
export const useEditDoctor = () => useEndpointMutation('doctors.edit', { invalidate: ['doctors'] });
/** Soft delete. */
export const useDeleteDoctor = (successMessage: string) => useEndpointMutation('doctors.remove', { invalidate: ['doctors'], successMessage });

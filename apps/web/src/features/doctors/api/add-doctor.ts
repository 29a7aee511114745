import type { DoctorAddBody } from '@app/contract/api/people';
import { useApiMutation } from '../../../components/list';
import { DOCTOR_LIST } from './list-doctors';

/** POST /doctor/add (button doctor:add) -> { id }. */
export const useAddDoctor = () => useApiMutation<DoctorAddBody, { id: number }>('/doctor/add', { invalidate: [DOCTOR_LIST] });

import type { DoctorEditBody } from '@app/contract/api/people';
import { useApiMutation } from '../../../components/list';
import { DOCTOR_LIST } from './list-doctors';
import { DOCTOR_DETAIL } from './doctor-detail';

/** POST /doctor/edit (button doctor:edit): the whole record, full phone included. */
export const useEditDoctor = () => useApiMutation<DoctorEditBody, null>('/doctor/edit', { invalidate: [DOCTOR_LIST, DOCTOR_DETAIL] });

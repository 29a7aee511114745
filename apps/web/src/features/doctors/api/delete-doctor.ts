import { useApiMutation } from '../../../components/list';
import { DOCTOR_LIST } from './list-doctors';

/** POST /doctor/del (button doctor:delete): soft delete. */
export const useDeleteDoctor = (successMessage: string) =>
  useApiMutation<{ id: number }, null>('/doctor/del', { invalidate: [DOCTOR_LIST], successMessage });

import type { AcupointBody, AcupointEditBody } from '@app/contract/api/master';
import { useApiMutation } from '../../../components/list';
import { ACUPOINT_OPTIONS } from '../../../components/master-options';
import { ACUPOINT_LIST } from './list-acupoints';

const INVALIDATE = [ACUPOINT_LIST, ACUPOINT_OPTIONS];

/** POST /acupoint/add and /acupoint/edit (a taken code answers a message on `code`). */
export const useAddAcupoint = () => useApiMutation<AcupointBody, { id: number }>('/acupoint/add', { invalidate: INVALIDATE });
export const useEditAcupoint = () => useApiMutation<AcupointEditBody>('/acupoint/edit', { invalidate: INVALIDATE });

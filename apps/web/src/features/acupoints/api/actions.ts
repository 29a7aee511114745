import type { AcupointActions, SaveActionsBody } from '@app/contract/api/master';
import { useApiMutation, useApiQuery } from '../../../components/list';
import { ACUPOINT_LIST } from './list-acupoints';

export const ACUPOINT_ACTIONS = '/acupoint/actions';

/** GET /acupoint/actions: the acupoint (code, name) and its treatment actions in order. */
export const useAcupointActions = (id: number) => useApiQuery<AcupointActions>(ACUPOINT_ACTIONS, { id }, { enabled: id > 0 });

/** POST /acupoint/save_actions: replaces the list. */
export const useSaveActions = () => useApiMutation<SaveActionsBody>('/acupoint/save_actions', { invalidate: [ACUPOINT_ACTIONS, ACUPOINT_LIST] });

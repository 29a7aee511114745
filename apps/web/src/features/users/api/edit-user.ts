import { useApiMutation } from '../../../components/list';
import type { UserBody } from '../person';
import { USER_LIST } from './list-users';
import { USER_DETAIL } from './user-detail';

/** POST /user/edit (button user:edit): phone / id_number left out keep the stored values. */
export const useEditUser = () => useApiMutation<UserBody & { id: number }, null>('/user/edit', { invalidate: [USER_LIST, USER_DETAIL] });

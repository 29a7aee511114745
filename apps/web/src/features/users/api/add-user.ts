import { useApiMutation } from '../../../components/list';
import type { UserBody } from '../person';
import { USER_LIST } from './list-users';

/** POST /user/add (button user:add) -> { id }. */
export const useAddUser = () => useApiMutation<UserBody, { id: number }>('/user/add', { invalidate: [USER_LIST] });

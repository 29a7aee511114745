import { useApiMutation } from '../../../components/list';
import { USER_LIST } from './list-users';

/** POST /user/del (button user:delete): soft delete. */
export const useDeleteUser = (successMessage: string) =>
  useApiMutation<{ id: number }, null>('/user/del', { invalidate: [USER_LIST], successMessage });

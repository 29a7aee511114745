import { useApiMutation } from '../../../components/list';
import { ADMIN_LIST_PATH } from './list-admins';
import { ROLE_LIST_PATH } from './list-roles';

/** POST /admin/del {id}: never oneself nor the last enabled super-admin; the user's sessions end. */
export const useDeleteAdmin = (successMessage?: string) => useApiMutation<{ id: number }>('/admin/del', {
  invalidate: [ADMIN_LIST_PATH, ROLE_LIST_PATH],
  successMessage,
});

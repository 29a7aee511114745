import { useApiMutation } from '../../../components/list';
import { ROLE_LIST_PATH } from './list-roles';
import { ADMIN_ROLE_OPTIONS_PATH } from './admin-role-options';

/** POST /role/del {id}: never the super role, nor a role someone holds. */
export const useDeleteRole = (successMessage?: string) => useApiMutation<{ id: number }>('/role/del', {
  invalidate: [ROLE_LIST_PATH, ADMIN_ROLE_OPTIONS_PATH, '/role/options'],
  successMessage,
});

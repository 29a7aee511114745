import type { RoleDetail } from '@app/contract/api/jurisdiction';
import { useApiMutation } from '../../../components/list';
import { ROLE_LIST_PATH } from './list-roles';
import { ROLE_DETAIL_PATH } from './role-detail';
import { ADMIN_LIST_PATH } from './list-admins';
import { ADMIN_ROLE_OPTIONS_PATH } from './admin-role-options';

export interface RoleBody {
  [key: string]: unknown;
  id?: number;
  name?: string;
  description?: string;
  status?: 0 | 1;
  menu_ids?: number[];
}

/** Role names and states show in the admin-user list and pickers too. */
const invalidate = [ROLE_LIST_PATH, ROLE_DETAIL_PATH, ADMIN_LIST_PATH, ADMIN_ROLE_OPTIONS_PATH, '/role/options'];

/** POST /role/add. */
export const useAddRole = () => useApiMutation<RoleBody, RoleDetail>('/role/add', { invalidate });
/** POST /role/edit: omitted fields keep their values; menu_ids, when sent, replaces the grants. */
export const useEditRole = () => useApiMutation<RoleBody, RoleDetail>('/role/edit', { invalidate });
/** The list's status switch. */
export const useSetRoleStatus = () => useApiMutation<RoleBody, RoleDetail>('/role/edit', { invalidate, successMessage: false });

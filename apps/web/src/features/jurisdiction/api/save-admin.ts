import type { AdminRow } from '@app/contract/api/jurisdiction';
import { useApiMutation } from '../../../components/list';
import { ADMIN_LIST_PATH } from './list-admins';
import { ROLE_LIST_PATH } from './list-roles';

export interface AdminBody {
  [key: string]: unknown;
  id?: number;
  username?: string;
  password?: string;
  name: string;
  phone: string;
  role_id: number;
}

/** User counts of roles change with the users. */
const invalidate = [ADMIN_LIST_PATH, ROLE_LIST_PATH];

/** POST /admin/add {username, password, name, phone, role_id}. */
export const useAddAdmin = () => useApiMutation<AdminBody, AdminRow>('/admin/add', { invalidate });
/** POST /admin/edit {id, name, phone, role_id}. */
export const useEditAdmin = () => useApiMutation<AdminBody, AdminRow>('/admin/edit', { invalidate });

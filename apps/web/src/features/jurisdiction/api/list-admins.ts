import type { AdminRow } from '@app/contract/api/jurisdiction';
import { useListQuery } from '../../../components/list';

export const ADMIN_LIST_PATH = '/admin/list';

/** GET /admin/list: keyword, role_id, status (0/1), sort username|name|status|last_login_at|created_at. */
export const useAdmins = (query: Record<string, string | number>) => useListQuery<AdminRow>(ADMIN_LIST_PATH, query);

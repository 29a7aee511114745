import type { RoleRow } from '@app/contract/api/jurisdiction';
import { useListQuery } from '../../../components/list';

export const ROLE_LIST_PATH = '/role/list';

/** GET /role/list: keyword, status (0/1), sort name|status|created_at|user_count. */
export const useRoles = (query: Record<string, string | number>) => useListQuery<RoleRow>(ROLE_LIST_PATH, query);

import type { RoleDetail } from '@app/contract/api/jurisdiction';
import { apiQueryOptions } from '../../../components/list';

export const ROLE_DETAIL_PATH = '/role/detail';

/** GET /role/detail {id}: the role with its granted node ids (every node for the super role). */
/** Always fetched fresh when the editor opens (staleTime 0). */
export const roleDetailQuery = (id: number) => apiQueryOptions<RoleDetail>(ROLE_DETAIL_PATH, { id });

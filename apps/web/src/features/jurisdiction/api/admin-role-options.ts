import type { RoleOption } from '@app/contract/api/jurisdiction';
import { useApiQuery } from '../../../components/list';

export const ADMIN_ROLE_OPTIONS_PATH = '/admin/role_options';

/** GET /admin/role_options: every role (super role first) for the user form and the list filter. */
export const useAdminRoleOptions = () => useApiQuery<RoleOption[]>(ADMIN_ROLE_OPTIONS_PATH, undefined, { staleTime: 60_000 });

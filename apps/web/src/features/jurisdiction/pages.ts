import { page } from '../../lib/pages';

/** Route name (packages/contract routes.ts) -> page component. Collected by app/pages.ts. */
export const pages = {
  RoleManage: page(() => import('./RoleListPage')),
  MenuManage: page(() => import('./MenuManagePage')),
  AdminUserManage: page(() => import('./AdminUserListPage')),
};

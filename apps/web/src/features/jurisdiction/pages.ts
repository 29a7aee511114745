import { lazy } from 'react';

/** Route name (packages/contract routes.ts) -> page component. Collected by app/pages.ts. */
export const pages = {
  RoleManage: lazy(() => import('./RoleListPage')),
  MenuManage: lazy(() => import('./MenuManagePage')),
  AdminUserManage: lazy(() => import('./AdminUserListPage')),
};

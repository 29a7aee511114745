import { lazy } from 'react';

/** Route name (packages/contract routes.ts) -> page component. Collected by app/pages.ts. */
export const pages = {
  AcupointManage: lazy(() => import('./AcupointListPage')),
  AcupointAction: lazy(() => import('./AcupointActionPage')),
};

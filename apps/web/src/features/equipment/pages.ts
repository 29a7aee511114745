import { lazy } from 'react';

/** Route name (packages/contract routes.ts) -> page component. Collected by app/pages.ts. */
export const pages = {
  DeviceList: lazy(() => import('./DeviceListPage')),
};

import { page } from '../../lib/pages';

/** Route name (packages/contract routes.ts) -> page component. Collected by app/pages.ts. */
export const pages = {
  Notices: page(() => import('./NoticesPage')),
};

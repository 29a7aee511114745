import { page } from '../../lib/pages';

/** Route name (packages/contract routes.ts) -> page component. Collected by app/pages.ts. The report's charts load only with it. */
export const pages = {
  InspectionList: page(() => import('./InspectionListPage')),
  InspectionReport: page(() => import('./ReportPage')),
  InspectionResult: page(() => import('./ResultPage')),
};

import { page } from '../../lib/pages';

/** Route name (packages/contract routes.ts) -> page component. Each page's code (and echarts) loads when it opens. */
export const pages = {
  EquipmentStats: page(() => import('./EquipmentStatsPage')),
  ButionStats: page(() => import('./DistributionStatsPage')),
  InstitutionStats: page(() => import('./InstitutionStatsPage')),
  FinanceStats: page(() => import('./FinanceStatsPage')),
};

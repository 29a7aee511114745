import { page } from '../../lib/pages';

/** Route name (packages/contract routes.ts) -> page component. Collected by app/pages.ts. */
export const pages = {
  FinanceRecordList: page(() => import('./LedgerPage')),
  PayoutManage: page(() => import('./PayoutPage')),
  DeviceEndRecord: page(() => import('./PaymentsPage')),
  DeviceEndRecordOfDevice: page(() => import('./DevicePaymentsPage')),
};

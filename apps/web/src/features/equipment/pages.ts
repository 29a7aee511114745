import { listStateOf } from '../../components/list/useListParams';
import { page } from '../../lib/pages';
import { prefetchCall } from '../../lib/prefetch';
import { DEVICE_LIST_PARAMS } from './list';

/** Route name (packages/contract routes.ts) -> page component. Collected by app/pages.ts. */
export const pages = {
  // The home page: its rows are asked for beside the user info (lib/pages.ts prefetchPageData).
  DeviceList: page(() => import('./DeviceListPage'), { prefetch: (search) => prefetchCall('equipment.list', listStateOf(search, DEVICE_LIST_PARAMS).query) }),
};

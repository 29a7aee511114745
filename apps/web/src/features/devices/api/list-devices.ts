import type { DeviceRow } from '@app/contract/api/equipment';
import { listQueryOptions, useListQuery } from '../../../components/list';

export const DEVICE_LIST_PATH = '/equipment/list';

/** GET /equipment/list: the caller's devices, filtered, sorted and paged. */
export const devicesQueryOptions = (query: Record<string, string | number>) => listQueryOptions<DeviceRow>(DEVICE_LIST_PATH, query);
export const useDevices = (query: Record<string, string | number>) => useListQuery<DeviceRow>(DEVICE_LIST_PATH, query);

import type { PackageRow } from '@app/contract/api/packages';
import { listQueryOptions, useListQuery } from '../../../components/list';

export const PACKAGE_LIST = '/package/list';

/** GET /package/list: packages, filtered (keyword, kind, status), sorted and paged. */
export const packagesQueryOptions = (query: Record<string, string | number>) => listQueryOptions<PackageRow>(PACKAGE_LIST, query);
export const usePackages = (query: Record<string, string | number>) => useListQuery<PackageRow>(PACKAGE_LIST, query);

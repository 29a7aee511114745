/** The packages module's calls (contract: `packagesApi` in `@app/contract/api/packages`). */
import { endpointListOptions, useEndpointList, useEndpointMutation, type ListInput } from '../../components/list';

/** Packages, filtered (keyword, kind, status), sorted and paged. */
export const packagesQueryOptions = (query: ListInput) => endpointListOptions('packages.list', query);
export const usePackages = (query: ListInput) => useEndpointList('packages.list', query);

/** Money in integer cents, rates in basis points. */
export const useAddPackage = () => useEndpointMutation('packages.add', { invalidate: ['packages'] });
/** The whole record; status changes through set_status. */
export const useEditPackage = () => useEndpointMutation('packages.edit', { invalidate: ['packages'] });
/** On sale / off sale. The caller says which toast to show. */
export const useSetPackageStatus = () => useEndpointMutation('packages.setStatus', { invalidate: ['packages'], successMessage: false });
/** Refused by the server while the package is on sale. */
export const useDeletePackage = (successMessage: string) => useEndpointMutation('packages.remove', { invalidate: ['packages'], successMessage });

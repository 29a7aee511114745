/** The equipment module's calls (contract: `equipmentApi` in `@app/contract/api/equipment`). */
import { endpointListOptions, useEndpointList, type ListInput } from '../../components/list';

/** The caller's devices (its institution subtree; all for the platform), filtered, sorted and paged. */
export const devicesQueryOptions = (query: ListInput) => endpointListOptions('equipment.list', query);
export const useDevices = (query: ListInput) => useEndpointList('equipment.list', query);

/** The equipment module's calls (contract: `equipmentApi` in `@app/contract/api/equipment`). */
import { endpointListOptions, useEndpointList, useEndpointMutation, type ListInput } from '../../components/list';

/** The caller's devices (its institution subtree; all for the platform), filtered, sorted and paged. */
export const devicesQueryOptions = (query: ListInput) => endpointListOptions('equipment.list', query);
export const useDevices = (query: ListInput) => useEndpointList('equipment.list', query);

/** Lifecycle (grade 0). Add and reset answer the device secret once; the caller shows it. */
export const useAddDevice = () => useEndpointMutation('equipment.add', { invalidate: ['equipment'], successMessage: false });
export const useImportDevices = () => useEndpointMutation('equipment.importFile', { invalidate: ['equipment'], successMessage: false });
export const useEditDevice = () => useEndpointMutation('equipment.edit', { invalidate: ['equipment'] });
/** Enable or disable the selected devices, per row (contract api/bulk.ts). */
export const useBulkDeviceStatus = () => useEndpointMutation('equipment.bulkStatus', { invalidate: ['equipment'], successMessage: false });
export const useDeviceStatus = () => useEndpointMutation('equipment.setStatus', { invalidate: ['equipment'] });
export const useResetSecret = () => useEndpointMutation('equipment.resetSecret', { invalidate: ['equipment'], successMessage: false });
export const useDistribute = () => useEndpointMutation('distribution.distribute', { invalidate: ['equipment', 'distribution'], successMessage: false });

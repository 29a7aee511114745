/** The inspections module's calls (contract: `inspectionsApi` in `@app/contract/api/inspections`). */
import { useEndpoint, useEndpointList, useEndpointMutation, type ListInput } from '../../components/list';

/** Inspections of the caller's subtree, newest first. */
export const useInspections = (query: ListInput) => useEndpointList('inspections.list', query);
/** The caller's devices, for the device filter (the device list's own call, scoped the same way). */
export const useDeviceOptions = (keyword: string) => useEndpoint('equipment.list', { limit: 50, ...(keyword ? { keyword } : {}) }, { staleTime: 60_000 });
export const useInspectionDetail = (id: number, version?: number) => useEndpoint('inspections.detail', version ? { id, version } : { id });
export const useInspectionReport = (id: number) => useEndpoint('inspections.report', { id });
export const useInspectionResult = (id: number) => useEndpoint('inspections.result', { id });
/** -> { id, version }. */
export const useRecompute = () => useEndpointMutation('inspections.recompute', { invalidate: ['inspections'] });
export const useAddSession = () => useEndpointMutation('inspections.addSession', { invalidate: ['inspections'] });

/** The inspections module's calls (contract: `inspectionsApi` in `@app/contract/api/inspections`). */
import { useEndpoint, useEndpointList, useEndpointMutation, type ListInput } from '../../components/list';

/** Inspections of the caller's subtree, newest first. */
export const useInspections = (query: ListInput) => useEndpointList('inspections.list', query);
/** The caller's devices, for the device filter (the device list's own call, scoped the same way). */
export const useDeviceOptions = (keyword: string) => useEndpoint('equipment.list', { limit: 50, ...(keyword ? { keyword } : {}) }, { staleTime: 60_000 });
/** One inspection with one version of its analysis; `enabled` false: not asked (each answered call is an audited read). */
export const useInspectionDetail = (id: number, version?: number, enabled = true) => useEndpoint('inspections.detail', version ? { id, version } : { id }, { enabled });
export const useInspectionReport = (id: number) => useEndpoint('inspections.report', { id });
export const useInspectionResult = (id: number) => useEndpoint('inspections.result', { id });
/** -> { id, version }. */
export const useRecompute = () => useEndpointMutation('inspections.recompute', { invalidate: ['inspections'] });
export const useAddSession = () => useEndpointMutation('inspections.addSession', { invalidate: ['inspections'] });
/** The report's active links (button inspection:share). */
export const useShareList = (id: number, enabled: boolean) => useEndpoint('inspections.shareList', { id }, { enabled });
/** -> { id, token, url, expires_at }. A change of links refetches the link list and the report (its QR code is the newest active link's). */
export const useShare = () => useEndpointMutation('inspections.share', { invalidate: ['inspections.shareList', 'inspections.report'] });
/** -> { revoked }. */
export const useUnshare = () => useEndpointMutation('inspections.unshare', { invalidate: ['inspections.shareList', 'inspections.report'] });

/** The codes module's calls (contract: `codesApi` in `@app/contract/api/codes`). */
import { endpointListOptions, useEndpoint, useEndpointList, useEndpointMutation, type ListInput } from '../../components/list';

/** Batches, newest first, with the count of codes in each state. */
export const batchesQueryOptions = (query: ListInput) => endpointListOptions('codes.batches', query);
export const useCodeBatches = (query: ListInput) => useEndpointList('codes.batches', query);
/** The latest batches, for the batch filter of the code list. */
export const useRecentBatches = () => useEndpoint('codes.batches', { limit: 100 }, { staleTime: 30_000 });
/** Codes, masked. */
export const useCodes = (query: ListInput) => useEndpointList('codes.list', query);
/** -> { batch_no, codes }: the only time the codes come back unasked. */
export const useGenerateCodes = () => useEndpointMutation('codes.generate', { invalidate: ['codes'], successMessage: false });
/** Void the selected codes of any batches, per row (contract api/bulk.ts). */
export const useBulkVoidCodes = () => useEndpointMutation('codes.bulkVoid', { invalidate: ['codes'], successMessage: false });
/** -> { count }. The caller says which toast to show. */
export const useVoidCodes = () => useEndpointMutation('codes.voidCodes', { invalidate: ['codes'], successMessage: false });
export const useAssignCodes = () => useEndpointMutation('codes.assign', { invalidate: ['codes'], successMessage: false });
/** Activation records of the caller's subtree. */
export const useActivationRecords = (query: ListInput) => useEndpointList('codes.records', query);
/** Packages a device batch may grant (needs the package page's access). */
export const usePackageOptions = (enabled: boolean) => useEndpoint('packages.list', { limit: 100, sort: 'sort', order: 'ascend' }, { enabled, staleTime: 60_000 });

/** The audit module's calls (contract: `auditApi` in `@app/contract/api/audit`). */
import { useEndpoint, useEndpointList, type ListInput } from '../../components/list';

/** The trail, filtered (who, record type and id, endpoint, days), newest first. */
export const useAuditTrail = (query: ListInput) => useEndpointList('audit.list', query);
/** One row with the record before and after. */
export const useAuditDetail = (id: number | null) => useEndpoint('audit.detail', { id: id ?? 0 }, { enabled: id != null });
/** Record types present in the trail, for the filter. */
export const useAuditRecordTypes = () => useEndpoint('audit.recordTypes', undefined, { staleTime: 60_000 });

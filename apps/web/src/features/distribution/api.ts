/** The distribution module's calls (contract: `distributionApi` in `@app/contract/api/distribution`). */
import { useEndpointList, type ListInput } from '../../components/list';

/** Distribution records (grade 0), newest first. */
export const useDistributionRecords = (query: ListInput) => useEndpointList('distribution.list', query);

import type { AcupointRow } from '@app/contract/api/master';
import { useListQuery } from '../../../components/list';

export const ACUPOINT_LIST = '/acupoint/list';

/** GET /acupoint/list: filtered (keyword, meridian, flags, status), sorted and paged. */
export const useAcupoints = (query: Record<string, string | number>) => useListQuery<AcupointRow>(ACUPOINT_LIST, query);

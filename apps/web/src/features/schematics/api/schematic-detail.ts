import type { QueryClient } from '@tanstack/react-query';
import type { SchematicDetail } from '@app/contract/api/master';
import { apiQueryOptions, useApiQuery } from '../../../components/list';

export const SCHEMATIC_DETAIL = '/schematic/detail';

/** GET /schematic/detail: a diagram with its markers (acupoint code and name each). Always fresh. */
export const fetchSchematicDetail = (qc: QueryClient, id: number): Promise<SchematicDetail> =>
  qc.fetchQuery({ ...apiQueryOptions<SchematicDetail>(SCHEMATIC_DETAIL, { id }), staleTime: 0 });

export const useSchematicDetail = (id: number | null) =>
  useApiQuery<SchematicDetail>(SCHEMATIC_DETAIL, { id: id ?? 0 }, { enabled: id != null });

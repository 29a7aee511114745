import type { SchematicRow } from '@app/contract/api/master';
import { useListQuery } from '../../../components/list';

export const SCHEMATIC_LIST = '/schematic/list';

/** GET /schematic/list: diagrams, filtered (keyword, kind, acupoint_id), sorted and paged. */
export const useSchematics = (query: Record<string, string | number>) => useListQuery<SchematicRow>(SCHEMATIC_LIST, query);

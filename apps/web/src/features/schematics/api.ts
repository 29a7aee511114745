/** The schematics module's calls (contract: `schematicsApi` in `@app/contract/api/schematics`). */
import type { QueryClient } from '@tanstack/react-query';
import { endpointQueryOptions, useEndpoint, useEndpointList, useEndpointMutation, type ListInput } from '../../components/list';

/** Diagrams, filtered (keyword, kind, acupoint_id), sorted and paged. */
export const useSchematics = (query: ListInput) => useEndpointList('schematics.list', query);

/** A diagram with its markers (acupoint code and name each). Always fresh. */
export const fetchSchematicDetail = (qc: QueryClient, id: number) => qc.fetchQuery({ ...endpointQueryOptions('schematics.detail', { id }), staleTime: 0 });
export const useSchematicDetail = (id: number | null) => useEndpoint('schematics.detail', { id: id ?? 0 }, { enabled: id != null });

/** Add (with its markers) and edit (markers present = replaced). */
export const useAddSchematic = () => useEndpointMutation('schematics.add', { invalidate: ['schematics'] });
export const useEditSchematic = () => useEndpointMutation('schematics.edit', { invalidate: ['schematics'] });

/** The acupoints module's calls (contract: `acupointsApi` in `@app/contract/api/acupoints`). */
import { useEndpoint, useEndpointList, useEndpointMutation, type ListInput } from '../../components/list';

/** Filtered (keyword, meridian, flags, status), sorted and paged. */
export const useAcupoints = (query: ListInput) => useEndpointList('acupoints.list', query);

/** A taken code answers a message on `code`. Writes refetch every cached acupoints call (list, options, actions). */
export const useAddAcupoint = () => useEndpointMutation('acupoints.add', { invalidate: ['acupoints'] });
export const useEditAcupoint = () => useEndpointMutation('acupoints.edit', { invalidate: ['acupoints'] });

/** The acupoint (code, name) and its treatment actions in order. */
export const useAcupointActions = (id: number) => useEndpoint('acupoints.actions', { id }, { enabled: id > 0 });
/** Replaces the list. */
export const useSaveActions = () => useEndpointMutation('acupoints.saveActions', { invalidate: ['acupoints'] });

/** The diseases module's calls (contract: `diseasesApi` in `@app/contract/api/diseases`). */
import { useEndpoint, useEndpointList, useEndpointMutation, type ListInput } from '../../components/list';

/** The categories (with their diseases) in the editor's order: the left panel. */
export const useDiseaseTree = () => useEndpoint('diseases.tree');
/** Diseases filtered by category_id, keyword, status, meridian; sorted and paged. */
export const useDiseases = (query: ListInput) => useEndpointList('diseases.list', query);

export const useAddCategory = () => useEndpointMutation('diseases.categoryAdd', { invalidate: ['diseases'] });
export const useEditCategory = () => useEndpointMutation('diseases.categoryEdit', { invalidate: ['diseases'] });
export const useAddDisease = () => useEndpointMutation('diseases.add', { invalidate: ['diseases'] });
export const useEditDisease = () => useEndpointMutation('diseases.edit', { invalidate: ['diseases'] });

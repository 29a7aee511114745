/** The systems module's calls (contract: `systemsApi` in `@app/contract/api/systems`). */
import { useEndpoint, useEndpointList, useEndpointMutation, type ListInput } from '../../components/list';

/** Body systems and subsystems, filtered (keyword, level, parent_id), sorted and paged. */
export const useSystems = (query: ListInput) => useEndpointList('systems.list', query);
/** Every body system with its subsystems (the rows' children). */
export const useSystemTree = () => useEndpoint('systems.tree');

/** Writes refetch every cached systems call (list, tree, and the pickers' options). */
export const useAddSystem = () => useEndpointMutation('systems.add', { invalidate: ['systems'] });
export const useEditSystem = () => useEndpointMutation('systems.edit', { invalidate: ['systems'] });

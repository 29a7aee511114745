/** The branch setup module's calls (contract: `branchesApi` in `@app/contract/api/branches`). */
import { useEndpointList, useEndpointMutation, type ListInput } from '../../components/list';

/** Applications of the caller's subtree (admins: all), filtered, sorted and paged. */
export const useApplications = (query: ListInput) => useEndpointList('branches.list', query);
/** An institution files an application for a branch of its own. */
export const useApply = (successMessage: string) => useEndpointMutation('branches.apply', { invalidate: ['branches'], successMessage });
/** -> the new branch and its password (generated: shown once). The institution tree changes too. */
export const useApprove = () => useEndpointMutation('branches.approve', { invalidate: ['branches', 'institutions'], successMessage: false });
export const useReject = (successMessage: string) => useEndpointMutation('branches.reject', { invalidate: ['branches'], successMessage });

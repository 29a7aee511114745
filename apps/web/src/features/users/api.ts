/** The users module's calls (contract: `usersApi` in `@app/contract/api/users`). */
import { endpointListOptions, useEndpoint, useEndpointList, useEndpointMutation, type ListInput } from '../../components/list';

/** Inspected people with masked phone and ID numbers, filtered, sorted and paged. */
export const usersQueryOptions = (query: ListInput) => endpointListOptions('users.list', query);
export const useUsers = (query: ListInput) => useEndpointList('users.list', query);

/** Phone and ID number in full (button user:detail). Not kept once nothing shows it. */
export const useUserDetail = (id: number | null) => useEndpoint('users.detail', { id: id ?? 0 }, { enabled: id != null, staleTime: 0, gcTime: 60_000 });

/** -> { id }. */
export const useAddUser = () => useEndpointMutation('users.add', { invalidate: ['users'] });
/** Phone / id_number left out keep the stored values. */
export const useEditUser = () => useEndpointMutation('users.edit', { invalidate: ['users'] });
/** Soft delete. */
export const useDeleteUser = (successMessage: string) => useEndpointMutation('users.remove', { invalidate: ['users'], successMessage });

import type { UserRow } from '@app/contract/api/people';
import { listQueryOptions, useListQuery } from '../../../components/list';

export const USER_LIST = '/user/list';

/** GET /user/list: inspected people with masked phone and ID numbers, filtered, sorted and paged. */
export const usersQueryOptions = (query: Record<string, string | number>) => listQueryOptions<UserRow>(USER_LIST, query);
export const useUsers = (query: Record<string, string | number>) => useListQuery<UserRow>(USER_LIST, query);

import type { UserDetail } from '@app/contract/api/people';
import { useApiQuery } from '../../../components/list';

export const USER_DETAIL = '/user/detail';

/** GET /user/detail?id= (button user:detail): phone and ID number in full. Not kept once nothing shows it. */
export const useUserDetail = (id: number | null) =>
  useApiQuery<UserDetail>(USER_DETAIL, { id: id ?? 0 }, { enabled: id != null, staleTime: 0, gcTime: 60_000 });

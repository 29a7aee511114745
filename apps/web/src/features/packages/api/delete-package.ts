import { useApiMutation } from '../../../components/list';
import { PACKAGE_LIST } from './list-packages';

/** POST /package/del (button package:delete). Refused by the server while the package is on sale. */
export const useDeletePackage = (successMessage: string) =>
  useApiMutation<{ id: number }, null>('/package/del', { invalidate: [PACKAGE_LIST], successMessage });

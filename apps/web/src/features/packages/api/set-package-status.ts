import type { PackageSetStatusBody } from '@app/contract/api/packages';
import { useApiMutation } from '../../../components/list';
import { PACKAGE_LIST } from './list-packages';

/** POST /package/set_status (button package:edit): put on sale / take off sale. The caller says which toast to show. */
export const useSetPackageStatus = () =>
  useApiMutation<PackageSetStatusBody, null>('/package/set_status', { invalidate: [PACKAGE_LIST], successMessage: false });

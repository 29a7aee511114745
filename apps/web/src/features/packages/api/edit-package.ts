import type { PackageEditBody } from '@app/contract/api/packages';
import { useApiMutation } from '../../../components/list';
import { PACKAGE_LIST } from './list-packages';

/** POST /package/edit (button package:edit): the whole record; status changes through set_status. */
export const useEditPackage = () => useApiMutation<PackageEditBody, null>('/package/edit', { invalidate: [PACKAGE_LIST] });

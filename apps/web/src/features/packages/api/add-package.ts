import type { PackageAddBody } from '@app/contract/api/packages';
import { useApiMutation } from '../../../components/list';
import { PACKAGE_LIST } from './list-packages';

/** POST /package/add (button package:add) -> { id }. Money in integer cents, rates in basis points. */
export const useAddPackage = () => useApiMutation<PackageAddBody, { id: number }>('/package/add', { invalidate: [PACKAGE_LIST] });

/** Picker data of the master-data pages: every acupoint and the system tree (open to any admin). */
import type { AcupointOption, SystemTreeNode } from '@app/contract/api/master';
import { useApiQuery } from './list';

export const ACUPOINT_OPTIONS = '/acupoint/options';
export const SYSTEM_OPTIONS = '/system/options';

export const useAcupointOptions = () => useApiQuery<AcupointOption[]>(ACUPOINT_OPTIONS, undefined, { staleTime: 60_000 });
export const useSystemOptions = () => useApiQuery<SystemTreeNode[]>(SYSTEM_OPTIONS, undefined, { staleTime: 60_000 });

import type { SystemBody, SystemEditBody, SystemRow, SystemTreeNode } from '@app/contract/api/master';
import { useApiMutation, useApiQuery, useListQuery } from '../../../components/list';
import { SYSTEM_OPTIONS } from '../../../components/master-options';

export const SYSTEM_LIST = '/system/list';
export const SYSTEM_TREE = '/system/tree';
export const SYSTEM_DELETE = '/system/del';
const INVALIDATE = [SYSTEM_LIST, SYSTEM_TREE, SYSTEM_OPTIONS];

/** GET /system/list: body systems and subsystems, filtered (keyword, level, parent_id), sorted and paged. */
export const useSystems = (query: Record<string, string | number>) => useListQuery<SystemRow>(SYSTEM_LIST, query);
/** GET /system/tree: every body system with its subsystems (the rows' children). */
export const useSystemTree = () => useApiQuery<SystemTreeNode[]>(SYSTEM_TREE);

export const useAddSystem = () => useApiMutation<SystemBody, { id: number }>('/system/add', { invalidate: INVALIDATE });
export const useEditSystem = () => useApiMutation<SystemEditBody>('/system/edit', { invalidate: INVALIDATE });

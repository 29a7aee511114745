import type { GrantNode } from '@app/contract/api/jurisdiction';
import { useApiQuery } from '../../../components/list';

export const GRANT_TREE_PATH = '/role/menu_tree';

/** GET /role/menu_tree: the grant editor's tree; `grantable` = the caller holds the node itself. */
export const useGrantTree = (enabled: boolean) => useApiQuery<GrantNode[]>(GRANT_TREE_PATH, undefined, { enabled, staleTime: 30_000 });

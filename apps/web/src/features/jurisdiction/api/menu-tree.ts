import type { MenuNode } from '@app/contract/api/jurisdiction';
import { useApiQuery } from '../../../components/list';

export const MENU_TREE_PATH = '/menu/tree';

/** GET /menu/tree: every menu node (directories, pages, buttons) as a tree, in display order. */
export const useMenuTree = () => useApiQuery<MenuNode[]>(MENU_TREE_PATH);

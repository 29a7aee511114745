import type { MenuNode } from '@app/contract/api/jurisdiction';
import { useApiMutation } from '../../../components/list';
import { loadUserInfo } from '../../../lib/auth';
import { MENU_TREE_PATH } from './menu-tree';
import { GRANT_TREE_PATH } from './role-menu-tree';

export interface MenuBody {
  [key: string]: unknown;
  id?: number;
  parent_id?: number | null;
  type?: 1 | 2 | 3;
  title: { zh: string; en: string; es: string; ja: string };
  sign?: string;
  icon: string | null;
  sort: number;
  hidden: 0 | 1;
}

/** The signed-in admin's menu (titles, icons, order, hidden) comes from role_data: reload it after a change. */
const refreshOwnMenu = () => { loadUserInfo().catch(() => undefined); };

const opts = { invalidate: [MENU_TREE_PATH, GRANT_TREE_PATH], onSuccess: refreshOwnMenu };

/** POST /menu/add. */
export const useAddMenu = () => useApiMutation<MenuBody, MenuNode>('/menu/add', opts);
/** POST /menu/edit: omitted fields keep their values (built-in nodes: send no sign, type or parent). */
export const useEditMenu = () => useApiMutation<MenuBody, MenuNode>('/menu/edit', opts);

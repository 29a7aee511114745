import { useApiMutation } from '../../../components/list';
import { loadUserInfo } from '../../../lib/auth';
import { MENU_TREE_PATH } from './menu-tree';
import { GRANT_TREE_PATH } from './role-menu-tree';

/** POST /menu/del {id}: a custom node without children. */
export const useDeleteMenu = (successMessage?: string) => useApiMutation<{ id: number }>('/menu/del', {
  invalidate: [MENU_TREE_PATH, GRANT_TREE_PATH],
  successMessage,
  onSuccess: () => { loadUserInfo().catch(() => undefined); },
});

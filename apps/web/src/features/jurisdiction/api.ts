/** The jurisdiction module's calls (contract: `jurisdictionApi` in `@app/contract/api/jurisdiction`). */
import { endpointQueryOptions, useEndpoint, useEndpointList, useEndpointMutation, type ListInput } from '../../components/list';
import type { EndpointName } from '../../lib/api';
import { loadUserInfo } from '../../lib/auth';

// ---------------------------------------------------------------------------------------------- menus

/** Every menu node (directories, pages, buttons) as a tree, in display order. */
export const useMenuTree = () => useEndpoint('jurisdiction.menuTree');

/** The signed-in admin's menu (titles, icons, order, hidden) comes from role_data: reload it after a change. */
const refreshOwnMenu = () => {
  loadUserInfo().catch(() => undefined);
};
const MENU_READS: EndpointName[] = ['jurisdiction.menuTree', 'jurisdiction.menuDetail', 'jurisdiction.roleMenuTree'];

export const useAddMenu = () => useEndpointMutation('jurisdiction.menuAdd', { invalidate: MENU_READS, onSuccess: refreshOwnMenu });
/** Omitted fields keep their values (built-in nodes: send no sign, type or parent). */
export const useEditMenu = () => useEndpointMutation('jurisdiction.menuEdit', { invalidate: MENU_READS, onSuccess: refreshOwnMenu });
/** A custom node without children. */
export const useDeleteMenu = (successMessage?: string) => useEndpointMutation('jurisdiction.menuRemove', { invalidate: MENU_READS, successMessage, onSuccess: refreshOwnMenu });

// ---------------------------------------------------------------------------------------------- roles

/** keyword, status (0/1), sort name|status|created_at|user_count. */
export const useRoles = (query: ListInput) => useEndpointList('jurisdiction.roleList', query);
/** The role with its granted node ids (every node for the super role); fetched fresh when the editor opens. */
export const roleDetailQuery = (id: number) => endpointQueryOptions('jurisdiction.roleDetail', { id });
/** The grant editor's tree; `grantable` = the caller holds the node itself. */
export const useGrantTree = (enabled: boolean) => useEndpoint('jurisdiction.roleMenuTree', undefined, { enabled, staleTime: 30_000 });

/** Role names and states show in the admin-user list and pickers too. */
const ROLE_READS: EndpointName[] = [
  'jurisdiction.roleList',
  'jurisdiction.roleDetail',
  'jurisdiction.roleOptions',
  'jurisdiction.adminList',
  'jurisdiction.adminDetail',
  'jurisdiction.adminRoleOptions',
];

export const useAddRole = () => useEndpointMutation('jurisdiction.roleAdd', { invalidate: ROLE_READS });
/** Omitted fields keep their values; menu_ids, when sent, replaces the grants. */
export const useEditRole = () => useEndpointMutation('jurisdiction.roleEdit', { invalidate: ROLE_READS });
/** The list's status switch (the caller says which toast to show). */
export const useSetRoleStatus = () => useEndpointMutation('jurisdiction.roleEdit', { invalidate: ROLE_READS, successMessage: false });
/** Never the super role, nor a role someone holds. */
export const useDeleteRole = (successMessage?: string) => useEndpointMutation('jurisdiction.roleRemove', { invalidate: ROLE_READS, successMessage });

// ---------------------------------------------------------------------------------------- admin users

/** keyword, role_id, status (0/1), sort username|name|status|last_login_at|created_at. */
export const useAdmins = (query: ListInput) => useEndpointList('jurisdiction.adminList', query);
/** Every role (super role first) for the user form and the list filter. */
export const useAdminRoleOptions = () => useEndpoint('jurisdiction.adminRoleOptions', undefined, { staleTime: 60_000 });

/** User counts of roles change with the users. */
const ADMIN_READS: EndpointName[] = ['jurisdiction.adminList', 'jurisdiction.adminDetail', 'jurisdiction.roleList', 'jurisdiction.roleDetail'];

export const useAddAdmin = () => useEndpointMutation('jurisdiction.adminAdd', { invalidate: ADMIN_READS });
/** Name, phone and role. */
export const useEditAdmin = () => useEndpointMutation('jurisdiction.adminEdit', { invalidate: ADMIN_READS });
/** Never oneself nor the last enabled super-admin; the user's sessions end. */
export const useDeleteAdmin = (successMessage?: string) => useEndpointMutation('jurisdiction.adminRemove', { invalidate: ADMIN_READS, successMessage });

/** Enable / disable (admin:status, `{ id, field: 'status', value }` of POST /member/modify_field); disabling ends the user's sessions. */
export const useSetAdminStatus = (successMessage: string) => useEndpointMutation('auth.modifyField', { invalidate: ['jurisdiction.adminList', 'jurisdiction.adminDetail'], successMessage });
/** Another admin's new password (admin:reset-password, `{ id, field: 'password', value }`); the user's sessions end. */
export const useResetAdminPassword = (successMessage: string) => useEndpointMutation('auth.modifyField', { successMessage });
/** Every session of another admin's account ends (button admin:status); the caller says the count. */
export const useEndAdminSessions = () => useEndpointMutation('sessions.endAccount', { successMessage: false });

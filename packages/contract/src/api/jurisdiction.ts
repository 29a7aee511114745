import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idInput, idList, idSchema as id, noInput, nullAnswer, nullableId, optionalId, post } from '../endpoint';
import type { L10n } from '../i18n';
import { listQuery, optionalText } from './common';

/*
 * Platform access control (`/jurisdiction`, grade 0): menu nodes, roles and admin users, and role
 * switching ("view as"). Reads take the page, writes the page's buttons (routes.ts: MenuManage,
 * RoleManage, AdminUserManage). The rules both sides apply are in `jurisdiction-rules.ts`; the endpoint
 * table is `jurisdictionApi` at the end of this file. Enabling/disabling an admin and password resets go
 * through POST /member/modify_field (auth module).
 */

/** A 0/1 flag as JSON or query text (true/false accepted too). */
const flag01 = z.union([z.literal(0), z.literal(1), z.boolean(), z.enum(['0', '1', 'true', 'false'])]).transform((v) => (v === 1 || v === true || v === '1' || v === 'true' ? 1 : 0) as 0 | 1);
const optionalFlag = z
  .enum(['0', '1', 'true', 'false'])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === '1' || v === 'true'));

/** `{ id }` (detail queries, delete bodies). */
export const idBody = idInput;
export type IdBody = z.infer<typeof idBody>;

// ---------------------------------------------------------------------------------------------- menus

export const MENU_TYPES = [1, 2, 3] as const;
export type MenuType = (typeof MENU_TYPES)[number];

/** Titles: Chinese and English are required, Spanish and Japanese fall back to English when empty. */
export const menuTitleSchema = z.object({
  zh: z.string().trim().min(1).max(100),
  en: z.string().trim().min(1).max(100),
  es: z.string().trim().max(100).optional().default(''),
  ja: z.string().trim().max(100).optional().default(''),
});

/** Route names (PascalCase) and button keys (`module:action`). */
export const MENU_SIGN_RE = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;

/** A parent node: an id, or null for the top level (strict ids: 0 is refused like any other non-id). */
const parentId = nullableId;
const menuType = z.coerce
  .number()
  .int()
  .pipe(z.union([z.literal(1), z.literal(2), z.literal(3)]));
const menuSign = z.string().trim().regex(MENU_SIGN_RE);
const menuIcon = z
  .string()
  .trim()
  .max(50)
  .nullable()
  .transform((v) => (v ? v : null));
const menuSort = z.coerce.number().int().min(-1_000_000).max(1_000_000);
/** A node's fields, for forms (`fieldRules`, `limitsOf`): the limits are stated here once. */
export const menuFields = { title: menuTitleSchema, sign: menuSign, icon: menuIcon, sort: menuSort };

export const menuAddBody = z.object({
  /** Null or omitted for a top-level node. */
  parent_id: parentId.optional().transform((v) => v ?? null),
  type: menuType,
  title: menuTitleSchema,
  sign: menuSign,
  icon: menuIcon.optional().transform((v) => v ?? null),
  sort: menuSort.default(0),
  hidden: flag01.default(0),
});
export type MenuAddBody = z.infer<typeof menuAddBody>;
/** Omitted fields keep their values (parent_id null moves a node to the top level). */
export const menuEditBody = z.object({
  id,
  parent_id: parentId.optional(),
  type: menuType.optional(),
  title: menuTitleSchema.optional(),
  sign: menuSign.optional(),
  icon: menuIcon.optional(),
  sort: menuSort.optional(),
  hidden: flag01.optional(),
});
export type MenuEditBody = z.infer<typeof menuEditBody>;

export interface MenuNode {
  id: number;
  parent_id: number | null;
  type: MenuType;
  sign: string;
  title: L10n;
  icon: string | null;
  sort: number;
  hidden: 0 | 1;
  /** The sign is a route or button of the permission table: not deletable, sign/type/parent fixed. */
  builtin: boolean;
  children: MenuNode[];
}

/** A node of the grant editor (GET /role/menu_tree): whether the caller may grant it (it holds it). */
export interface GrantNode extends Omit<MenuNode, 'children'> {
  grantable: boolean;
  children: GrantNode[];
}

// ---------------------------------------------------------------------------------------------- roles

export const ROLE_SORTS = ['name', 'status', 'created_at', 'user_count'] as const;
export const roleListQuery = listQuery({ keyword: optionalText(50), status: optionalFlag }, ROLE_SORTS);
export type RoleListQuery = z.infer<typeof roleListQuery>;

/** A role's fields (forms take their limits from here). */
export const roleFields = {
  name: z.string().trim().min(1).max(50),
  description: z.string().trim().max(200).optional().default(''),
  /** Spec §9: a role is enabled unless told otherwise. */
  status: flag01.default(1).transform((v) => v === 1),
  menu_ids: idList(2000).optional(),
};
export const roleAddBody = z.object(roleFields);
export type RoleAddBody = z.infer<typeof roleAddBody>;
/** Omitted fields keep their values; menu_ids, when given, replaces the grants. */
export const roleEditBody = z.object({
  id,
  name: roleFields.name.optional(),
  description: z.string().trim().max(200).optional(),
  status: flag01.optional().transform((v) => (v === undefined ? undefined : v === 1)),
  menu_ids: roleFields.menu_ids,
});
export type RoleEditBody = z.infer<typeof roleEditBody>;
export const viewAsBody = z.object({ role_id: id });
export type ViewAsBody = z.infer<typeof viewAsBody>;

export interface RoleRow {
  id: number;
  name: string;
  description: string;
  status: boolean;
  is_super: boolean;
  /** Admin users holding the role. */
  user_count: number;
  created_at: string;
}
export interface RoleDetail extends RoleRow {
  /** Granted node ids (ancestors included); every node for the super role. */
  menu_ids: number[];
}
export interface RoleOption {
  id: number;
  name: string;
  status: boolean;
  is_super: boolean;
}
export interface SessionKeyAnswer {
  key: string;
}

// ---------------------------------------------------------------------------------------- admin users

export const ADMIN_SORTS = ['username', 'name', 'status', 'last_login_at', 'created_at'] as const;
export const adminListQuery = listQuery(
  {
    keyword: optionalText(64),
    role_id: optionalId,
    status: z
      .enum(['0', '1'])
      .optional()
      .transform((v) => (v === undefined ? undefined : (Number(v) as 0 | 1))),
  },
  ADMIN_SORTS,
);
export type AdminListQuery = z.infer<typeof adminListQuery>;

export const ADMIN_USERNAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.@-]{1,63}$/;
export const ADMIN_PHONE_RE = /^[0-9+\-() ]*$/;
/** An admin user's fields (forms take their limits from here); username and password: adminAddBody. */
export const adminFields = {
  name: z.string().trim().min(1).max(50),
  phone: z.string().trim().max(30).regex(ADMIN_PHONE_RE).optional().default(''),
  role_id: id,
};
/** The password is checked by the server against the system minimum (not here). */
export const adminAddBody = z.object({
  username: z.string().trim().regex(ADMIN_USERNAME_RE),
  password: z.string().max(200),
  ...adminFields,
});
export type AdminAddBody = z.infer<typeof adminAddBody>;
export const adminEditBody = z.object({ id, ...adminFields });
export type AdminEditBody = z.infer<typeof adminEditBody>;

export interface AdminRow {
  id: number;
  username: string;
  name: string;
  phone: string;
  role_id: number;
  role_name: string;
  role_is_super: boolean;
  status: 0 | 1;
  last_login_at: string | null;
  created_at: string;
}

// ------------------------------------------------------------------------------------ endpoint table

export const jurisdictionApi = defineEndpoints('jurisdiction', {
  // Menu nodes of the permission tree (`/jurisdiction/menu`). Writes answer the node as saved.
  /** Every node (directories, pages, buttons) as a tree, in display order. */
  menuTree: get('/menu/tree', { page: 'MenuManage' }, noInput, answer<MenuNode[]>()),
  menuDetail: get('/menu/detail', { page: 'MenuManage' }, idBody, answer<MenuNode>()),
  menuAdd: post('/menu/add', { button: 'menu:add' }, menuAddBody, answer<MenuNode>(), { audit: 'menu' }),
  /** Omitted fields keep their values (built-in nodes: sign, type and parent are fixed). */
  menuEdit: post('/menu/edit', { button: 'menu:edit' }, menuEditBody, answer<MenuNode>(), { audit: 'menu' }),
  /** A custom node without children; its grants go with it. */
  menuRemove: post('/menu/del', { button: 'menu:delete' }, idBody, nullAnswer, { audit: 'menu' }),

  // Roles and their grants (`/jurisdiction/role`). Writes answer the role's detail.
  roleList: get('/role/list', { page: 'RoleManage' }, roleListQuery, answer<ListResult<RoleRow>>()),
  roleDetail: get('/role/detail', { page: 'RoleManage' }, idBody, answer<RoleDetail>()),
  /** The grant editor's tree: `grantable` = the caller holds the node itself. */
  roleMenuTree: get('/role/menu_tree', { page: 'RoleManage' }, noInput, answer<GrantNode[]>()),
  /** Every role (super role first), for pickers. */
  roleOptions: get('/role/options', { page: 'RoleManage' }, noInput, answer<RoleOption[]>()),
  roleAdd: post('/role/add', { button: 'role:add' }, roleAddBody, answer<RoleDetail>(), { audit: 'role', stepUp: true }),
  /** Omitted fields keep their values; menu_ids, when given, replaces the grants. */
  roleEdit: post('/role/edit', { button: 'role:edit' }, roleEditBody, answer<RoleDetail>(), { audit: 'role', stepUp: true }),
  /** Never the super role, nor a role someone holds; sessions viewing as it end. */
  roleRemove: post('/role/del', { button: 'role:delete' }, idBody, nullAnswer, { audit: 'role' }),
  /** A super-admin views the console as another role: a new session key; the old one ends. */
  viewAs: post('/role/view_as', { button: 'role:view-as' }, viewAsBody, answer<SessionKeyAnswer>(), { audit: false }),
  /** Back to the own role (the viewed role need not hold role:view-as): a new key; the viewing one ends. */
  viewAsExit: post('/role/view_as_exit', { session: true, kind: 'admin' }, noInput, answer<SessionKeyAnswer>(), { audit: false }),

  // Admin users (`/jurisdiction/admin_user`). Writes answer the user's row.
  adminList: get('/admin/list', { page: 'AdminUserManage' }, adminListQuery, answer<ListResult<AdminRow>>()),
  adminDetail: get('/admin/detail', { page: 'AdminUserManage' }, idBody, answer<AdminRow>()),
  /** Every role (super role first), for the user form's picker and the list filter. */
  adminRoleOptions: get('/admin/role_options', { page: 'AdminUserManage' }, noInput, answer<RoleOption[]>()),
  adminAdd: post('/admin/add', { button: 'admin:add' }, adminAddBody, answer<AdminRow>(), { audit: 'admin', stepUp: true }),
  /** Name, phone and role. */
  adminEdit: post('/admin/edit', { button: 'admin:edit' }, adminEditBody, answer<AdminRow>(), { audit: 'admin', stepUp: true }),
  /** Never oneself nor the last enabled super-admin; the user's sessions end. */
  adminRemove: post('/admin/del', { button: 'admin:delete' }, idBody, nullAnswer, { audit: 'admin' }),
});

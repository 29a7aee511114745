import { defineEndpoints } from '../endpoint';
import { z } from 'zod';
import type { L10n } from '../i18n';
import { listQuery, optionalText } from './common';

/*
 * Platform access control (`/jurisdiction`, grade 0): menu nodes, roles and admin users.
 * Reads take the page, writes the page's buttons (routes.ts: MenuManage, RoleManage, AdminUserManage).
 */

const id = z.coerce.number().int().positive();
/** A 0/1 flag as JSON or query text (true/false accepted too). */
const flag01 = z.union([z.literal(0), z.literal(1), z.boolean(), z.enum(['0', '1', 'true', 'false'])])
  .transform((v) => (v === 1 || v === true || v === '1' || v === 'true' ? 1 : 0) as 0 | 1);
const optionalFlag = z.enum(['0', '1', 'true', 'false']).optional().transform((v) => (v === undefined ? undefined : v === '1' || v === 'true'));

export const idBody = z.object({ id });
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

const parentId = z.union([z.null(), z.coerce.number().int().min(0)]);
const menuType = z.coerce.number().int().pipe(z.union([z.literal(1), z.literal(2), z.literal(3)]));
const menuSign = z.string().trim().regex(MENU_SIGN_RE);
const menuIcon = z.string().trim().max(50).nullable().transform((v) => (v ? v : null));
const menuSort = z.coerce.number().int().min(-1_000_000).max(1_000_000);

export const menuAddBody = z.object({
  /** Null, 0 or omitted for a top-level node. */
  parent_id: parentId.optional().transform((v) => (v ? v : null)),
  type: menuType,
  title: menuTitleSchema,
  sign: menuSign,
  icon: menuIcon.optional().transform((v) => v ?? null),
  sort: menuSort.default(0),
  hidden: flag01.default(0),
});
export type MenuAddBody = z.infer<typeof menuAddBody>;
/** Omitted fields keep their values (parent_id null or 0 moves a node to the top level). */
export const menuEditBody = z.object({
  id,
  parent_id: parentId.optional().transform((v) => (v === undefined ? undefined : v || null)),
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

const roleFields = {
  name: z.string().trim().min(1).max(50),
  description: z.string().trim().max(200).optional().default(''),
  /** Spec §9: a role is enabled unless told otherwise. */
  status: flag01.default(1).transform((v) => v === 1),
  menu_ids: z.array(id).max(2000).optional(),
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
export interface RoleOption { id: number; name: string; status: boolean; is_super: boolean }
export interface SessionKeyAnswer { key: string }

// ---------------------------------------------------------------------------------------- admin users

export const ADMIN_SORTS = ['username', 'name', 'status', 'last_login_at', 'created_at'] as const;
export const adminListQuery = listQuery({
  keyword: optionalText(64),
  role_id: id.optional(),
  status: z.enum(['0', '1']).optional().transform((v) => (v === undefined ? undefined : (Number(v) as 0 | 1))),
}, ADMIN_SORTS);
export type AdminListQuery = z.infer<typeof adminListQuery>;

export const ADMIN_USERNAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.@-]{1,63}$/;
const adminFields = {
  name: z.string().trim().min(1).max(50),
  phone: z.string().trim().max(30).regex(/^[0-9+\-() ]*$/).optional().default(''),
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

// STUB: the module's endpoint table (to be filled).
export const jurisdictionApi = defineEndpoints('jurisdiction', {});

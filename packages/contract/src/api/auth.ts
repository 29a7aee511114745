import { defineEndpoints } from '../endpoint';
import { z } from 'zod';

export const loginBody = z.object({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(200),
});
export type LoginBody = z.infer<typeof loginBody>;
export interface LoginAnswer { key: string; id: number }

/** A node of role_data: the menu tree as the admin's role sees it. Type 1 directory, 2 page, 3 button. */
export interface RoleNode {
  id: number;
  type: 1 | 2 | 3;
  sign: string;
  title: import('../i18n').L10n;
  icon?: string | null;
  sort: number;
  hidden: 0 | 1;
  children: RoleNode[];
}

export interface MemberInfo {
  id: number;
  username: string;
  name: string;
  avatar: string;
  introduction: string;
  role_data: RoleNode[];
  role: { id: number; name: string; is_super: boolean };
  /** Set while a super-admin views the console as another role. */
  viewing_as: { id: number; name: string } | null;
}

export interface InstitutionInfo {
  id: number;
  username: string;
  name: string;
  avatar: string;
  introduction: string;
  institution_grade: 1 | 2 | 3;
  term_expires_at: string | null;
  overdue: boolean;
}

export const modifyFieldBody = z.object({
  id: z.coerce.number().int().positive(),
  field: z.enum(['password', 'status']),
  value: z.union([z.string(), z.number()]),
});
export type ModifyFieldBody = z.infer<typeof modifyFieldBody>;

// STUB: the module's endpoint table (to be filled).
export const authApi = defineEndpoints('auth', {});

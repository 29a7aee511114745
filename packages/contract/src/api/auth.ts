import { z } from 'zod';
import { answer, defineEndpoints, get, idSchema, noInput, nullAnswer, post } from '../endpoint';
import { codeText } from './mfa';

/*
 * Sign-in and sessions (spec §4, §7): the two sign-ins, sign-out, the signed-in caller's own info, and
 * POST /member/modify_field (own password; another admin's password or status). The endpoint table is
 * `authApi` at the end of this file.
 */

export const loginBody = z.object({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(200),
});
export type LoginBody = z.infer<typeof loginBody>;
export interface LoginAnswer {
  key: string;
  id: number;
}
/** A sign-in's answer: the key, or (an account with a second factor) a challenge for `POST /login/mfa`. */
export type SignInAnswer = LoginAnswer | import('./mfa').MfaChallengeAnswer;

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
  /** The session reaches only the second factor's setup until one is enabled (parameter `mfa_required_admins`). */
  mfa_setup_required?: boolean;
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

/**
 * `{ id, field, value }`: `password` (the new password, checked by the server against the system
 * minimum) or `status` (0/1). Parsed, a password arrives as `password`, so that it is kept out of the
 * audit trail and logs like every other password field.
 */
export const modifyFieldBody = z
  .object({
    id: idSchema,
    field: z.enum(['password', 'status']),
    value: z.union([z.string(), z.number()]),
  })
  .transform(({ id, field, value }) => (field === 'password' ? { id, field, password: value } : { id, field, value }));
export type ModifyFieldBody = z.infer<typeof modifyFieldBody>;

/**
 * Step-up (trust-api.md): the account's password, or, with a second factor, a current code (or a recovery
 * code). The code is parsed into `passcode`, a name the audit trail and logs redact.
 */
export const reauthBody = z
  .union([z.object({ password: z.string().min(1).max(200) }), z.object({ code: codeText.min(1) })])
  .transform((b): { password: string } | { passcode: string } => ('password' in b ? { password: b.password } : { passcode: b.code }));
export type ReauthBody = z.infer<typeof reauthBody>;
export interface ReauthAnswer {
  /** Until when the calling session counts as re-authenticated (ISO 8601). */
  until: string;
}

export const authApi = defineEndpoints('auth', {
  /** Platform admins' sign-in. One message for an unknown user and a wrong password; failures are throttled. */
  login: post('/login/login', { public: true }, loginBody, answer<SignInAnswer>(), { audit: false }),
  /** Institutions' sign-in (same rules). */
  institutionLogin: post('/login/institution_login', { public: true }, loginBody, answer<SignInAnswer>(), { audit: false }),
  /** Ends the calling session (an overdue institution's restricted key too). */
  logout: post('/login/logout', { session: true, restricted: true, mfaSetup: true }, noInput, nullAnswer, { audit: false }),
  /** The signed-in admin: profile, role, role_data (its menu tree) and the role viewed as. */
  memberInfo: get('/member/get_member', { session: true, kind: 'admin', mfaSetup: true }, noInput, answer<MemberInfo>()),
  /** The signed-in institution (an overdue one's restricted key too). */
  institutionInfo: get('/institution/get_institution_info', { session: true, kind: 'institution', restricted: true }, noInput, answer<InstitutionInfo>()),
  /**
   * One whitelisted field of an account: anyone its own password; another admin's password or status
   * with admin:reset-password / admin:status (a super-admin's: super-admins only); an institution only
   * its own password.
   */
  /** Step-up: marks the calling session re-authenticated for the `reauth_minutes` parameter. Wrong passwords are throttled like sign-ins. */
  reauth: post('/auth/reauth', { session: true }, reauthBody, answer<ReauthAnswer>(), { audit: false }),
  modifyField: post('/member/modify_field', { session: true }, modifyFieldBody, nullAnswer, { audit: 'admin', stepUp: true }),
});

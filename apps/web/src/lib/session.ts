/**
 * The session (spec §3 "User session", §4): token in the Admin-Token cookie, user id, grade and admin
 * flag in localStorage, read when this module loads so a refresh starts with them. State only: the
 * actions that call the server live in auth.ts (the api client reads this store).
 */
import { create } from 'zustand';
import type { MemberInfo, RoleNode } from '@app/contract/api/auth';
import { getToken, readJson, removeKey, removeToken, setToken, writeJson } from './storage';

export interface SessionState {
  token: string | null;
  userId: number | null;
  /** 0 for admins; the institution grade once known; null before the first info call of an institution. */
  grade: number | null;
  isAdmin: boolean;
  username: string;
  name: string;
  avatar: string;
  introduction: string;
  /** Empty until user info is loaded; then ['admin'] (spec §6). */
  roles: string[];
  /** Admin menu tree: the non-button nodes of role_data. */
  zcrouter: RoleNode[];
  /** Admin button grants: type-3 nodes of role_data with hidden 0. */
  zcbtn: Record<string, true>;
  /** The institution's term has expired (code 998 or info.overdue). */
  showOverdue: boolean;
  termExpiresAt: string | null;
  /** An admin's own role (MemberInfo.role): rules about roles and admins depend on it. Null for institutions. */
  role: MemberInfo['role'] | null;
  /** Set while a super-admin views the console as another role (MemberInfo.viewing_as). */
  viewingAs: MemberInfo['viewing_as'];
  /** An admin whose session reaches only the second factor's setup (MemberInfo.mfa_setup_required). */
  mfaSetupRequired: boolean;
}

const blank = {
  username: '',
  name: '',
  avatar: '',
  introduction: '',
  roles: [] as string[],
  zcrouter: [] as RoleNode[],
  zcbtn: {} as Record<string, true>,
  showOverdue: false,
  termExpiresAt: null,
  role: null,
  viewingAs: null,
  mfaSetupRequired: false,
};

function load(): SessionState {
  const isAdmin = readJson<unknown>('isAdmin', 0) === 1;
  const grade = readJson<unknown>('grade', null);
  const userId = readJson<unknown>('userId', null);
  return {
    ...blank,
    token: getToken(),
    userId: typeof userId === 'number' ? userId : null,
    grade: isAdmin ? 0 : typeof grade === 'number' ? grade : null,
    isAdmin,
  };
}

export const useSession = create<SessionState>()(() => load());

export const sessionActions = {
  setToken(token: string) {
    setToken(token);
    useSession.setState({ token });
  },
  setIdentity(userId: number, isAdmin: boolean) {
    writeJson('userId', userId);
    writeJson('isAdmin', isAdmin ? 1 : 0);
    if (isAdmin) writeJson('grade', 0);
    else removeKey('grade');
    useSession.setState({ userId, isAdmin, grade: isAdmin ? 0 : null });
  },
  setGrade(grade: number) {
    writeJson('grade', grade);
    useSession.setState({ grade });
  },
  /** Code 998: the overdue flag and the new (restricted) key. */
  setOverdue(newKey?: string) {
    if (newKey) {
      setToken(newKey);
      useSession.setState({ token: newKey, showOverdue: true });
    } else useSession.setState({ showOverdue: true });
  },
  /** Spec §4 reset-token: token, roles, admin flag and grade. */
  resetToken() {
    removeToken();
    removeKey('isAdmin');
    removeKey('grade');
    useSession.setState({ token: null, roles: [], isAdmin: false, grade: null });
  },
  /** Logout (spec §4): admin flag, grade, name, menu, token, user id, roles, avatar, and the rest. */
  clearAll() {
    removeToken();
    for (const k of ['isAdmin', 'grade', 'userId']) removeKey(k);
    useSession.setState({ ...blank, token: null, userId: null, grade: null, isAdmin: false });
  },
};

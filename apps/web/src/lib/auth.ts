/**
 * Session actions (spec §4): login, user info, logout, reset, and applySession for "view as role".
 */
import type { LoginAnswer, SignInAnswer } from '@app/contract/api/auth';
import { call, type Answer } from './api';
import { useSession, sessionActions } from './session';
import { buttonMapOf, menuNodesOf } from './access';
import { runSessionReset } from './session-reset';
import { useTabs } from './tabs';
import { t } from './i18n';
import { resetExpiredDialog } from './api/expired-dialog';

export type LoginKind = 'platform' | 'institution';

/**
 * Signs in; the username is trimmed (spec §5). Failures reach the caller (and are not toasted). An
 * account with a second factor answers a challenge instead of a key: the caller asks for the code and
 * finishes with `loginSecondFactor`.
 */
export async function login(kind: LoginKind, username: string, password: string): Promise<SignInAnswer> {
  // A previous account's state must not leak into this one (ui.md).
  sessionActions.clearAll();
  useTabs.getState().reset();
  runSessionReset();
  const answer = await call(kind === 'platform' ? 'auth.login' : 'auth.institutionLogin', { username: username.trim(), password }, { silent: true });
  if ('mfa_required' in answer) return answer;
  return adoptSignIn(kind, answer);
}

/** The sign-in's second step: the challenge and a code (or a recovery code) for the key. */
export async function loginSecondFactor(kind: LoginKind, challenge: string, code: string): Promise<LoginAnswer> {
  const answer = await call('mfa.login', { challenge, code: code.trim() }, { silent: true });
  return adoptSignIn(kind, answer);
}

function adoptSignIn(kind: LoginKind, answer: LoginAnswer): LoginAnswer {
  sessionActions.setToken(answer.key);
  sessionActions.setIdentity(answer.id, kind === 'platform');
  resetExpiredDialog();
  return answer;
}

let infoInflight: Promise<void> | null = null;

/**
 * Loads user info and sets roles to ['admin'] (spec §6). Throws 'Verification failed…' on an empty
 * answer. Concurrent callers (the guard, applySession) share one call.
 */
export function loadUserInfo(): Promise<void> {
  infoInflight ??= fetchUserInfo().finally(() => {
    infoInflight = null;
  });
  return infoInflight;
}

async function fetchUserInfo(): Promise<void> {
  const { isAdmin } = useSession.getState();
  if (isAdmin) {
    const info = (await call('auth.memberInfo', {}, { quietExpired: true })) as Answer<'auth.memberInfo'> | null;
    if (!info?.username) throw new Error(t('session.verifyFailed'));
    const zcrouter = menuNodesOf(info.role_data ?? []);
    useSession.setState({
      username: info.username,
      name: info.name || info.username,
      avatar: info.avatar ?? '',
      introduction: info.introduction ?? '',
      zcrouter,
      zcbtn: buttonMapOf(info.role_data ?? []),
      role: info.role ?? null,
      viewingAs: info.viewing_as ?? null,
      mfaSetupRequired: !!info.mfa_setup_required,
      roles: ['admin'],
      showOverdue: false,
    });
    return;
  }
  const info = (await call('auth.institutionInfo', {}, { quietExpired: true })) as Answer<'auth.institutionInfo'> | null;
  if (!info?.username) throw new Error(t('session.verifyFailed'));
  sessionActions.setGrade(info.institution_grade);
  useSession.setState({
    username: info.username,
    name: info.name || info.username,
    avatar: info.avatar ?? '',
    introduction: info.introduction ?? '',
    zcrouter: [],
    zcbtn: {},
    role: null,
    viewingAs: null,
    mfaSetupRequired: false,
    termExpiresAt: info.term_expires_at,
    showOverdue: !!info.overdue,
    roles: ['admin'],
  });
}

/** Clears everything of spec §4, closes all tabs and drops cached queries. Local part of logout. */
export function clearSession() {
  sessionActions.clearAll();
  useTabs.getState().reset();
  runSessionReset();
}

/** Signs out on the server (auth.logout), then clears locally whatever the server said. */
export async function logout(): Promise<void> {
  try {
    if (useSession.getState().token) await call('auth.logout', {}, { silent: true });
  } catch {
    // The local session is cleared anyway.
  }
  clearSession();
}

/** Spec §4 reset-token. */
export function resetToken() {
  sessionActions.resetToken();
}

/**
 * Adopts another session key (view as role): stores it, reloads user info (which regenerates the
 * routes and menu), closes all tabs and drops cached queries of the previous identity.
 */
export async function applySession(key: string): Promise<void> {
  sessionActions.setToken(key);
  useSession.setState({ roles: [] });
  useTabs.getState().reset();
  runSessionReset();
  await loadUserInfo();
}

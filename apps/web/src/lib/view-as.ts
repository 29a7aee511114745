/**
 * "View as role" (a super-admin sees the console exactly as another role): both switches adopt the key
 * the server answers (applySession: user info reloads, routes and menu regenerate, tabs close, cached
 * queries go). Where the switch started is remembered, so "Return to my role" goes back there.
 */
import { call } from './api';
import { applySession } from './auth';
import { buildAccess } from './access';
import { isBuilt } from './pages';
import { currentLang } from './i18n';
import { landingPath } from './landing';
import { useSession } from './session';
import { readJson, removeKey, writeJson } from './storage';

const RETURN_KEY = 'viewAsReturn';

/** Where the current identity lands (see lib/landing), from the session as it is now. */
export function currentLandingPath(preferred?: string | null): string {
  return landingPath(buildAccess(useSession.getState(), currentLang(), isBuilt), { preferred });
}

/**
 * jurisdiction.viewAs {role_id} -> {key}. `from` (the page the switch starts on) is where
 * exitViewAs() comes back to. The old key is dead from then on; navigate to currentLandingPath().
 */
export async function startViewAs(roleId: number, from?: string): Promise<void> {
  const { key } = await call('jurisdiction.viewAs', { role_id: roleId });
  writeJson(RETURN_KEY, from ?? null);
  await applySession(key);
}

/**
 * jurisdiction.viewAsExit -> {key} -> applySession(key), then navigate to the page the switch started
 * on when the own role may open it, else to the landing page (home, or the first page of the menu).
 * Failures reach the caller (the api client has shown them) and leave the session as it was.
 */
export async function exitViewAs(navigate: (to: string, opts: { replace: boolean }) => void): Promise<void> {
  const { key } = await call('jurisdiction.viewAsExit', {});
  await applySession(key);
  const back = readJson<string | null>(RETURN_KEY, null);
  removeKey(RETURN_KEY);
  navigate(currentLandingPath(typeof back === 'string' ? back : null), { replace: true });
}

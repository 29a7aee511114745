/**
 * Navigation guard (spec §4): without a token only /login and /auth-redirect; with a token /login
 * goes to ?redirect= or the landing page (lib/landing); until roles are loaded, user info is fetched
 * first (so a refresh on a deep link lands on that page), and a failure resets the token and goes to
 * /login?redirect={path}.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { useSession } from '../lib/session';
import { loadUserInfo, resetToken } from '../lib/auth';
import { useAccessModel } from '../lib/access';
import { landingPath, safeRedirect } from '../lib/landing';
import { FullPageSpin } from './FullPageSpin';

/** Where an admin restricted for want of a second factor is sent (the Security page's enrolment). */
const MFA_SETUP_PATH = '/account/security';

export const loginPath = (fullPath: string) => (fullPath && fullPath !== '/' ? `/login?redirect=${encodeURIComponent(fullPath)}` : '/login');

export function RequireSession({ children }: { children: ReactNode }) {
  const token = useSession((s) => s.token);
  const loaded = useSession((s) => s.roles.length > 0);
  const mfaSetupRequired = useSession((s) => s.mfaSetupRequired);
  const location = useLocation();
  const fullPath = location.pathname + location.search + location.hash;
  const [failed, setFailed] = useState<{ path: string; error: string } | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads user info once per token; fullPath is only where to come back after a failure, and a navigation meanwhile must not start another load
  useEffect(() => {
    if (!token || loaded) return;
    let cancelled = false;
    loadUserInfo().catch((err: unknown) => {
      if (cancelled) return;
      const text = err instanceof Error ? err.message : String(err);
      setFailed({ path: fullPath, error: text });
      resetToken();
    });
    return () => {
      cancelled = true;
    };
  }, [token, loaded]);

  // The login page shows why the user landed there (it has no toast container of its own).
  if (!token) return <Navigate to={loginPath(failed?.path ?? fullPath)} replace state={failed ? { error: failed.error } : undefined} />;
  if (!loaded) return <FullPageSpin />;
  // An admin who must set up a second factor first (`mfa_required_admins`) sees the Security page only.
  if (mfaSetupRequired && location.pathname !== MFA_SETUP_PATH) return <Navigate to={MFA_SETUP_PATH} replace />;
  return <>{children}</>;
}

/** /login: a signed-in user (e.g. just now) goes to ?redirect=, else to their landing page (`/`). */
export function PublicOnly({ children }: { children: ReactNode }) {
  const token = useSession((s) => s.token);
  const [params] = useSearchParams();
  if (token) return <Navigate to={safeRedirect(params.get('redirect'), '/')} replace />;
  return <>{children}</>;
}

/**
 * `/` (inside RequireSession, so user info is loaded): ?redirect= if given, else /dashboard/index when
 * the user may open it (spec), else the first page of their menu, else /401 (lib/landing).
 */
export function Landing() {
  const access = useAccessModel();
  const [params] = useSearchParams();
  return <Navigate to={landingPath(access, { redirect: safeRedirect(params.get('redirect'), '') || null })} replace />;
}

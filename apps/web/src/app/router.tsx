/**
 * Routes (spec §2): public /login, /auth-redirect, /404, /401, /share/:token (a shared report); / -> the landing page (/dashboard/index
 * for whoever may open it, else the first page of the user's menu, lib/landing); everything else
 * goes through the guard into the lazily loaded shell, which registers the permitted routes before its
 * catch-all. The login route loads neither the shell nor any page: it is in the boot code.
 */
// First: the unsaved-changes guard's back/forward listener goes on window before the router's.
import '../components/nav-guard';
import { lazy, Suspense, useLayoutEffect } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router';
import { Landing, PublicOnly, RequireSession } from './guard';
import { FullPageSpin } from './FullPageSpin';
import { LANGS } from '@app/contract/i18n';
import LoginPage from '../features/auth/LoginPage';
import authLocales from '../features/auth/locales';
import { i18n } from '../lib/i18n';
import { registerShell } from '../lib/pages';
import { pageShown } from '../lib/early';

// The login page is the first page most visitors load: it comes with the boot code and its strings,
// so it renders at the first render, in place of the static copy index.html paints (no second wave).
for (const lang of LANGS) i18n.addResourceBundle(lang, 'auth', authLocales[lang], true, false);
const AuthRedirectPage = lazy(() => import('../features/auth/AuthRedirectPage'));
const NotFoundPage = lazy(() => import('../features/errors/ErrorPages').then((m) => ({ default: m.NotFoundPage })));
const ForbiddenPage = lazy(() => import('../features/errors/ErrorPages').then((m) => ({ default: m.ForbiddenPage })));
// The page a clinic shares with the person (/share/<token>): public, outside the shell.
const SharePage = lazy(() => import('../features/inspections/SharePage'));
const loadLayout = () => import('../shell/Layout');
const Layout = lazy(loadLayout);
registerShell(loadLayout);

/** Tells lib/early which address is shown, before the calls of its page leave (a layout effect runs first). */
function EarlyPages() {
  const { pathname, search } = useLocation();
  useLayoutEffect(() => pageShown(pathname + search), [pathname, search]);
  return null;
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <EarlyPages />
      <Suspense fallback={<FullPageSpin />}>
        <Routes>
          <Route
            path="/"
            element={
              <RequireSession>
                <Landing />
              </RequireSession>
            }
          />
          <Route
            path="/login"
            element={
              <PublicOnly>
                <LoginPage />
              </PublicOnly>
            }
          />
          <Route path="/auth-redirect" element={<AuthRedirectPage />} />
          <Route path="/share/:token" element={<SharePage />} />
          <Route path="/404" element={<NotFoundPage />} />
          <Route path="/401" element={<ForbiddenPage />} />
          <Route
            path="/*"
            element={
              <RequireSession>
                <Layout />
              </RequireSession>
            }
          />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}

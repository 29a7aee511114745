/**
 * Routes of the content area other than pages (which KeepAlive renders): /redirect/* for tag
 * refresh, parents that redirect to a child, and the fallback (401 for a route the user cannot open,
 * 404 for an unknown or unbuilt one).
 */
import { useEffect } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { flattenRoutes, type RouteDef } from '@app/contract/routes';
import { useTabs } from '../lib/tabs';
import { isBuilt } from '../lib/pages';
import { matchAnyRoute } from './route-match';

function RedirectPage() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const target = location.pathname.replace(/^\/redirect/, '') || '/';
    useTabs.getState().refresh(target);
    navigate(target + location.search + location.hash, { replace: true });
  }, [location, navigate]);
  return null;
}

function Unavailable() {
  const { pathname } = useLocation();
  const route = matchAnyRoute(pathname);
  const built = route ? (route.children ? flattenRoutes(route.children).some((r) => isBuilt(r.name)) : isBuilt(route.name)) : false;
  return <Navigate to={built ? '/401' : '/404'} replace />;
}

/** Where a permitted parent leads: its redirect when that child is permitted, else its first permitted page. */
function parentTarget(parent: RouteDef): string | null {
  const leaves = flattenRoutes(parent.children ?? []).filter((r) => !r.children && !r.path.includes(':'));
  if (parent.redirect && leaves.some((l) => l.path === parent.redirect)) return parent.redirect;
  return leaves[0]?.path ?? null;
}

export function ContentRoutes({ routes, pages }: { routes: RouteDef[]; pages: RouteDef[] }) {
  const parents = flattenRoutes(routes).filter((r) => r.children?.length);
  return (
    <Routes>
      <Route path="/redirect/*" element={<RedirectPage />} />
      {parents.map((p) => {
        const to = parentTarget(p);
        return to && to !== p.path ? <Route key={p.name} path={p.path} element={<Navigate to={to} replace />} /> : null;
      })}
      {pages.map((p) => (
        <Route key={p.name} path={p.path} element={null} />
      ))}
      <Route path="*" element={<Unavailable />} />
    </Routes>
  );
}

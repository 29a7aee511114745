import { matchPath } from 'react-router';
import { ROUTES, type RouteDef } from '@app/contract/routes';

export interface PageMatch {
  route: RouteDef;
  params: Record<string, string | undefined>;
}

/** The permitted page a pathname opens, if any. */
export function matchPage(pathname: string, pages: RouteDef[]): PageMatch | null {
  for (const route of pages) {
    const m = matchPath({ path: route.path, end: true }, pathname);
    if (m) return { route, params: m.params };
  }
  return null;
}

/** The route and its ancestors in the contract table, outermost first. */
export function routeChain(name: string, routes: readonly RouteDef[] = ROUTES): RouteDef[] {
  for (const r of routes) {
    if (r.name === name) return [r];
    if (r.children) {
      const sub = routeChain(name, r.children);
      if (sub.length) return [r, ...sub];
    }
  }
  return [];
}

/** Any contract route (page or parent) at this pathname: tells 401 (exists) from 404 (unknown). */
export function matchAnyRoute(pathname: string, routes: readonly RouteDef[] = ROUTES): RouteDef | null {
  for (const r of routes) {
    if (matchPath({ path: r.path, end: true }, pathname)) return r;
    if (r.children) {
      const sub = matchAnyRoute(pathname, r.children);
      if (sub) return sub;
    }
  }
  return null;
}

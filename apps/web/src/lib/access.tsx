/**
 * Access (spec §2 menu visibility, §6): the contract decides; this file only builds the contract's
 * Viewer from the session and offers hooks. Institutions: grade. Admins: the signs granted by
 * role_data (every non-button node, and button nodes whose hidden flag is 0).
 */
import { useMemo, type ReactNode } from 'react';
import { accessibleRoutes, buildMenu, canUseButton, canOpenRoute, type MenuEntry, type Viewer } from '@app/contract/access';
import { ROUTES, flattenRoutes, type ButtonKey, type RouteDef } from '@app/contract/routes';
import { pickText, type L10n, type Lang } from '@app/contract/i18n';
import type { Grade } from '@app/contract/constants';
import type { RoleNode } from '@app/contract/api/auth';
import { useSession, type SessionState } from './session';
import { useSettings } from './settings';
import { isBuilt as hasPage } from './pages';

export function viewerOf(s: Pick<SessionState, 'isAdmin' | 'grade' | 'zcrouter' | 'zcbtn' | 'roles'>): Viewer {
  if (!s.isAdmin) return { isAdmin: false, grade: (s.grade ?? 0) as Grade, roles: s.roles.length ? s.roles : ['admin'] };
  const granted = new Set<string>(Object.keys(s.zcbtn));
  walk(s.zcrouter, (n) => granted.add(n.sign));
  return { isAdmin: true, grade: 0, roles: s.roles.length ? s.roles : ['admin'], granted };
}

function walk(nodes: RoleNode[], fn: (n: RoleNode) => void) {
  for (const n of nodes) {
    fn(n);
    if (n.children?.length) walk(n.children, fn);
  }
}

/** Non-button role_data nodes: the admin menu tree (zcrouter). */
export function menuNodesOf(roleData: RoleNode[]): RoleNode[] {
  return roleData.filter((n) => n.type !== 3).map((n) => ({ ...n, children: menuNodesOf(n.children ?? []) }));
}

/** Type-3 nodes with hidden 0: the admin button map (zcbtn). */
export function buttonMapOf(roleData: RoleNode[]): Record<string, true> {
  const out: Record<string, true> = {};
  const visit = (nodes: RoleNode[]) =>
    nodes.forEach((n) => {
      if (n.type === 3 && n.hidden === 0) out[n.sign] = true;
      visit(n.children ?? []);
    });
  visit(roleData);
  return out;
}

/** Signs of non-button nodes flagged hidden: left out of the admin's menu. */
export function menuHiddenOf(zcrouter: RoleNode[]): Set<string> {
  const out = new Set<string>();
  walk(zcrouter, (n) => {
    if (n.hidden === 1) out.add(n.sign);
  });
  return out;
}

/** For admins, the menu editor's titles, icons and order (role_data) override the contract's. */
export interface NodeOverrides {
  title: Map<string, L10n>;
  icon: Map<string, string>;
  sort: Map<string, number>;
}
export function nodeOverridesOf(zcrouter: RoleNode[]): NodeOverrides {
  const o: NodeOverrides = { title: new Map(), icon: new Map(), sort: new Map() };
  walk(zcrouter, (n) => {
    if (n.title) o.title.set(n.sign, n.title);
    if (n.icon) o.icon.set(n.sign, n.icon);
    o.sort.set(n.sign, n.sort);
  });
  return o;
}

/** The route table re-ordered by the admin's role_data sort values (stable for unknown nodes). */
export function orderedRoutes(routes: readonly RouteDef[], sort: Map<string, number>): readonly RouteDef[] {
  if (!sort.size) return routes;
  const keyed = routes.map((r, i) => ({ r, i, s: sort.get(r.name) ?? Number.MAX_SAFE_INTEGER }));
  keyed.sort((a, b) => a.s - b.s || a.i - b.i);
  return keyed.map(({ r }) => (r.children ? { ...r, children: orderedRoutes(r.children, sort) } : r));
}

export interface AccessModel {
  viewer: Viewer;
  /** Permitted routes (tree) with a client page. */
  routes: RouteDef[];
  /** Permitted leaf routes, flat. */
  pages: RouteDef[];
  menu: MenuEntry[];
  can: (sign: ButtonKey) => boolean;
  canOpen: (route: RouteDef) => boolean;
  /** Title of a route or menu entry in the current language. */
  title: (name: string, fallback?: L10n) => string;
  icon: (name: string, fallback?: string) => string | undefined;
}

/** Pure: everything the shell needs from the session, given which pages the client has. */
export function buildAccess(s: Pick<SessionState, 'isAdmin' | 'grade' | 'zcrouter' | 'zcbtn' | 'roles'>, lang: Lang, isBuilt: (name: string) => boolean, base?: readonly RouteDef[]): AccessModel {
  const viewer = viewerOf(s);
  const overrides = s.isAdmin ? nodeOverridesOf(s.zcrouter) : null;
  const table = overrides ? orderedRoutes(base ?? ROUTES, overrides.sort) : base;
  const routes = accessibleRoutes(viewer, { isBuilt, routes: table });
  const menu = buildMenu(viewer, { isBuilt, menuHidden: s.isAdmin ? menuHiddenOf(s.zcrouter) : undefined, routes: table });
  const byName = new Map(flattenRoutes().map((r) => [r.name, r]));
  return {
    viewer,
    routes,
    pages: flattenRoutes(routes).filter((r) => !r.children),
    menu,
    can: (sign) => canUseButton(sign, viewer),
    canOpen: (route) => canOpenRoute(route, viewer),
    title: (name, fallback) => pickText(overrides?.title.get(name) ?? fallback ?? byName.get(name)?.title, lang),
    icon: (name, fallback) => overrides?.icon.get(name) ?? fallback ?? byName.get(name)?.icon,
  };
}

export function useAccessModel(): AccessModel {
  const isAdmin = useSession((s) => s.isAdmin);
  const grade = useSession((s) => s.grade);
  const zcrouter = useSession((s) => s.zcrouter);
  const zcbtn = useSession((s) => s.zcbtn);
  const roles = useSession((s) => s.roles);
  const lang = useSettings((s) => s.lang);
  return useMemo(() => buildAccess({ isAdmin, grade, zcrouter, zcbtn, roles }, lang, hasPage), [isAdmin, grade, zcrouter, zcbtn, roles, lang]);
}

/** `const { can } = useAccess(); can('package:add')` — buttons follow the contract's canUseButton. */
export function useAccess() {
  const model = useAccessModel();
  return { can: model.can, viewer: model.viewer };
}

/** Renders its children only when the viewer may use the button `sign`. */
export function Access({ sign, children, fallback = null }: { sign: ButtonKey; children: ReactNode; fallback?: ReactNode }) {
  const { can } = useAccess();
  return <>{can(sign) ? children : fallback}</>;
}

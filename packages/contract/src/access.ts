import type { Grade } from './constants';
import { type ButtonKey, flattenRoutes, type PageName, ROUTES, type RouteDef } from './routes';

/** Who is looking: the facts menu visibility and permission checks depend on. */
export interface Viewer {
  isAdmin: boolean;
  /** 0 for admins, the institution grade otherwise. */
  grade: Grade;
  roles?: string[];
  /**
   * For admins: the signs their role grants: route names of its page and directory nodes, and keys of
   * its button nodes whose hidden flag is 0 (spec §6). Null = no restriction (used by internal checks).
   * Ignored for institution users.
   */
  granted?: ReadonlySet<string> | null;
}

/**
 * Grades that reach a route by its address besides its menu grades (domain decision): activation codes
 * (no menu grade) and finance stats (menu grades 1-2; grade 0 opens it for any institution).
 */
const ADDRESS_GRADES: Partial<Record<PageName, readonly Grade[]>> = { ActivationCode: [0], FinanceStats: [0] };

function gradeAllows(route: RouteDef, viewer: Viewer, byAddress: boolean): boolean {
  if (route.grades === null) return true;
  const extra = byAddress ? ADDRESS_GRADES[route.name as PageName] : undefined;
  const grades = extra ? [...route.grades, ...extra] : route.grades;
  return viewer.isAdmin ? grades.includes(0) : grades.includes(viewer.grade);
}

function rolesAllow(route: RouteDef, viewer: Viewer): boolean {
  const roles = viewer.roles ?? ['admin'];
  if (!route.roles || roles.includes('admin')) return true;
  return route.roles.some((r) => roles.includes(r));
}

function grantAllows(sign: string, viewer: Viewer): boolean {
  if (!viewer.isAdmin || viewer.granted == null) return true;
  return viewer.granted.has(sign);
}

/** Whether a page (leaf route) may be opened by this viewer. An account's own (personal) page: by every viewer. */
export function canOpenRoute(route: RouteDef, viewer: Viewer, opts: { byAddress?: boolean } = {}): boolean {
  if (route.personal) return true;
  return gradeAllows(route, viewer, opts.byAddress ?? true) && rolesAllow(route, viewer) && grantAllows(route.name, viewer);
}

/** Whether a button of a page may be used: the page must be open to the viewer, then the button itself. */
export function canUseButton(key: ButtonKey, viewer: Viewer): boolean {
  const route = flattenRoutes().find((r) => r.buttons?.some((b) => b.key === key));
  if (!route || !canOpenRoute(route, viewer)) return false;
  if (viewer.isAdmin) return grantAllows(key, viewer);
  const button = route.buttons!.find((b) => b.key === key)!;
  return (button.grades ?? [0]).includes(viewer.grade);
}

export function canOpenRouteNamed(name: PageName, viewer: Viewer): boolean {
  const route = flattenRoutes().find((r) => r.name === name);
  return !!route && canOpenRoute(route, viewer);
}

/**
 * The routes this viewer may open, as a tree (spec §2 "Menu visibility", applied recursively).
 * A parent stays only while at least one child stays. With isBuilt, screens the client has no page for are dropped.
 */
export function accessibleRoutes(viewer: Viewer, opts: { isBuilt?: (name: string) => boolean; routes?: readonly RouteDef[] } = {}): RouteDef[] {
  const walk = (list: readonly RouteDef[]): RouteDef[] =>
    list.flatMap((route) => {
      if (route.children) {
        if (!gradeAllows(route, viewer, false) || !rolesAllow(route, viewer)) return [];
        const children = walk(route.children);
        return children.length ? [Object.assign({}, route, { children })] : [];
      }
      if (opts.isBuilt && !opts.isBuilt(route.name)) return [];
      return canOpenRoute(route, viewer, { byAddress: true }) ? [route] : [];
    });
  return walk(opts.routes ?? ROUTES);
}

export interface MenuEntry {
  /** Route name of the entry (a parent's, or the page's when the entry opens one page). */
  name: string;
  path: string;
  title: RouteDef['title'];
  icon?: string;
  children?: MenuEntry[];
}

/**
 * The sidebar menu: hidden routes and routes closed to the viewer are left out. A parent with one
 * visible child, or whose permitted children are all hidden, becomes one entry opening its first
 * permitted child (domain.md). Hidden-from-menu signs for admins come from `menuHidden`.
 */
export function buildMenu(viewer: Viewer, opts: { isBuilt?: (name: string) => boolean; menuHidden?: ReadonlySet<string>; routes?: readonly RouteDef[] } = {}): MenuEntry[] {
  const hidden = (r: RouteDef) => r.hidden || opts.menuHidden?.has(r.name) || (r.grades !== null && r.grades.length === 0);
  const toEntries = (list: readonly RouteDef[]): MenuEntry[] =>
    list.flatMap((route): MenuEntry[] => {
      if (!route.children) {
        return hidden(route) ? [] : [{ name: route.name, path: route.path, title: route.title, icon: route.icon }];
      }
      if (opts.menuHidden?.has(route.name)) return [];
      const visible = toEntries(route.children);
      if (visible.length > 1) return [{ name: route.name, path: route.path, title: route.title, icon: route.icon, children: visible }];
      if (visible.length === 1 && !visible[0]!.children) {
        const only = visible[0]!;
        return [Object.assign({}, only, { icon: only.icon ?? route.icon })];
      }
      // Only children the menu may lead to: an empty grade list keeps a page out of every menu.
      const first = route.children.find((c) => !c.children && !c.path.includes(':') && !(c.grades !== null && c.grades.length === 0) && !opts.menuHidden?.has(c.name));
      return first ? [{ name: route.name, path: first.path, title: route.title, icon: route.icon }] : [];
    });
  return toEntries(accessibleRoutes(viewer, opts));
}

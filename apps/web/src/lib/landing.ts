/**
 * Where a signed-in user lands (after sign-in, on `/`, after a role switch): the page asked for, else
 * the home page (/dashboard/index, spec) when the user may open it, else the first page of the user's
 * menu (contract buildMenu order, as the sidebar shows it), else /401 (nothing to open).
 */
import { matchPath } from 'react-router';
import type { MenuEntry } from '@app/contract/access';
import type { RouteDef } from '@app/contract/routes';

export const HOME_PATH = '/dashboard/index';
export const FORBIDDEN_PATH = '/401';

/** A safe in-app target from ?redirect= (no protocol-relative or absolute URLs, not the login page), else `fallback`. */
export function safeRedirect(value: string | null | undefined, fallback = '/'): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || value.startsWith('/login')) return fallback;
  return value;
}

/** Whether `path` (pathname, maybe with ?query/#hash) opens one of these permitted pages. */
export function canOpenPath(path: string, pages: readonly Pick<RouteDef, 'path'>[]): boolean {
  const pathname = path.split(/[?#]/)[0]!;
  return pages.some((p) => matchPath({ path: p.path, end: true }, pathname) !== null);
}

/** The first page of a menu, depth first (a parent entry leads to its first child). */
export function firstMenuPath(menu: readonly MenuEntry[]): string | null {
  for (const e of menu) {
    if (e.children?.length) {
      const hit = firstMenuPath(e.children);
      if (hit) return hit;
    } else if (e.path && !e.path.includes(':')) return e.path;
  }
  return null;
}

export interface LandingOptions {
  /** An explicit target (?redirect=): taken as is; the shell answers 401/404 for what cannot open. */
  redirect?: string | null;
  /** A page to go back to if the user may open it (e.g. where "view as" started); skipped otherwise. */
  preferred?: string | null;
}

/** The landing path for a user with these permitted pages and this menu. */
export function landingPath(access: { pages: readonly Pick<RouteDef, 'path'>[]; menu: readonly MenuEntry[] }, opts: LandingOptions = {}): string {
  if (opts.redirect) return opts.redirect;
  if (opts.preferred && canOpenPath(opts.preferred, access.pages)) return opts.preferred;
  if (canOpenPath(HOME_PATH, access.pages)) return HOME_PATH;
  return firstMenuPath(access.menu) ?? FORBIDDEN_PATH;
}

/**
 * The page registry: route name (contract routes.ts) -> lazy page component, and the feature folder
 * (= i18n namespace) that provides it. lib/ cannot see the features, so the app fills it (app/pages.ts
 * collects every `features/<name>/pages.ts`) before the first render; access and the shell read it.
 */
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { matchPath } from 'react-router';
import { flattenRoutes, ROUTES } from '@app/contract/routes';
import { preloadNamespace } from './i18n';
import { HOME_PATH } from './landing';
import { useSession } from './session';

/** Starts a page's first data call from its address's search params, before the page renders. */
export type PagePrefetch = (search: URLSearchParams) => void;

/**
 * A lazy page; `preload` starts loading its code before it renders (pages made with `page()`), `prefetch`
 * its first data call (given by the page's feature).
 */
export type PageComponent = LazyExoticComponent<ComponentType> & { preload?: () => Promise<unknown>; prefetch?: PagePrefetch };

/**
 * A page for a feature's `pages.ts`: lazy, and preloadable when its address is known ahead. `prefetch`
 * must ask exactly what the page asks first (same endpoint, same input), or the page asks twice.
 */
export function page(load: () => Promise<{ default: ComponentType }>, opts: { prefetch?: PagePrefetch } = {}): PageComponent {
  return Object.assign(lazy(load), { preload: load, prefetch: opts.prefetch });
}
export interface RegisteredPage {
  component: PageComponent;
  /** The feature folder, which is also the i18n namespace of the page's strings. */
  feature: string;
}

const registry = new Map<string, RegisteredPage>();

/** Called by the app for each feature: adds its pages (a name registered twice keeps the later one). */
export function registerPages(feature: string, pages: Record<string, PageComponent>) {
  for (const [name, component] of Object.entries(pages)) {
    if (registry.has(name) && import.meta.env.DEV) console.warn(`[pages] ${name} is registered twice (${feature})`);
    registry.set(name, { component, feature });
  }
}

/** The page of a route name, when the client has one. */
export const pageOf = (name: string): RegisteredPage | undefined => registry.get(name);

/** Whether the client has a page for a route name. */
export const isBuilt = (name: string) => registry.has(name);

const pagesByPath = flattenRoutes(ROUTES).filter((r) => !r.children);

/**
 * Starts loading the code and the strings of the page at this address (when the client has one), so that they download
 * beside the shell and the user info instead of after them (the home page in one wave, not three).
 */
/** The registered page at this pathname, if the client has one. */
function registeredAt(pathname: string): RegisteredPage | undefined {
  const route = pagesByPath.find((r) => matchPath({ path: r.path, end: true }, pathname));
  return route && registry.get(route.name);
}

export function preloadPageAt(pathname: string) {
  const registered = registeredAt(pathname);
  const load = registered?.component.preload;
  if (load) load().catch(() => undefined);
  // The page's strings too: otherwise they are asked for only once the page renders, a wave later.
  if (registered) preloadNamespace(registered.feature);
}

let loadShell: (() => Promise<unknown>) | undefined;
/** The app tells which import loads the shell (lib/ cannot see it). */
export function registerShell(load: () => Promise<unknown>) {
  loadShell = load;
}

/**
 * The first data call of the page at this address (path and query), made now with the session's key:
 * beside the user info instead of after it (the home page's rows one round trip sooner on a slow line).
 * `/` is the home page with no query, as for the code. Nothing without a key, or for a page without a
 * prefetch; the server checks the call like any other.
 */
export function prefetchPageData(target: string) {
  if (!useSession.getState().token) return;
  const [pathname = '', query = ''] = target.split('#')[0]!.split('?');
  const home = !pathname || pathname === '/';
  registeredAt(home ? HOME_PATH : pathname)?.component.prefetch?.(new URLSearchParams(home ? '' : query));
}

/**
 * A signed-in user is about to see this address (a reload, or a sign-in in flight): the shell and the
 * page load now, beside the user info, instead of one after the other, and so does the page's first
 * call when the key is there already (a reload; after a sign-in, `prefetchPageData` once it has the key).
 * `/` lands on the device list for most users (spec), so that page is the guess there.
 */
export function preloadSignedIn(target: string) {
  void loadShell?.().catch(() => undefined);
  const path = target.split(/[?#]/)[0] || '/';
  preloadPageAt(path === '/' ? HOME_PATH : path);
  prefetchPageData(target);
}

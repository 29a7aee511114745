/**
 * The page registry: route name (contract routes.ts) -> lazy page component, and the feature folder
 * (= i18n namespace) that provides it. lib/ cannot see the features, so the app fills it (app/pages.ts
 * collects every `features/<name>/pages.ts`) before the first render; access and the shell read it.
 */
import type { ComponentType, LazyExoticComponent } from 'react';

export type PageComponent = LazyExoticComponent<ComponentType>;
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

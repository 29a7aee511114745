/**
 * The page registry: every `features/<name>/pages.ts` maps route names (contract routes.ts) to lazy
 * page components. Adding a page never touches this file.
 */
import type { ComponentType, LazyExoticComponent } from 'react';
import { setPageRegistry } from '../lib/access';

export type PageComponent = LazyExoticComponent<ComponentType>;
interface PagesModule { pages: Record<string, PageComponent> }

const modules = import.meta.glob<PagesModule>('../features/*/pages.ts', { eager: true });

export const PAGES: Record<string, PageComponent> = {};
/** Route name -> the feature folder (= i18n namespace) that provides it. */
export const PAGE_FEATURE: Record<string, string> = {};
for (const [file, mod] of Object.entries(modules)) {
  const feature = /features\/([^/]+)\/pages\.ts$/.exec(file)![1]!;
  for (const [name, component] of Object.entries(mod.pages ?? {})) {
    if (PAGES[name] && import.meta.env.DEV) console.warn(`[pages] ${name} is registered twice (${file})`);
    PAGES[name] = component;
    PAGE_FEATURE[name] = feature;
  }
}

export const isBuilt = (name: string) => Object.prototype.hasOwnProperty.call(PAGES, name);
setPageRegistry(isBuilt);

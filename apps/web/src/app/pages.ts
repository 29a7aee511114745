/**
 * Fills the page registry (lib/pages.ts): every `features/<name>/pages.ts` maps route names (contract
 * routes.ts) to lazy page components. Adding a page never touches this file.
 */
import { registerPages, type PageComponent } from '../lib/pages';

interface PagesModule {
  pages?: Record<string, PageComponent>;
}

const modules = import.meta.glob<PagesModule>('../features/*/pages.ts', { eager: true });

for (const [file, mod] of Object.entries(modules)) {
  const feature = /features\/([^/]+)\/pages\.ts$/.exec(file)?.[1];
  if (feature) registerPages(feature, mod.pages ?? {});
}

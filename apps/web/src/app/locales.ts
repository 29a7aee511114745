/**
 * Every `features/<name>/locales.ts` becomes the i18next namespace `<name>`, loaded on first use
 * (`useTranslation('<name>')` suspends until it is there; PageHost preloads it with the page).
 */
import { registerNamespaceLoader, type FeatureLocales } from '../lib/i18n';

const loaders = import.meta.glob<{ default: FeatureLocales<unknown> }>('../features/*/locales.ts');

export const FEATURE_NAMESPACES: string[] = [];
for (const [file, load] of Object.entries(loaders)) {
  const ns = /features\/([^/]+)\/locales\.ts$/.exec(file)![1]!;
  FEATURE_NAMESPACES.push(ns);
  registerNamespaceLoader(ns, load);
}

/**
 * i18next set-up. Shell/common strings live in src/locales (namespace "common"); every feature adds its
 * own namespace (the feature's folder name) through app/locales.ts. Initialised synchronously, before
 * the first render, in the saved language.
 */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGS, type Lang } from '@app/contract/i18n';
import zh from '../locales/zh';
import en from '../locales/en';
import es from '../locales/es';
import ja from '../locales/ja';
import type { LocaleShape } from '../locales/types';
import { LANG_TAGS } from './lang';
import { useSettings } from './settings';

export const i18n: I18n = i18next.createInstance();

type Loader = () => Promise<{ default: FeatureLocales<unknown> }>;
const namespaceLoaders = new Map<string, Loader>();

/** Feature namespaces load on first use (a feature's strings travel with its pages, not the login page). */
const lazyNamespaces = {
  type: 'backend' as const,
  init() {},
  read(lang: string, ns: string, callback: (err: unknown, data: object | null) => void) {
    const load = namespaceLoaders.get(ns);
    if (!load) return callback(null, {});
    load().then(
      (m) => callback(null, (m.default as unknown as Record<string, object>)[lang] ?? {}),
      (err) => callback(err, null),
    );
  },
};

void i18n
  .use(initReactI18next)
  .use(lazyNamespaces)
  .init({
    lng: useSettings.getState().lang,
    fallbackLng: 'en',
    supportedLngs: [...LANGS],
    ns: ['common'],
    defaultNS: 'common',
    resources: { zh: { common: zh }, en: { common: en }, es: { common: es }, ja: { common: ja } },
    interpolation: { escapeValue: false },
    partialBundledLanguages: true,
    initAsync: false,
    returnNull: false,
  });

applyLangSideEffects(useSettings.getState().lang);

function applyLangSideEffects(lang: Lang) {
  if (typeof document !== 'undefined') {
    document.documentElement.lang = LANG_TAGS[lang];
  }
}

/** Switches every string of the app, antd's locale (through the settings store) and dayjs (lib/dayjs-locale); saved. */
export function setLanguage(lang: Lang) {
  useSettings.getState().setLangValue(lang);
  applyLangSideEffects(lang);
  void i18n.changeLanguage(lang);
}

export function currentLang(): Lang {
  return useSettings.getState().lang;
}

/** A feature's strings: English is the reference, the other three must have exactly its keys. */
export interface FeatureLocales<T> {
  en: T;
  zh: LocaleShape<T>;
  es: LocaleShape<T>;
  ja: LocaleShape<T>;
}
export function defineLocales<T>(locales: FeatureLocales<T>): FeatureLocales<T> {
  return locales;
}

/** Declares where a feature's namespace comes from (app/locales.ts, for every features/<name>/locales.ts). */
export function registerNamespaceLoader(ns: string, load: Loader) {
  namespaceLoaders.set(ns, load);
}

/** Starts loading a namespace early (e.g. together with a lazy page) so the page does not wait twice. */
export function preloadNamespace(ns: string) {
  if (namespaceLoaders.has(ns)) void i18n.loadNamespaces(ns);
}

/** Translate outside React (api client, stores). */
export const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options) as string;

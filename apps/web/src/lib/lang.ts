import { DEFAULT_LANG, isLang, matchLang, type Lang } from '@app/contract/i18n';

/**
 * The interface language (spec §1): the saved preference, else the browser's languages, else English.
 * Pure so it can be tested; the caller passes what it read from storage and navigator.
 */
export function chooseLang(saved: unknown, browserLangs: readonly string[] | string | null | undefined): Lang {
  if (isLang(saved)) return saved;
  return matchLang(browserLangs ?? null) ?? DEFAULT_LANG;
}

/** Labels of the language picker, each in its own language. */
export const LANG_LABELS: Record<Lang, string> = { zh: '中文', en: 'English', es: 'Español', ja: '日本語' };

/** BCP 47 tags used for Intl formatting and the html lang attribute. */
export const LANG_TAGS: Record<Lang, string> = { zh: 'zh-CN', en: 'en-US', es: 'es-ES', ja: 'ja-JP' };

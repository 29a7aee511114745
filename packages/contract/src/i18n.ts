export const LANGS = ['zh', 'en', 'es', 'ja'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'en';

/** A text in the four product languages. */
export type L10n = Record<Lang, string>;

export function isLang(v: unknown): v is Lang {
  return typeof v === 'string' && (LANGS as readonly string[]).includes(v);
}

/** Picks a product language from a tag list such as navigator.languages or Accept-Language. */
export function matchLang(tags: readonly string[] | string | undefined | null): Lang | null {
  if (!tags) return null;
  const list = typeof tags === 'string' ? tags.split(',').map((t) => t.split(';')[0]!.trim()) : tags;
  for (const tag of list) {
    const base = tag.toLowerCase().split(/[-_]/)[0];
    if (isLang(base)) return base;
  }
  return null;
}

/** Text in the wanted language, falling back to English, then to any non-empty translation. */
export function pickText(text: Partial<L10n> | null | undefined, lang: Lang): string {
  if (!text) return '';
  return text[lang] || text.en || text.zh || text.es || text.ja || '';
}

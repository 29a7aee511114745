/**
 * Multilingual master-data texts (L10n {zh,en,es,ja}) shown in the user's language, with the
 * contract's fallback (en, then any). Used by the master-data features.
 */
import { useCallback } from 'react';
import { LANGS, pickText, type L10n } from '@app/contract/i18n';
import { useSettings } from '../lib/settings';

/** `const text = useText(); text(row.name)`. */
export function useText() {
  const lang = useSettings((s) => s.lang);
  return useCallback((v: Partial<L10n> | null | undefined) => pickText(v, lang), [lang]);
}

/** An empty L10n (form defaults). */
export const emptyL10n = (): L10n => ({ zh: '', en: '', es: '', ja: '' });

/** Trims the four texts (what the server stores). */
export function cleanL10n(v: Partial<L10n> | null | undefined): L10n {
  const out = emptyL10n();
  for (const l of LANGS) out[l] = (v?.[l] ?? '').trim();
  return out;
}

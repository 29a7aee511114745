import { describe, expect, it } from 'vitest';
import { matchLang, pickText } from './i18n';
import { formatMessage, MESSAGES } from './messages';

describe('language choice', () => {
  it('matches browser tags to the product languages', () => {
    expect(matchLang(['zh-CN', 'en'])).toBe('zh');
    expect(matchLang('es-MX,es;q=0.9')).toBe('es');
    expect(matchLang(['fr-FR', 'ja-JP'])).toBe('ja');
    expect(matchLang(['fr-FR', 'de'])).toBeNull();
    expect(matchLang(undefined)).toBeNull();
  });
  it('picks a translation with an English fallback', () => {
    expect(pickText({ zh: '肺', en: 'Lung', es: '', ja: '' }, 'es')).toBe('Lung');
    expect(pickText({ zh: '肺', en: '', es: '', ja: '' }, 'ja')).toBe('肺');
  });
  it('every server message exists in four languages with the same placeholders', () => {
    for (const [key, text] of Object.entries(MESSAGES)) {
      const holes = (s: string) =>
        [...s.matchAll(/\{(\w+)\}/g)]
          .map((m) => m[1])
          .sort()
          .join();
      for (const l of ['zh', 'en', 'es', 'ja'] as const) {
        expect(text[l], `${key}.${l}`).toBeTruthy();
        expect(holes(text[l]), `${key}.${l}`).toBe(holes(text.en));
      }
    }
    expect(formatMessage('passwordTooShort', 'en', { min: 8 })).toBe('The password must have at least 8 characters');
  });
});

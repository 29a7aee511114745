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
  it('a count picks the singular where the language has one (en, es) and never writes "(s)"', () => {
    expect(formatMessage('holderDiseases', 'en', { count: 1, names: 'Flu' })).toBe('1 disease (Flu)');
    expect(formatMessage('holderDiseases', 'en', { count: 2, names: 'Flu, Cold' })).toBe('2 diseases (Flu, Cold)');
    expect(formatMessage('holderSchematics', 'es', { count: 1, names: 'A' })).toBe('1 diagrama (A)');
    expect(formatMessage('holderSchematics', 'es', { count: 3, names: 'A' })).toBe('3 diagramas (A)');
    expect(formatMessage('roleInUse', 'en', { count: 1 })).toBe('Cannot delete: an admin user still holds this role');
    expect(formatMessage('roleInUse', 'en', { count: 0 })).toBe('Cannot delete: 0 admin users still hold this role');
    // Chinese and Japanese have one form for every count.
    expect(formatMessage('menuHasChildren', 'zh', { count: 1 })).toBe(formatMessage('menuHasChildren', 'zh', { count: 2 }).replace('2', '1'));
    expect(formatMessage('deviceImportBadRows', 'ja', { count: 5 })).toContain('5 行');
    const handPlural = /(?<!http)\((s|es)\)/;
    for (const [key, text] of Object.entries(MESSAGES)) for (const l of ['en', 'es'] as const) expect(text[l], `${key}.${l}`).not.toMatch(handPlural);
  });
});

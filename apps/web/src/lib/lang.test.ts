import { describe, expect, it } from 'vitest';
import { chooseLang } from './lang';

describe('chooseLang', () => {
  it('prefers a valid saved preference', () => {
    expect(chooseLang('ja', ['zh-CN'])).toBe('ja');
    expect(chooseLang('es', undefined)).toBe('es');
  });
  it('ignores an invalid saved value and falls back to the browser', () => {
    expect(chooseLang('fr', ['zh-CN', 'en'])).toBe('zh');
    expect(chooseLang(42, ['es-MX'])).toBe('es');
    expect(chooseLang(null, ['fr-FR', 'ja-JP'])).toBe('ja');
  });
  it('accepts an Accept-Language style string', () => {
    expect(chooseLang(undefined, 'de-DE,zh;q=0.8')).toBe('zh');
  });
  it('falls back to English', () => {
    expect(chooseLang(undefined, ['fr-FR', 'de'])).toBe('en');
    expect(chooseLang(undefined, [])).toBe('en');
    expect(chooseLang(undefined, undefined)).toBe('en');
  });
});

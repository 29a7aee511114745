import { describe, expect, it } from 'vitest';
import zh from '../locales/zh';
import en from '../locales/en';
import es from '../locales/es';
import ja from '../locales/ja';

const features = import.meta.glob<{ default: Record<string, unknown> }>('../features/*/locales.ts', { eager: true });

/** Every leaf key ("a.b.c") of a strings object. */
function keys(obj: unknown, prefix = ''): string[] {
  if (typeof obj !== 'object' || obj === null) return [prefix];
  return Object.entries(obj as Record<string, unknown>)
    .flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k))
    .sort();
}

function emptyLeaves(obj: unknown, prefix = ''): string[] {
  if (typeof obj === 'string') return obj.trim() ? [] : [prefix];
  if (typeof obj !== 'object' || obj === null) return [prefix];
  return Object.entries(obj as Record<string, unknown>).flatMap(([k, v]) => emptyLeaves(v, prefix ? `${prefix}.${k}` : k));
}

describe('locales have exactly the English keys', () => {
  it('common', () => {
    const ref = keys(en);
    for (const [lang, strings] of Object.entries({ zh, es, ja })) {
      expect(keys(strings), `common/${lang}`).toEqual(ref);
      expect(emptyLeaves(strings), `common/${lang} empty`).toEqual([]);
    }
  });

  it('finds feature locales', () => {
    expect(Object.keys(features).length).toBeGreaterThan(0);
  });

  for (const [file, mod] of Object.entries(features)) {
    it(file, () => {
      const all = mod.default as Record<string, unknown>;
      expect(Object.keys(all).sort()).toEqual(['en', 'es', 'ja', 'zh']);
      const ref = keys(all.en);
      for (const lang of ['zh', 'es', 'ja']) {
        expect(keys(all[lang]), `${file} ${lang}`).toEqual(ref);
        expect(emptyLeaves(all[lang]), `${file} ${lang} empty`).toEqual([]);
      }
    });
  }
});

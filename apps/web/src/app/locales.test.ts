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

/** Every string leaf with its key. */
function leaves(obj: unknown, prefix = ''): [string, string][] {
  if (typeof obj === 'string') return [[prefix, obj]];
  if (typeof obj !== 'object' || obj === null) return [];
  return Object.entries(obj as Record<string, unknown>).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

/** "user(s)", "nodo(s) hijo(s)", "administrador(es)": a plural written by hand ("http(s)" is a scheme, not a plural). */
const HAND_PLURAL = /(?<!http)\((s|es)\)/;

describe('counts use i18next plurals', () => {
  it('no string writes a plural as "(s)": it has `_one` / `_other` forms and is given `count`', () => {
    const all = { common: { en, es }, ...Object.fromEntries(Object.entries(features).map(([f, m]) => [f, m.default])) };
    const hits = Object.entries(all).flatMap(([file, strings]) =>
      (['en', 'es'] as const).flatMap((lang) =>
        leaves((strings as Record<string, unknown>)[lang])
          .filter(([, text]) => HAND_PLURAL.test(text))
          .map(([key]) => `${file} ${lang} ${key}`),
      ),
    );
    expect(hits).toEqual([]);
  });

  it('a refusal with a count reads in the singular for one and the plural for more', async () => {
    const { i18n } = await import('../lib/i18n');
    const jurisdiction = Object.entries(features).find(([f]) => f.includes('/jurisdiction/'))![1].default;
    await i18n.changeLanguage('en');
    i18n.addResourceBundle('en', 'jurisdiction', jurisdiction.en, true, true);
    i18n.addResourceBundle('es', 'jurisdiction', jurisdiction.es, true, true);
    const t = i18n.getFixedT('en', 'jurisdiction');
    expect(t('why.roleInUse', { count: 1 })).toBe('One admin user still holds this role: move them to another role first');
    expect(t('why.roleInUse', { count: 3 })).toBe('3 admin users still hold this role: move them to another role first');
    expect(t('why.hasChildren', { count: 1 })).toBe('Delete or move its child node first');
    expect(i18n.getFixedT('es', 'jurisdiction')('why.hasChildren', { count: 2 })).toBe('Elimine o mueva primero sus 2 nodos hijos');
  });
});

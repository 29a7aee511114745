/**
 * Feature boundaries (docs/development.md, "The web app") that dependency-cruiser cannot see: imports between features and
 * into the shell are its rules (web-features-isolated, web-features-below-shell, in `npm run lint`);
 * this checks that no feature reads another feature's strings (i18n keys or namespaces of another
 * feature). Shared strings belong in src/locales (namespace common).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const FEATURES = path.join(SRC, 'features');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

const featureNames = fs
  .readdirSync(FEATURES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const files = featureNames.flatMap((f) => sourceFiles(path.join(FEATURES, f)));
const rel = (f: string) => path.relative(SRC, f).split(path.sep).join('/');
const featureOf = (file: string) => path.relative(FEATURES, file).split(path.sep)[0] ?? '';

/** Uses of another feature's strings in `source`: t('users:col.name'), useTranslation(['acupoints', 'schematics']), useTranslation('users'). */
export function foreignStrings(source: string, others: readonly string[]): string[] {
  if (!others.length) return [];
  const key = new RegExp(`['"\`](${others.join('|')}):[\\w$]`, 'g');
  const ns = new RegExp(`useTranslation\\(\\s*(?:\\[[^\\]]*)?['"](${others.join('|')})['"]`, 'g');
  return [...[...source.matchAll(key)].map((m) => `key of namespace "${m[1]}"`), ...[...source.matchAll(ns)].map((m) => `useTranslation of "${m[1]}"`)];
}

describe('feature strings', () => {
  it('the scanner finds keys and namespaces of another feature, not its own', () => {
    const src = ["t('users:col.name');", "useTranslation(['acupoints', 'systems']);", "useTranslation('users');", "t('common:ok');", "t('acupoints:title');"].join('\n');
    expect(foreignStrings(src, ['users', 'systems'])).toEqual(['key of namespace "users"', 'useTranslation of "systems"', 'useTranslation of "users"']);
  });

  it('finds the feature sources', () => {
    expect(featureNames.length).toBeGreaterThan(3);
    expect(files.length).toBeGreaterThan(20);
  });

  it("no feature reads another feature's strings", () => {
    const found: string[] = [];
    for (const file of files) {
      const own = featureOf(file);
      const others = featureNames.filter((f) => f !== own);
      for (const why of foreignStrings(fs.readFileSync(file, 'utf8'), others)) found.push(`${rel(file)}: ${why}`);
    }
    expect(found, 'shared strings belong in src/locales (namespace common)').toEqual([]);
  });
});

/**
 * Module boundaries (PATTERNS.md): features never import each other, nor the shell. Code they share
 * lives in components/ or lib/. Scans every .ts/.tsx under features/ (tests included) for static,
 * side-effect, re-export and dynamic imports, and for i18n keys of another feature's namespace.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const FEATURES = path.join(SRC, 'features');
const SHELL = path.join(SRC, 'shell');

/** Every module specifier of a source file: `from '…'`, `import '…'`, `import('…')`, `require('…')`. */
export function specifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const out: string[] = [];
  const patterns = [
    /\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) out.push(m[1]!);
  return out;
}

/** Why an import of `spec` from `file` (a module of feature `feature`) breaks the rules, or null. */
export function violation(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) {
    return /(^|\/)(features|shell)\//.test(spec) ? `non-relative path into ${spec}` : null;
  }
  const feature = path.relative(FEATURES, file).split(path.sep)[0]!;
  const target = path.resolve(path.dirname(file), spec);
  if (target === SHELL || target.startsWith(SHELL + path.sep)) return 'imports the shell';
  const rel = path.relative(FEATURES, target);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const other = rel.split(path.sep)[0]!;
  if (other !== feature) return `imports feature "${other}"`;
  return null;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

const featureNames = fs.readdirSync(FEATURES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
const files = featureNames.flatMap((f) => sourceFiles(path.join(FEATURES, f)));
const rel = (f: string) => path.relative(SRC, f).split(path.sep).join('/');

describe('feature boundaries', () => {
  it('the scanner finds every kind of import and tells a sibling feature from its own files', () => {
    const file = path.join(FEATURES, 'acupoints', 'api', 'x.ts');
    const src = [
      "import a from '../../diseases/a';",
      "import type { B } from '../../../shell/Layout';",
      "export { c } from '../rules';",
      "import './acupoints.css';",
      "const P = lazy(() => import('../../systems/Page'));",
      "// import x from '../../users/commented-out';",
      "import { d } from '../../../components/list';",
    ].join('\n');
    const specs = specifiers(src);
    expect(specs).toEqual(['../../diseases/a', '../../../shell/Layout', '../rules', '../../../components/list', './acupoints.css', '../../systems/Page']);
    expect(specs.map((s) => violation(file, s))).toEqual([
      'imports feature "diseases"', 'imports the shell', null, null, null, 'imports feature "systems"',
    ]);
  });

  it('finds the feature sources', () => {
    expect(featureNames.length).toBeGreaterThan(3);
    expect(files.length).toBeGreaterThan(20);
  });

  it('no feature imports another feature or the shell', () => {
    const found: string[] = [];
    for (const file of files) {
      for (const spec of specifiers(fs.readFileSync(file, 'utf8'))) {
        const why = violation(file, spec);
        if (why) found.push(`${rel(file)}: '${spec}' ${why}`);
      }
    }
    expect(found, 'move shared code to components/ or lib/').toEqual([]);
  });

  it('no feature reads another feature\'s strings', () => {
    const found: string[] = [];
    for (const file of files) {
      const own = path.relative(FEATURES, file).split(path.sep)[0]!;
      const others = featureNames.filter((f) => f !== own);
      const source = fs.readFileSync(file, 'utf8');
      // t('users:col.name'), useTranslation(['acupoints', 'schematics']), useTranslation('users')
      const key = new RegExp(`['"\`](${others.join('|')}):[\\w$]`, 'g');
      const ns = new RegExp(`useTranslation\\(\\s*(?:\\[[^\\]]*)?['"](${others.join('|')})['"]`, 'g');
      for (const m of source.matchAll(key)) found.push(`${rel(file)}: key of namespace "${m[1]}"`);
      for (const m of source.matchAll(ns)) found.push(`${rel(file)}: useTranslation of "${m[1]}"`);
    }
    expect(found, 'shared strings belong in src/locales (namespace common)').toEqual([]);
  });
});

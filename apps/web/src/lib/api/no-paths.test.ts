/**
 * Features call endpoints by name (`call('packages.list')`), never by path: no API path appears as a
 * literal anywhere under features/. A renamed path then changes one line of the contract, not a page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_BASE } from '@app/contract/constants';
import { ENDPOINT_ROUTES } from '@app/contract/endpoint-routes';

const FEATURES = path.resolve(import.meta.dirname, '../../features');
const files = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));

describe('no API path literal in features', () => {
  it('finds the feature sources', () => {
    expect(files(FEATURES).length).toBeGreaterThan(30);
  });

  it('no feature names an endpoint by its path', () => {
    const paths = [...new Set(Object.values(ENDPOINT_ROUTES).map(([, p]) => p.replace(/\/:.*$/, '')))];
    const hits: string[] = [];
    for (const file of files(FEATURES)) {
      const code = fs.readFileSync(file, 'utf8');
      for (const p of [...paths, API_BASE]) {
        if (new RegExp(`['"\`]${p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(['"\`?/])`).test(code)) hits.push(`${path.relative(FEATURES, file)}: ${p}`);
      }
    }
    expect(hits).toEqual([]);
  });
});

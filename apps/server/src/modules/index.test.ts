import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleRoutes, moduleSeeds } from '.';

/** modules/index.ts is kept by hand (the bundled server scans no folder): it must list every module. */
describe('the module list', () => {
  const dir = import.meta.dirname;
  const folders = fs.readdirSync(dir).filter((n) => fs.statSync(path.join(dir, n)).isDirectory());
  const having = (file: string) => folders.filter((n) => fs.existsSync(path.join(dir, n, file))).sort();

  it('lists every modules/<m>/routes.ts', () => {
    expect(Object.keys(moduleRoutes).sort()).toEqual(having('routes.ts'));
    for (const routes of Object.values(moduleRoutes)) expect(typeof routes).toBe('function');
  });

  it('lists every modules/<m>/seed.ts', () => {
    expect(Object.keys(moduleSeeds).sort()).toEqual(having('seed.ts'));
    for (const s of Object.values(moduleSeeds)) expect(typeof s.seed).toBe('function');
  });
});

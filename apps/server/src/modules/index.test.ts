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

  it('names each module as the contract does: modules/<m>/ serves the endpoints of packages/contract/src/api/<m>.ts', () => {
    const api = path.resolve(dir, '../../../../packages/contract/src/api');
    expect(having('routes.ts').filter((m) => !fs.existsSync(path.join(api, `${m}.ts`)))).toEqual([]);
  });

  it('lists every modules/<m>/seed.ts', () => {
    expect(Object.keys(moduleSeeds).sort()).toEqual(having('seed.ts'));
    for (const s of Object.values(moduleSeeds)) expect(typeof s.seed).toBe('function');
  });
});

/**
 * Modules use each other one way: no loop between modules (a file-level cycle is the lint's; this is the
 * modules' own, through their index files: auth → institutions → auth would load in an order that
 * matters). Tests may reach anywhere.
 */
describe('the modules’ imports', () => {
  it('form no loop between modules', () => {
    const dir = import.meta.dirname;
    const uses = new Map<string, Set<string>>();
    for (const m of fs.readdirSync(dir).filter((n) => fs.statSync(path.join(dir, n)).isDirectory())) {
      const found = new Set<string>();
      for (const f of fs.readdirSync(path.join(dir, m), { recursive: true }) as string[]) {
        if (!/\.tsx?$/.test(f) || /\.test\.tsx?$/.test(f)) continue;
        const text = fs.readFileSync(path.join(dir, m, f), 'utf8');
        for (const hit of text.matchAll(/from '(?:\.\.\/)+modules\/([\w-]+)|from '\.\.\/([\w-]+)(?:\/index)?'/g)) {
          const other = hit[1] ?? hit[2]!;
          if (other !== m && fs.existsSync(path.join(dir, other))) found.add(other);
        }
      }
      uses.set(m, found);
    }
    const loops: string[] = [];
    const visit = (m: string, trail: string[]) => {
      if (trail.includes(m)) {
        loops.push([...trail.slice(trail.indexOf(m)), m].join(' → '));
        return;
      }
      for (const next of uses.get(m) ?? []) visit(next, [...trail, m]);
    };
    for (const m of uses.keys()) visit(m, []);
    expect([...new Set(loops)]).toEqual([]);
  });
});

import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from './test/child';

/*
 * What the built server (build.mjs) loads at run time is what a production install (`npm ci --omit=dev
 * --workspace=@app/server`, README "Deployment") provides: every package its files import is in the
 * server's `dependencies` (or `optionalDependencies`: the embedded PostgreSQL's binaries), never only in
 * `devDependencies`. The install itself is run by .ci/production-check.mjs.
 */

const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
let build: ReturnType<typeof buildServer> | undefined;

beforeAll(() => {
  build = buildServer();
});
afterAll(() => build?.remove());

/** The package of a bare import: `pg`, `@fastify/static`, `drizzle-orm/node-postgres` -> `drizzle-orm`. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe('the built server', () => {
  it('imports at run time only packages of its dependencies', () => {
    const imported = new Set<string>();
    for (const file of fs.readdirSync(build!.dir).filter((f) => f.endsWith('.js'))) {
      const text = fs.readFileSync(path.join(build!.dir, file), 'utf8');
      // esbuild's output: `import x from "p";` and `import "p";` at a line's start, `import("p")`, `__require("p")`, `require.resolve("p/package.json")`.
      for (const m of text.matchAll(/^import\b[^;]*?["']([^"'./][^"']*)["'];$|\b(?:import|__require|resolve)\("([^"./][^"]*)"\)/gm)) imported.add((m[1] ?? m[2])!);
    }
    const packages = [...imported].filter((s) => !s.startsWith('node:') && !builtinModules.includes(s)).map(packageOf);
    expect(packages.length).toBeGreaterThan(5);
    const provided = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})]);
    expect(
      [...new Set(packages)].filter((p) => !provided.has(p)),
      'imported by dist/ but not in apps/server dependencies',
    ).toEqual([]);
    // The workspace's contract is bundled, never imported.
    expect(packages).not.toContain('@app/contract');
  });
});

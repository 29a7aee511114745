/**
 * Builds the server ahead of time (`npm run build -w @app/server`): src/main.ts and the CLIs in
 * src/cli/ bundled by esbuild into dist/ (ESM, with source maps), side by side (dist/main.js,
 * dist/seed.js, dist/admin-create.js) so that every `import.meta.dirname` of the sources is dist/ in
 * all of them. Packages stay in node_modules, except the workspace's own @app/contract (TypeScript
 * sources), which is bundled. drizzle-kit's migrations are copied to dist/migrations (db/client.ts).
 * `--outdir <folder>` builds elsewhere (tests that start the built server build their own copy); the folder
 * must be inside the repository, so that the bundle's imports find node_modules.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = import.meta.dirname;
const { values: args } = parseArgs({ options: { outdir: { type: 'string' } } });
const out = args.outdir ? path.resolve(args.outdir) : path.join(root, 'dist');
const cli = path.join(root, 'src/cli');

/** Bare imports stay external (resolved from node_modules at run time), but for the workspace's packages. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@app/') ? undefined : { path: args.path, external: true }));
  },
};

const started = Date.now();
fs.rmSync(out, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: [
    'src/main.ts',
    // The report PDF's worker thread (modules/inspections/pdf-pool.ts), beside main.js.
    'src/modules/inspections/pdf-worker.ts',
    ...fs
      .readdirSync(cli)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => path.join('src/cli', f)),
  ],
  outdir: out,
  entryNames: '[name]',
  // Chunks beside the entries, for the same import.meta.dirname; main.ts loads serve.ts as one (its dynamic
  // import), so the packages serve.ts needs load while the embedded database starts.
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  plugins: [externalPackages],
  logLevel: 'warning',
  metafile: true,
});
fs.cpSync(path.join(root, 'src/db/migrations'), path.join(out, 'migrations'), { recursive: true });
const files = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'));
console.log(`server built in ${Date.now() - started} ms: ${files.map((f) => path.relative(root, path.resolve(root, f))).join(', ')}`);

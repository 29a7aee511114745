import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { parseAst } from 'rolldown/parseAst';

const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:8091';

type Node = { type: string; start: number; end: number; [key: string]: unknown };

const ZOD_ALIAS = '__contractZod';

/**
 * The contract's modules mix plain constants (status lists, the route table) with zod schemas built
 * at module level. The web app imports the constants; this marks the top-level schema-building calls
 * of contract files as pure, so an unused schema (and zod with it) drops out of the web bundle.
 * Only initializers of top-level `const`s are touched, never function bodies.
 */
function contractPureSchemas(): Plugin {
  const collect = (node: unknown, out: Set<number>) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const n of node) collect(n, out);
      return;
    }
    const n = node as Node;
    if (n.type === 'ArrowFunctionExpression' || n.type === 'FunctionExpression') return;
    if (n.type === 'CallExpression' || n.type === 'NewExpression') out.add(n.start);
    for (const [key, value] of Object.entries(n)) if (key !== 'start' && key !== 'end' && value && typeof value === 'object') collect(value, out);
  };
  return {
    name: 'contract-pure-schemas',
    apply: 'build',
    transform(code, id) {
      if (!/packages\/contract\/src\/.*\.ts$/.test(id) || id.endsWith('.test.ts')) return null;
      // zod's namespace gets a name no other code uses, so it can be declared pure (below) safely.
      if (/import \{ z \} from 'zod';/.test(code)) code = code.replace(/import \{ z \} from 'zod';/, `import { z as ${ZOD_ALIAS} } from 'zod';`).replace(/\bz\./g, `${ZOD_ALIAS}.`);
      const ast = parseAst(code, { lang: 'ts' }, id) as unknown as { body: Node[] };
      const starts = new Set<number>();
      for (const stmt of ast.body) {
        const decl = (stmt.type === 'ExportNamedDeclaration' ? stmt.declaration : stmt) as Node | null;
        if (decl?.type !== 'VariableDeclaration') continue;
        for (const d of decl.declarations as Node[]) collect(d.init, starts);
      }
      if (!starts.size) return { code, map: null };
      let out = code;
      for (const at of [...starts].sort((a, b) => b - a)) out = `${out.slice(0, at)}/*#__PURE__*/ ${out.slice(at)}`;
      return { code: out, map: null };
    },
  };
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the build (1 KB and more), at the
 * highest levels: the server sends them as they are (`@fastify/static` `preCompressed`, apps/server/src/
 * http/web.ts), so no request pays for compressing. index.html is left out: the server fills in a nonce
 * per request and compresses that answer itself.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await fs.readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile() && /\.(js|mjs|css|html|svg|json|txt|xml|wasm)$/.test(e.name) && !(e.parentPath === outDir && e.name === 'index.html'))
        .map((e) => path.join(e.parentPath, e.name));
      await Promise.all(
        files.map(async (file) => {
          const data = await fs.readFile(file);
          if (data.length < 1024) return;
          const [br, gz] = await Promise.all([brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }), gzip(data, { level: 9 })]);
          // A copy that saves nothing would only cost a read: the plain file is sent instead.
          if (br.length < data.length) await fs.writeFile(`${file}.br`, br);
          if (gz.length < data.length) await fs.writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), contractPureSchemas(), precompress()],
  server: {
    port: 5174,
    strictPort: true,
    proxy: { '/adminapi': { target: apiTarget, changeOrigin: true } },
  },
  preview: { port: 5174 },
  // The server puts a fresh nonce for each page in place of this (apps/server/src/http/web.ts): on the
  // page's tags and on <meta property="csp-nonce">, where the app reads it for antd's <style> elements.
  html: { cspNonce: '__CSP_NONCE__' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      treeshake: {
        // antd's helper packages and the contract declare no "sideEffects": they have none, and saying so
        // lets unused modules behind their barrels (rc-form's Field/validator under every Input) drop out.
        moduleSideEffects: (id: string) =>
          /node_modules\/(@rc-component|@ant-design\/(cssinjs|cssinjs-utils|icons|fast-color|colors))\//.test(id) || /packages\/contract\/src\//.test(id) ? false : undefined,
        // zod schema chains in the contract (`z.object(...).extend(...)`, renamed by contractPureSchemas)
        // build values only.
        manualPureFunctions: [ZOD_ALIAS],
      },
    },
  },
});

import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { parseAst } from 'rolldown/parseAst';
import type { OutputAsset } from 'rolldown';
import zh from './src/locales/zh';
import en from './src/locales/en';
import es from './src/locales/es';
import ja from './src/locales/ja';
import { EARLY_MAX_CALLS, EARLY_STORE, type EarlyConfig, startEarlyCalls } from './src/lib/early-start';
import { STORAGE_PREFIX } from './src/lib/storage-keys';
// A relative path: the config's loader leaves workspace packages to Node, which cannot run TypeScript.
import { API_BASE, TOKEN_COOKIE } from '../../packages/contract/src/constants';

const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:8091';

type Node = { type: string; start: number; end: number; [key: string]: unknown };

const ZOD_ALIAS = '__contractZod';
/** Where the server puts each page's nonce (apps/server/src/http/web.ts NONCE_PLACEHOLDER). */
const NONCE = '__CSP_NONCE__';

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

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * What the page paints before any script has run (build only):
 * - the app's own stylesheet (styles.css, a few KB) inlined in a <style> carrying the page's nonce, so the
 *   first paint waits for no CSS request;
 * - a static copy of the login page's head (logo, title in the four languages, the card's outline)
 *   inside #root between `<!--login-shell-->` markers: the server keeps it on /login only and sets
 *   <html lang> (apps/server/src/http/web.ts); CSS shows the title of that language. React replaces it
 *   at its first render with the same title at the same place, so the largest paint is this one.
 * - `<!--preload-->`, where the server puts the modulepreload links of the page asked for;
 * - the page's one inline script, first in <head>: a signed-in page's first calls sent while the HTML is
 *   parsed (src/lib/early-start.ts). The server allows it by its hash, not by the nonce Vite puts on it.
 */
function firstPaint(): Plugin {
  const titles = { zh: zh.app.title, en: en.app.title, es: es.app.title, ja: ja.app.title };
  const title = Object.entries(titles)
    .map(([lang, text]) => `<span class="shell-lang" lang="${lang}">${escapeHtml(text)}</span>`)
    .join('');
  const shell =
    `<!--login-shell--><div class="login-page"><main class="login-main"><div class="login-brand">` +
    `<img src="/favicon.svg" alt="" width="48" height="48" /><h1 class="login-title">${title}</h1>` +
    `<p class="login-subtitle">&nbsp;</p></div><section class="login-card shell-card"></section></main></div><!--/login-shell-->`;
  return {
    name: 'first-paint',
    apply: 'build',
    // preload.json: the files a signed-in page needs beyond the boot code (the shell, and the landing
    // page with its strings), which the server announces in that page's HTML (`<!--preload-->`).
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byModule = (re: RegExp) => chunks.find((c) => c.facadeModuleId && re.test(c.facadeModuleId));
      const closure = (file: string | undefined, into = new Set<string>()) => {
        const chunk = file ? chunks.find((c) => c.fileName === file) : undefined;
        if (!chunk || into.has(chunk.fileName)) return into;
        into.add(chunk.fileName);
        for (const next of chunk.imports) closure(next, into);
        return into;
      };
      const boot = closure(chunks.find((c) => c.isEntry)?.fileName);
      const lazy = (...files: (string | undefined)[]) => [...new Set(files.flatMap((f) => [...closure(f)]))].filter((f) => !boot.has(f)).map((f) => `/${f}`);
      const shell = lazy(byModule(/[\\/]src[\\/]shell[\\/]Layout\.tsx$/)?.fileName);
      const landing = lazy(byModule(LANDING_PAGE)?.fileName, byModule(LANDING_LOCALES)?.fileName).filter((f) => !shell.includes(f));
      const preload = { shell, pages: { '/': landing, [LANDING_PATH]: landing } };
      this.emitFile({ type: 'asset', fileName: 'preload.json', source: JSON.stringify(preload) });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        let out = html.replace(/<link rel="stylesheet" crossorigin href="\/(assets\/index-[^"]+\.css)"[^>]*>/, (_tag, file: string) => {
          const asset = ctx.bundle?.[file] as OutputAsset | undefined;
          if (!asset) throw new Error(`first-paint: ${file} is not in the bundle`);
          return `<style nonce="${NONCE}">${String(asset.source).trim()}</style>`;
        });
        if (out === html) throw new Error('first-paint: the entry stylesheet link was not found');
        const config: EarlyConfig = { cookie: TOKEN_COOKIE, storageKey: STORAGE_PREFIX + EARLY_STORE, apiBase: API_BASE, maxCalls: EARLY_MAX_CALLS };
        const early = `<script>(${startEarlyCalls.toString()})(window,${JSON.stringify(config)})</script>`;
        out = out.replace(/<meta charset="UTF-8" \/>/, (meta) => `${meta}\n    ${early}`);
        if (!out.includes(early)) throw new Error('first-paint: <meta charset> was not found for the early calls');
        out = out.replace('</head>', '    <!--preload-->\n  </head>').replace('<div id="root"></div>', `<div id="root">${shell}</div>`);
        return out;
      },
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

/**
 * How the lazily loaded code is cut into files. On a slow link each request on one of the browser's six
 * HTTP/1.1 connections costs a round trip, so a page in four files loads sooner than in forty:
 * - `shell`: what the signed-in layout (shell/Layout.tsx) imports, needed by every signed-in page;
 * - `kit`: what the landing page (the device list, `/` for most users) shares with other pages (antd's
 *   table, form, select...), so the home page is boot + shell + kit + its own file;
 * - `common`: modules that at least three other pages share;
 * - the rest stays with its page (rolldown's own splitting).
 * Computed from the module graph once it is built (`buildEnd`); the codeSplitting groups read it.
 */
function chunkPlan(landing: RegExp) {
  const groups = new Map<string, 'shell' | 'kit' | 'common'>();
  const plugin: Plugin = {
    name: 'chunk-plan',
    apply: 'build',
    buildEnd() {
      const info = (id: string) => this.getModuleInfo(id);
      const closure = (from: string) => {
        const seen = new Set<string>();
        const stack = [from];
        while (stack.length) {
          const id = stack.pop()!;
          if (seen.has(id)) continue;
          seen.add(id);
          for (const next of info(id)?.importedIds ?? []) stack.push(next);
        }
        return seen;
      };
      const ids = [...this.getModuleIds()];
      const initial = new Set<string>();
      for (const id of ids) if (info(id)?.isEntry) for (const m of closure(id)) initial.add(m);
      const lazyEntries = new Set(ids.flatMap((id) => info(id)?.dynamicallyImportedIds ?? []));
      const shellEntry = [...lazyEntries].find((id) => /[\\/]src[\\/]shell[\\/]Layout\.tsx$/.test(id));
      const landingEntry = [...lazyEntries].find((id) => landing.test(id));
      const shell = shellEntry ? closure(shellEntry) : new Set<string>();
      const landingUses = landingEntry ? closure(landingEntry) : new Set<string>();
      const uses = new Map<string, number>();
      for (const entry of lazyEntries) {
        if (entry === shellEntry || /[\\/]locales\.ts$/.test(entry)) continue;
        for (const m of closure(entry)) uses.set(m, (uses.get(m) ?? 0) + 1);
      }
      groups.clear();
      for (const id of ids) {
        if (initial.has(id) || lazyEntries.has(id)) continue;
        const n = uses.get(id) ?? 0;
        if (shell.has(id)) groups.set(id, 'shell');
        else if (landingUses.has(id) && n >= 2) groups.set(id, 'kit');
        else if (n >= 3) groups.set(id, 'common');
      }
    },
  };
  const group = (name: 'shell' | 'kit' | 'common', priority: number) => ({ name, priority, test: (id: string) => groups.get(id) === name });
  return { plugin, groups: [group('shell', 3), group('kit', 2)] };
}
/** The page most users land on (`/`, spec): its code is grouped (chunkPlan) and preloaded (firstPaint). */
const LANDING_PAGE = /[\\/]src[\\/]features[\\/]equipment[\\/]DeviceListPage\.tsx$/;
const LANDING_LOCALES = /[\\/]src[\\/]features[\\/]equipment[\\/]locales\.ts$/;
const LANDING_PATH = '/dashboard/index';
const plan = chunkPlan(LANDING_PAGE);

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), contractPureSchemas(), plan.plugin, firstPaint(), precompress()],
  server: {
    port: 5174,
    strictPort: true,
    proxy: { '/adminapi': { target: apiTarget, changeOrigin: true } },
  },
  preview: { port: 5174 },
  // The server puts a fresh nonce for each page in place of this (apps/server/src/http/web.ts): on the
  // page's tags and on <meta property="csp-nonce">, where the app reads it for antd's <style> elements.
  html: { cspNonce: NONCE },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything main.tsx imports statically runs before the first render anyway: one file.
            { name: 'boot', tags: ['$initial'], priority: 4 },
            // The signed-in shell and the code pages share: a few files (chunkPlan).
            ...plan.groups,
          ],
        },
        chunkFileNames: 'assets/[name]-[hash].js',
      },
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

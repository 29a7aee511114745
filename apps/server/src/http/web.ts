import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { API_BASE, APPEARANCE_COOKIE, APPEARANCES, type Appearance, DEVICE_API_BASE, formatMessage, LANG_COOKIE, TOKEN_COOKIE } from '@app/contract';
import { LANGS, type Lang, isLang, matchLang } from '@app/contract/i18n';
import { inlineScriptHashes, newNonce, webAppPolicy } from './security';

/**
 * What the web app's build writes where each page's nonce goes (apps/web/vite.config.ts `html.cspNonce`):
 * on its <script>, <link> and <style> tags and on `<meta property="csp-nonce">`, which the app reads.
 */
export const NONCE_PLACEHOLDER = '__CSP_NONCE__';

/** Vite's content-hashed output (`assets/<name>-<hash>.<ext>`, also its `.br`/`.gz` copies): never changes. */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+(\.br|\.gz)?$/;

/** How long a browser keeps a file of the build: hashed assets for a year, the rest (favicon...) an hour. */
export function webCacheControl(file: string): string {
  return HASHED_ASSET.test(file) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600';
}

/**
 * Serves the built web app: its files, and index.html (with a fresh nonce) for every client-side route.
 * The build writes brotli and gzip copies next to each text file (vite.config.ts `precompress`): sent
 * as they are, with `Content-Encoding`, to a client that accepts them (`preCompressed`). index.html is
 * compressed per request (it carries the nonce) by @fastify/compress, registered in app.ts.
 */
export async function serveWebApp(app: FastifyInstance, webDist: string) {
  // index.html is never sent as it is built: only through the route below, with its nonce.
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    globIgnore: ['index.html', 'index.html.br', 'index.html.gz'],
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, file) => reply.header('cache-control', webCacheControl(file)),
  });
  const indexHtml = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
  const page = firstPaintPages(indexHtml, readPreloads(webDist));
  // The build's inline script (the early calls) is allowed by its hash, which never changes for a build.
  const scriptHashes = inlineScriptHashes(indexHtml);
  // Client-side routes: any other GET that is not an API call gets the app shell.
  app.get('/*', async (req, reply) => {
    // The API prefixes never get the app shell: an unknown call answers the JSON 404 of the envelope.
    for (const base of [API_BASE, '/deviceapi', DEVICE_API_BASE]) {
      if (req.url.startsWith(`${base}/`) || req.url === base || req.url.startsWith(`${base}?`)) return reply.callNotFound();
    }
    const nonce = newNonce();
    const cookie = req.headers.cookie;
    const html = page(req.url, cookieOf(cookie, TOKEN_COOKIE) !== undefined, pageLang(cookie, req.headers['accept-language']), nonce, pageAppearance(cookie));
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'Cookie, Accept-Language')
      .header('content-security-policy', webAppPolicy(nonce, scriptHashes))
      .send(html);
  });
}

const LANG_TAGS: Record<Lang, string> = { zh: 'zh-CN', en: 'en-US', es: 'es-ES', ja: 'ja-JP' };

function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** The page's language before any script runs: the app's saved choice, else the browser's (as the app picks it). */
export function pageLang(cookie: string | undefined, acceptLanguage: string | undefined): Lang {
  const saved = cookieOf(cookie, LANG_COOKIE);
  return isLang(saved) ? saved : (matchLang(acceptLanguage ?? null) ?? LANGS[1]);
}

/** The appearance the app saved (app/providers.tsx), so a dark reader's page is dark before any script runs. */
export function pageAppearance(cookie: string | undefined): Appearance {
  const saved = cookieOf(cookie, APPEARANCE_COOKIE);
  return (APPEARANCES as readonly (string | undefined)[]).includes(saved) ? (saved as Appearance) : 'light';
}

interface Preloads {
  shell: string[];
  pages: Record<string, string[]>;
}

/** dist/preload.json (apps/web/vite.config.ts firstPaint): the files of the shell and of the landing page. */
function readPreloads(webDist: string): Preloads {
  try {
    return JSON.parse(fs.readFileSync(path.join(webDist, 'preload.json'), 'utf8')) as Preloads;
  } catch {
    return { shell: [], pages: {} };
  }
}

const LOGIN_SHELL = /<!--login-shell-->[\s\S]*?<!--\/login-shell-->/;

/**
 * What a shared report's page paints before any script has run: the page's bar and the report's title in
 * the reader's language (the public page, apps/web features/inspections/SharePage.tsx, replaces it at its
 * first render). Classes from styles.css, which the page inlines.
 */
const shareShell = (lang: Lang) =>
  `<div class="share-static"><div class="share-static-bar"></div><main class="share-static-sheet"><h1>${formatMessage('sharedReportTitle', lang)}</h1>` +
  `<p>${formatMessage('sharedReportLoading', lang)}</p></main></div>`;

/**
 * index.html for one request (the build's markers, apps/web/vite.config.ts firstPaint):
 * - /login keeps the static login page (painted before any script runs) in the visitor's language;
 *   every other address gets an empty #root;
 * - <html data-appearance> carries the saved appearance ("dark", or "system" for the device's choice;
 *   styles.css paints those dark from the first frame; the app then sets the resolved one);
 * - a signed-in visitor's page announces its code (`<link rel="modulepreload">`: the shell, and the
 *   landing page on `/`) so it downloads beside the boot code instead of after it.
 */
export function firstPaintPages(indexHtml: string, preloads: Preloads) {
  const variants = new Map<string, string[]>();
  const build = (login: boolean, files: string[], lang: Lang, appearance: Appearance, share = false) => {
    const mark = appearance === 'light' ? '' : ` data-appearance="${appearance}"`;
    let html = indexHtml.replace(/<html lang="[^"]*">/, `<html lang="${LANG_TAGS[lang]}"${mark}>`);
    if (share) html = html.replace(LOGIN_SHELL, shareShell(lang));
    else if (!login) html = html.replace(LOGIN_SHELL, '');
    const links = files.map((f) => `<link rel="modulepreload" crossorigin href="${f}" nonce="${NONCE_PLACEHOLDER}">`).join('\n    ');
    return html.replace('<!--preload-->', links).split(NONCE_PLACEHOLDER);
  };
  return (url: string, signedIn: boolean, lang: Lang, nonce: string, appearance: Appearance = 'light'): string => {
    const pathname = url.split(/[?#]/)[0]!.replace(/\/+$/, '') || '/';
    const login = pathname === '/login';
    // A shared report (/share/<token>): its title painted at once, on a phone over a slow network too.
    const share = pathname.startsWith('/share/');
    const page = signedIn && !login && !/^\/(auth-redirect|404|401)$/.test(pathname) ? (preloads.pages[pathname] ?? []) : undefined;
    const files = page ? [...preloads.shell, ...page] : [];
    const known = pathname in preloads.pages ? pathname : '*';
    const key = `${login}|${share}|${lang}|${appearance}|${page ? known : '-'}`;
    let parts = variants.get(key);
    if (!parts) {
      parts = build(login, files, lang, appearance, share);
      variants.set(key, parts);
    }
    return parts.join(nonce);
  };
}

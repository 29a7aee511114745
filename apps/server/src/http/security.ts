import { createHash, randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@app/contract';

/*
 * Response headers on everything the server answers (helmet): no framing, no sniffing, the
 * referrer kept to this origin, and a Content-Security-Policy per kind of answer:
 * - API answers, uploads, static files: `default-src 'none'` (nothing in them may load or run anything);
 * - the web app's page (webAppPolicy): its own scripts, and the build's one inline script by its hash;
 *   styles from its own files or carrying the page's nonce (antd's CSS-in-JS inserts <style> elements
 *   at run time; the server puts a fresh nonce in each index.html it sends, and the app hands it to antd);
 * - the API reference page (docsPolicy): Swagger UI's own files and the OpenAPI document.
 * API answers are never stored by a cache unless the endpoint says otherwise (uploads, docs assets).
 */

const common = ["frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'"];

/** Everything that is not a page: JSON, files, static assets. */
export const API_POLICY = ["default-src 'none'", ...common].join('; ');

/** A fresh nonce for one page. */
export const newNonce = () => randomBytes(16).toString('base64');

/**
 * The web app: scripts from this origin, and the inline scripts of the build by their hash (`sha256-...`,
 * inlineScriptHashes: the early calls of apps/web/src/lib/early-start.ts); inline <style> only with the
 * page's nonce.
 */
export function webAppPolicy(nonce: string, scriptHashes: readonly string[] = []): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes.map((h) => `'${h}'`)].join(' '),
    "script-src-attr 'none'",
    `style-src 'self' 'nonce-${nonce}'`,
    // React and antd position popups, tooltips and motion through element.style (CSSOM), which CSP
    // allows; no style="" attribute comes from markup the app parses.
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "worker-src 'none'",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

/** Swagger UI: its own CSS and JS files, the document it fetches, and the data: images its CSS uses. */
export const DOCS_POLICY = ["default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'", ...common].join('; ');

/**
 * The headers helmet sets, worked out once: its middleware run at start-up on a recording response, so a
 * request only copies a constant object. (@fastify/helmet, used before, builds the middleware anew on
 * every request, directives parsed and header names rewritten per call: that halved the requests per
 * second of a route that does nothing; docs/benchmarks.md.) Helmet's middleware only sets and removes
 * headers, whatever the request, so the result is the same for every request.
 */
export function helmetHeaders(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return Object.freeze(headers);
}

/** Everything the server answers that a browser may render as a document: the web app's page and files, the API reference page. */
export const DOCUMENT_HEADERS = helmetHeaders({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] } },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'same-origin' },
  // HSTS belongs to whoever terminates TLS for the whole host (docs/security.md); this server may be
  // reached over plain HTTP on a private network.
  strictTransportSecurity: false,
});

/**
 * API answers (JSON, uploaded files, the reference page's assets): the headers OWASP's REST Security Cheat
 * Sheet asks of every API response (a CSP that allows nothing, `frame-ancestors 'none'` and
 * `X-Frame-Options: DENY`, `nosniff`, `Cache-Control: no-store`; HSTS as above), plus
 * `Cross-Origin-Resource-Policy: same-origin` (no other site may load an answer as a resource). The rest of
 * helmet's set (COOP, Origin-Agent-Cluster, Referrer-Policy, X-DNS-Prefetch-Control, X-Download-Options,
 * X-Permitted-Cross-Domain-Policies, X-XSS-Protection) acts only on a document that loads or links to
 * something: 7 headers, about 300 bytes, on every answer for nothing (docs/decisions.md). An endpoint that
 * answers a page adds DOCUMENT_HEADERS itself (the API reference page); its own cache-control and CSP
 * replace these.
 */
export const API_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...Object.fromEntries(['content-security-policy', 'cross-origin-resource-policy', 'x-content-type-options', 'x-frame-options'].map((name) => [name, DOCUMENT_HEADERS[name]!])),
  // biome-ignore lint/plugin/no-property-after-spread: a constant, built once
  'cache-control': 'no-store',
});

const isApiUrl = (url: string) => url === API_BASE || url.startsWith(`${API_BASE}/`) || url.startsWith(`${API_BASE}?`);

export default fp(async function securityPlugin(app: FastifyInstance) {
  // Set first: whatever the route sets later (a page's CSP, a file's cache-control) replaces them.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiUrl(request.url) ? API_HEADERS : DOCUMENT_HEADERS);
    done();
  });
});

/** The CSP hash (`sha256-<base64>`) of each inline <script> (one without `src`) in a page's HTML. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => `sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}`);
}

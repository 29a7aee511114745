import { randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { API_BASE } from '@app/contract';

/*
 * Response headers on everything the server answers (@fastify/helmet): no framing, no sniffing, the
 * referrer kept to this origin, and a Content-Security-Policy per kind of answer:
 * - API answers, uploads, static files: `default-src 'none'` (nothing in them may load or run anything);
 * - the web app's page (webAppPolicy): its own scripts only, styles from its own files or carrying the
 *   page's nonce (antd's CSS-in-JS inserts <style> elements at run time; the server puts a fresh nonce
 *   in each index.html it sends, and the app hands it to antd);
 * - the API reference page (docsPolicy): Swagger UI's own files and the OpenAPI document.
 * API answers are never stored by a cache unless the endpoint says otherwise (uploads, docs assets).
 */

const common = ["frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'"];

/** Everything that is not a page: JSON, files, static assets. */
export const API_POLICY = ["default-src 'none'", ...common].join('; ');

/** A fresh nonce for one page. */
export const newNonce = () => randomBytes(16).toString('base64');

/** The web app: scripts from this origin only, no inline script; inline <style> only with the page's nonce. */
export function webAppPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
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

export default fp(async function securityPlugin(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] } },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // HSTS belongs to whoever terminates TLS for the whole host (docs/security.md); this server may be
    // reached over plain HTTP on a private network.
    strictTransportSecurity: false,
  });
  app.addHook('onSend', async (request, reply) => {
    if ((request.url === API_BASE || request.url.startsWith(`${API_BASE}/`) || request.url.startsWith(`${API_BASE}?`)) && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
  });
});

import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { API_BASE } from '@app/contract';
import { newNonce, webAppPolicy } from './security';

/**
 * What the web app's build writes where each page's nonce goes (apps/web/vite.config.ts `html.cspNonce`):
 * on its <script>, <link> and <style> tags and on `<meta property="csp-nonce">`, which the app reads.
 */
export const NONCE_PLACEHOLDER = '__CSP_NONCE__';

/** Serves the built web app: its files, and index.html (with a fresh nonce) for every client-side route. */
export async function serveWebApp(app: FastifyInstance, webDist: string) {
  // index.html is never sent as it is built: only through the route below, with its nonce.
  await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false, globIgnore: ['index.html'], maxAge: '1h', immutable: false });
  const parts = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8').split(NONCE_PLACEHOLDER);
  // Client-side routes: any other GET that is not an API call gets the app shell.
  app.get('/*', async (req, reply) => {
    if (req.url.startsWith(`${API_BASE}/`) || req.url === API_BASE || req.url.startsWith(`${API_BASE}?`)) return reply.callNotFound();
    const nonce = newNonce();
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('content-security-policy', webAppPolicy(nonce)).send(parts.join(nonce));
  });
}

import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { API_BASE, DEVICE_API_BASE } from '@app/contract';
import { newNonce, webAppPolicy } from './security';

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
  const parts = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8').split(NONCE_PLACEHOLDER);
  // Client-side routes: any other GET that is not an API call gets the app shell.
  app.get('/*', async (req, reply) => {
    // The API prefixes never get the app shell: an unknown call answers the JSON 404 of the envelope.
    for (const base of [API_BASE, '/deviceapi', DEVICE_API_BASE]) {
      if (req.url.startsWith(`${base}/`) || req.url === base || req.url.startsWith(`${base}?`)) return reply.callNotFound();
    }
    const nonce = newNonce();
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('content-security-policy', webAppPolicy(nonce)).send(parts.join(nonce));
  });
}

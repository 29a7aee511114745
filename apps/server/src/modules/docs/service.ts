import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { API_BASE, type ParsedInputOf, type docsApi } from '@app/contract';
import type { Tx } from '../../db/client';
import type { Auth } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { DOCS_POLICY, DOCUMENT_HEADERS } from '../../http/security';
import { openApiDocument } from './openapi';

let documentText: string | null = null;
const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** GET /openapi.json: made once per process from the endpoint table. */
export async function openapi(_db: Tx, _auth: Auth | null, _input: unknown, ctx: Ctx) {
  documentText ??= JSON.stringify(openApiDocument());
  return ctx.reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(documentText);
}

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Admin API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${API_BASE}/docs/swagger-ui.css"></head>
<body><div id="api-reference"></div>
<script src="${API_BASE}/docs/swagger-ui-bundle.js"></script>
<script src="${API_BASE}/docs/reference.js"></script>
</body></html>`;

/** The page's own script (a file, not inline, so a strict Content-Security-Policy holds). */
const INIT = `window.ui = SwaggerUIBundle({ url: '${API_BASE}/openapi.json', dom_id: '#api-reference', deepLinking: true, tryItOutEnabled: false, defaultModelsExpandDepth: 0 });`;

/** GET /docs: the reference page. */
export async function reference(_db: Tx, _auth: Auth | null, _input: unknown, ctx: Ctx) {
  return ctx.reply.type('text/html; charset=utf-8').headers(DOCUMENT_HEADERS).header('cache-control', 'no-cache').header('content-security-policy', DOCS_POLICY).send(PAGE);
}

/** GET /docs/:file: Swagger UI's files from the installed package, and the page's script. */
export async function asset(_db: Tx, _auth: Auth | null, { file }: ParsedInputOf<typeof docsApi.asset>, ctx: Ctx) {
  if (file === 'reference.js') return ctx.reply.type('text/javascript; charset=utf-8').send(INIT);
  const type = file.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
  return ctx.reply
    .type(type)
    .header('cache-control', 'public, max-age=86400')
    .send(fs.createReadStream(path.join(swaggerDir, file)));
}

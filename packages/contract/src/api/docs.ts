import { z } from 'zod';
import { answer, defineEndpoints, get, noInput } from '../endpoint';

/*
 * The API's own documentation, for developers and integrations: the OpenAPI 3.1 document made from the
 * endpoint table, and a readable reference page over it (Swagger UI, served from the server itself).
 */

export const docsAssetInput = z.object({ file: z.enum(['swagger-ui.css', 'swagger-ui-bundle.js', 'reference.js']) });

export const docsApi = defineEndpoints('docs', {
  openapi: get('/openapi.json', { public: true }, noInput, answer<Record<string, unknown>>(), { raw: true, summary: 'The OpenAPI 3.1 document of every endpoint' }),
  reference: get('/docs', { public: true }, noInput, answer<string>(), { raw: true, summary: 'The API reference page (HTML)' }),
  asset: get('/docs/:file', { public: true }, docsAssetInput, answer<string>(), { raw: true, summary: 'Scripts and styles of the reference page' }),
});

/**
 * Writes what is generated from the endpoint table (run `npm run gen:endpoints` after adding or changing
 * an endpoint; a test fails while either file is out of date):
 * - src/endpoint-routes.ts: the method and path of every endpoint, by name, without the schemas, so that
 *   the web client calls endpoints by name without loading zod (`endpoint-routes.test.ts`);
 * - src/answer-schemas.json: the JSON Schema of every answer, read off its TypeScript type, for the
 *   OpenAPI document (`answer-schemas.test.ts`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { answerSchemasText } from '../src/answer-schemas.render';
import { renderEndpointRoutes } from '../src/endpoint-routes.render';

for (const [file, text] of [
  ['../src/endpoint-routes.ts', renderEndpointRoutes()],
  ['../src/answer-schemas.json', answerSchemasText()],
] as const) {
  const target = path.resolve(import.meta.dirname, file);
  fs.writeFileSync(target, text);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}

/**
 * Writes src/endpoint-routes.ts: the method and path of every endpoint, by name, without the schemas,
 * so that the web client calls endpoints by name without loading zod. Run `npm run gen:endpoints`
 * after adding or changing an endpoint; `endpoint-routes.test.ts` fails while the file is out of date.
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderEndpointRoutes } from '../src/endpoint-routes.render';

const target = path.resolve(import.meta.dirname, '../src/endpoint-routes.ts');
fs.writeFileSync(target, renderEndpointRoutes());
console.log(`wrote ${path.relative(process.cwd(), target)}`);

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderEndpointRoutes } from './endpoint-routes.render';
import { ENDPOINTS } from './endpoints';

describe('the endpoint table', () => {
  it('endpoint-routes.ts is generated from the current table (run `npm run gen:endpoints`)', () => {
    const file = fs.readFileSync(path.join(import.meta.dirname, 'endpoint-routes.ts'), 'utf8');
    expect(file).toBe(renderEndpointRoutes());
  });

  it('names and method + path pairs are unique', () => {
    const names = ENDPOINTS.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    const routes = ENDPOINTS.map((e) => `${e.method} ${e.path}`);
    expect(routes.filter((r, i) => routes.indexOf(r) !== i)).toEqual([]);
  });

  it('reads are GET, writes are POST, and only POSTs name an audit record type', () => {
    for (const e of ENDPOINTS) if (e.audit) expect(e.method, e.name).toBe('POST');
  });
});

/**
 * The endpoint table and the server agree: every route under the API comes from the table, and every
 * entry of the table is registered, with the table's method and path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, ENDPOINTS } from '@app/contract';
import Fastify from 'fastify';
import { createTestApp, type TestApp } from '../test/harness';
import access from './access';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('routes come from the endpoint table', () => {
  it('every registered API route is a table entry', () => {
    const table = new Set(ENDPOINTS.map((e) => `${e.method} ${API_BASE}${e.path}`));
    const strays = t.app.apiRoutes.map((r) => `${r.method} ${r.url}`).filter((r) => !table.has(r));
    expect(strays).toEqual([]);
  });

  it('every table entry is registered, carrying its own endpoint', () => {
    const registered = new Map(t.app.apiRoutes.map((r) => [`${r.method} ${r.url}`, r.endpoint.name]));
    const missing = ENDPOINTS.filter((e) => registered.get(`${e.method} ${API_BASE}${e.path}`) !== e.name).map((e) => e.name);
    expect(missing).toEqual([]);
  });

  it('a route outside the table cannot be registered', async () => {
    const app = Fastify();
    await app.register(access);
    app.register(
      async (api) => {
        api.get('/stray/route', async () => 'x');
      },
      { prefix: API_BASE },
    );
    await expect(app.ready()).rejects.toThrow(/not in the endpoint table/);
    await app.close();
  });
});

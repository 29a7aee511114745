import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, DEVICE_API_BASE, DEVICE_ROUTES, ENDPOINTS } from '@app/contract';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(async () => {
  await t?.close();
});

const fetchDoc = async () => {
  const res = await t.app.inject({ method: 'GET', url: `${API_BASE}/openapi.json` });
  expect(res.statusCode).toBe(200);
  return res.json();
};

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    const doc = await fetchDoc();
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
  });

  it('lists every endpoint of the table, with its input schema', async () => {
    const doc = await fetchDoc();
    for (const e of ENDPOINTS) {
      const op = doc.paths[`${API_BASE}${e.path.replace(/:(\w+)/g, '{$1}')}`]?.[e.method.toLowerCase()];
      expect(op, e.name).toBeTruthy();
      expect(op.operationId).toBe(e.name);
      const shape = (e.input as unknown as { shape?: Record<string, unknown> }).shape;
      const fields = shape ? Object.keys(shape) : [];
      if (e.method === 'GET') {
        const names = (op.parameters ?? []).map((p: { name: string }) => p.name);
        for (const f of fields) expect(names, `${e.name}.${f}`).toContain(f);
        // Every list says how deep it may be paged (the contract's paging window).
        const page = (op.parameters ?? []).find((p: { name: string }) => p.name === 'page');
        if (page && page.schema.enum === undefined) expect(page.schema.description, `${e.name}.page`).toMatch(/\(page - 1\) \* limit < 10000/);
      } else if (e.body !== 'multipart') {
        expect(op.requestBody.content['application/json'].schema, e.name).toBeTruthy();
        for (const f of fields) expect(Object.keys(op.requestBody.content['application/json'].schema.properties ?? {}), `${e.name}.${f}`).toContain(f);
      }
    }
  });

  it('describes every answer (the device API’s too): a schema that says something, its named types resolved', async () => {
    const doc = await fetchDoc();
    const untyped: string[] = [];
    const datasOf = (op: { responses: Record<string, { content?: Record<string, { schema: { properties: { datas: object } } }> }> }) =>
      op.responses[200]?.content?.['application/json']?.schema.properties.datas;
    for (const e of ENDPOINTS.filter((x) => !x.raw)) {
      const datas = datasOf(doc.paths[`${API_BASE}${e.path.replace(/:(\w+)/g, '{$1}')}`][e.method.toLowerCase()]);
      if (!datas || Object.keys(datas).length === 0) untyped.push(e.name);
    }
    for (const [name, route] of Object.entries(DEVICE_ROUTES)) {
      const op = doc.paths[`${DEVICE_API_BASE}${route.path}`]?.[route.method.toLowerCase()];
      expect(op, name).toBeTruthy();
      if (Object.keys(datasOf(op) ?? {}).length === 0) untyped.push(`deviceapi.${name}`);
    }
    expect(untyped).toEqual([]);
    // The device's inspection answer carries the analysis object, described down to its fields.
    const inspection = datasOf(doc.paths[`${DEVICE_API_BASE}/inspections`].post) as { $ref: string };
    const answer = doc.components.schemas[inspection.$ref.split('/').pop()!];
    expect(JSON.stringify(answer.properties.analysis)).toMatch(/#\/components\/schemas\/Analysis/);
    expect(doc.components.schemas.Analysis.required).toEqual(expect.arrayContaining(['meridians', 'indices', 'systems']));
  });

  it('states the access rule of each endpoint', async () => {
    const doc = await fetchDoc();
    const op = doc.paths[`${API_BASE}/package/del`].post;
    expect(op['x-access']).toEqual({ button: 'package:delete' });
    expect(op.description).toBe('Access: button package:delete (grade by the route table; admins by role grant). Audited.');
    expect(op.security).toBeTruthy();
    // a rule naming several pages: any of them will do
    const picker = doc.paths[`${API_BASE}/acupoint/options`].get;
    expect(picker['x-access']).toEqual({ page: ['DiseaseManage', 'SchematicManage'] });
    expect(picker.description).toBe('Access: any of the pages DiseaseManage, SchematicManage (grade by the route table; admins by role grant).');
    expect(doc.paths[`${API_BASE}/package/list`].get.description).toBe('Access: page PackageManage (grade by the route table; admins by role grant).');
    expect(doc.paths[`${API_BASE}/openapi.json`].get.security).toBeUndefined();
  });

  it('serves a reference page whose scripts are files of its own', async () => {
    const page = await t.app.inject({ method: 'GET', url: `${API_BASE}/docs` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).not.toMatch(/<script>[^<]/);
    for (const src of page.body.matchAll(/(?:src|href)="([^"]+)"/g)) {
      const res = await t.app.inject({ method: 'GET', url: src[1]! });
      expect(res.statusCode, src[1]).toBe(200);
      expect(res.body.length, src[1]).toBeGreaterThan(10);
    }
    const traversal = await t.app.inject({ method: 'GET', url: `${API_BASE}/docs/..%2Fpackage.json` });
    expect(traversal.json().code).toBe(400);
  });
});

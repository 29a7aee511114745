import { z } from 'zod';
import { type Access, accessPages, API_BASE, type Endpoint, ENDPOINTS } from '@app/contract';

/*
 * The OpenAPI 3.1 document, made from the endpoint table: one operation per endpoint, its input as
 * query parameters (GET) or a JSON / multipart body (POST), its answer inside the `{ code, datas }`
 * envelope, its access rule in words and in `x-access`. Schemas come from zod's own JSON Schema output
 * (draft 2020-12, the dialect OpenAPI 3.1 uses); answers stated only as TypeScript types show as objects.
 */

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete out.$schema;
  return out;
};

function accessText(a: Access): string {
  if ('public' in a) return 'public: no session';
  if ('session' in a) return `any session${a.kind ? ` (${a.kind}s only)` : ''}${a.restricted ? "; an overdue institution's restricted key too" : ''}`;
  if ('page' in a) {
    const pages = accessPages(a.page);
    return `${pages.length > 1 ? `any of the pages ${pages.join(', ')}` : `page ${pages[0]}`} (grade by the route table; admins by role grant)`;
  }
  if ('button' in a) return `button ${a.button} (grade by the route table; admins by role grant)`;
  return `grades ${a.grades.join(', ')}`;
}

const envelope = (datas: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['code', 'datas'],
  properties: {
    code: { type: 'integer', description: '200 ok; 400 refused (datas.error, datas.fields); 998 overdue (datas.error.data.key); 999 session expired' },
    datas,
  },
});

function operation(e: Endpoint): JsonSchema {
  const input = toSchema(e.input, 'input');
  const op: JsonSchema = {
    operationId: e.name,
    tags: [e.module],
    summary: e.summary ?? e.name,
    description: `Access: ${accessText(e.access)}.${e.method === 'POST' && e.audit !== false ? ' Audited.' : ''}`,
    'x-access': e.access,
    responses: {
      200: e.raw ? { description: 'The file or page itself' } : { description: 'The envelope', content: { 'application/json': { schema: envelope(toSchema(e.answer, 'output')) } } },
    },
  };
  if (!('public' in e.access)) op.security = [{ sessionKey: [] }, { bearer: [] }];
  const pathParams = [...e.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const props = (input.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((input.required as string[] | undefined) ?? []);
  const params = pathParams.map((name) => ({ name, in: 'path', required: true, schema: props[name] ?? { type: 'string' } }));
  if (e.method === 'GET') {
    for (const [name, schema] of Object.entries(props)) if (!pathParams.includes(name)) params.push({ name, in: 'query', required: required.has(name), schema });
  } else if (e.body === 'multipart') {
    op.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } } } };
  } else {
    op.requestBody = { required: true, content: { 'application/json': { schema: input } } };
  }
  if (params.length) op.parameters = params;
  return op;
}

export function openApiDocument(opts: { version?: string } = {}): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const e of ENDPOINTS) {
    const path = `${API_BASE}${e.path.replace(/:(\w+)/g, '{$1}')}`;
    paths[path] ??= {};
    paths[path][e.method.toLowerCase()] = operation(e);
  }
  const tags = [...new Set(ENDPOINTS.map((e) => e.module))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Bioelectric diagnosis & treatment management: admin API',
      version: opts.version ?? '1.0.0',
      description:
        'Every endpoint of the admin back-office. Answers are `{ code, datas }` with HTTP 200 for business outcomes. The session key travels as `key` in the query (GET) or the JSON body (POST), or as an `Authorization: Bearer` header.',
    },
    servers: [{ url: '/' }],
    tags,
    paths,
    components: {
      securitySchemes: {
        sessionKey: { type: 'apiKey', in: 'query', name: 'key', description: 'The key answered by sign-in (also accepted as `key` in a JSON body)' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
  };
}

import { z } from 'zod';
import { type Access, accessPages, API_BASE, DEVICE_API_BASE, DEVICE_REFUSALS, DEVICE_ROUTES, type Endpoint, ENDPOINTS } from '@app/contract';
import generated from '@app/contract/answer-schemas.json' with { type: 'json' };

/*
 * The OpenAPI 3.1 document, made from the endpoint table: one operation per endpoint, its input as
 * query parameters (GET) or a JSON / multipart body (POST), its answer inside the `{ code, datas }`
 * envelope, its access rule in words and in `x-access`. Schemas come from zod's own JSON Schema output
 * (draft 2020-12, the dialect OpenAPI 3.1 uses); answers, stated as TypeScript types, from the schemas
 * generated off those types (packages/contract/src/answer-schemas.json, `npm run gen:endpoints`), their
 * named types under components.schemas. The device API (device-api.md) is described the same way.
 */

type JsonSchema = Record<string, unknown>;

/** The generated answers, their `$defs` references pointed at components.schemas. */
const ANSWERS = JSON.parse(JSON.stringify(generated).replaceAll('"#/$defs/', '"#/components/schemas/')) as {
  answers: Record<string, JsonSchema>;
  $defs: Record<string, JsonSchema>;
};

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
      200: e.raw
        ? { description: 'The file or page itself' }
        : { description: 'The envelope', content: { 'application/json': { schema: envelope(ANSWERS.answers[e.name] ?? toSchema(e.answer, 'output')) } } },
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
  for (const [name, route] of Object.entries(DEVICE_ROUTES)) {
    const input = toSchema(route.input, 'input');
    const op: JsonSchema = {
      operationId: `deviceapi.${name}`,
      tags: ['deviceapi'],
      summary: route.summary,
      description:
        'Device API (device-api.md): `Authorization: Bearer <serial>.<secret>`. Refusals: HTTP 401 (code 401) without valid credentials; ' +
        `HTTP 403 (code 403, datas.error.reason one of ${DEVICE_REFUSALS.join(', ')}); HTTP 429 over the rate limit; code 400 for bad input.`,
      security: [{ deviceBearer: [] }],
      responses: { 200: { description: 'The envelope', content: { 'application/json': { schema: envelope(ANSWERS.answers[`deviceapi.${name}`] ?? {}) } } } },
    };
    if (route.method === 'POST') op.requestBody = { required: true, content: { 'application/json': { schema: input } } };
    paths[`${DEVICE_API_BASE}${route.path}`] = { [route.method.toLowerCase()]: op };
  }
  const tags = [...new Set(ENDPOINTS.map((e) => e.module)), 'deviceapi'].map((name) => ({ name }));
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
        deviceBearer: { type: 'http', scheme: 'bearer', description: 'A device: `<serial>.<secret>`' },
      },
      schemas: ANSWERS.$defs,
    },
  };
}

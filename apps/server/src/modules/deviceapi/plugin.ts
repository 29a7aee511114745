import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Code, DEVICE_ROUTES, formatMessage } from '@app/contract';
import { AppError } from '../../lib/errors';
import { localizeFieldError, parseForm } from '../../lib/form';
import { authenticate, type Device, deviceVersionOf, inspect, listPackages, pay, status } from './service';

/*
 * The device API plugin, registered by app.ts under `/deviceapi/v1` (not under /adminapi: no session,
 * no endpoint table, no menu). Answers are the admin envelope with a `msg`: `{ code, msg, datas }`.
 * Refusals: 401 / 403 / 429 with that HTTP status and `datas.error: { reason, message }`; bad input
 * code 400 with `datas.error` (text) and `datas.fields` as in the admin API, or `{ reason: 'duplicate',
 * message }` for a reused order or inspection number. Unknown paths answer the JSON 404 of the envelope
 * plugin (http/web.ts never serves the web app under /deviceapi).
 */

declare module 'fastify' {
  interface FastifyRequest {
    device?: Device;
  }
}

export default async function deviceApi(app: FastifyInstance) {
  app.decorateRequest('device', undefined);

  app.setErrorHandler((error, req, reply) => {
    const err = localizeFieldError(error, req.lang);
    if (!(err instanceof AppError)) throw err;
    const message = err.text(req.lang);
    if (err.extra.retryAfter) reply.header('retry-after', String(err.extra.retryAfter));
    const datas: Record<string, unknown> = err.extra.reason ? { error: { reason: err.extra.reason, message } } : { error: message };
    if (err.extra.fields) datas.fields = err.extra.fields;
    return reply.status(err.extra.status ?? 200).send({ code: err.code, msg: message, datas });
  });

  app.addHook('preHandler', async (req: FastifyRequest) => {
    // An unknown path (the 404 handler runs this scope's hooks too) answers 404 without authenticating.
    if (!req.routeOptions.url) return;
    req.device = await authenticate(app.db, req.headers.authorization, deviceVersionOf(req.headers['x-device-version']));
  });

  const ok = (datas: unknown) => ({ code: Code.OK, msg: 'ok', datas });
  const deviceOf = (req: FastifyRequest) => req.device!;

  const R = DEVICE_ROUTES;
  app.get(R.status.path, async (req) => ok(await status(app.db, deviceOf(req))));
  app.get(R.packages.path, async (req) => ok(await listPackages(app.db, deviceOf(req))));
  app.post(R.payments.path, async (req) => ok(await pay(app.db, deviceOf(req), parseForm(R.payments.input, req.body ?? {}, req.lang))));
  app.post(R.inspections.path, async (req) => ok(await inspect(app.db, deviceOf(req), parseForm(R.inspections.input, req.body ?? {}, req.lang))));

  // Inside the prefix, an unknown path answers 404 in the envelope (with a msg, as every answer here).
  app.setNotFoundHandler((req, reply) => reply.status(404).send({ code: 404, msg: formatMessage('routeNotFound', req.lang), datas: { error: formatMessage('routeNotFound', req.lang) } }));
}

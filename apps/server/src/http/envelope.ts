import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { Code, formatMessage } from '@app/contract';
import { AppError } from '../lib/errors';
import { isPoolTimeout, RETRY_AFTER_SECONDS } from './busy';
import { requestLang } from './lang';

function pgErrorCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/** `{ code: 200, datas }`: what every successful handler returns. */
export const ok = <T>(datas: T) => ({ code: Code.OK, datas });

/**
 * Turns every failure into the wire envelope. Business outcomes (400, 998, 999) answer HTTP 200;
 * malformed requests answer 400 with a message; anything unexpected is logged and answers a plain 500
 * without details, so no input ever produces a stack trace on the wire.
 */
export default fp(async function envelopePlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const lang = request.lang ?? requestLang(request.headers['accept-language']);
    if (error instanceof AppError) {
      const text = error.text(lang);
      if (error.code === Code.OVERDUE) {
        return reply.status(200).send({ code: Code.OVERDUE, datas: { error: { message: text, data: { key: error.extra.key } } } });
      }
      if (error.extra.retryAfter) reply.header('retry-after', String(error.extra.retryAfter));
      // A refusal the client acts on carries its reason beside the text (trust-api.md: `datas.error.reason`).
      const datas: Record<string, unknown> = { error: error.extra.reason ? { message: text, reason: error.extra.reason } : text };
      if (error.extra.fields) datas.fields = error.extra.fields;
      return reply.status(error.extra.status ?? 200).send({ code: error.code, datas });
    }
    // Data exceptions from the database (a number out of range, text too long, a bad literal) are the
    // input's fault: a 400, whichever handler let the value through.
    const pgCode = pgErrorCode(error);
    if (pgCode?.startsWith('22')) {
      return reply.status(200).send({ code: Code.BAD_REQUEST, datas: { error: formatMessage('invalidInput', lang, { detail: pgCode === '22001' ? 'text too long' : 'value out of range' }) } });
    }
    // A unique or foreign-key violation that a service did not pre-check (e.g. two requests racing).
    if (pgCode === '23505' || pgCode === '23503') {
      return reply.status(200).send({ code: Code.BAD_REQUEST, datas: { error: formatMessage(pgCode === '23505' ? 'conflict' : 'brokenReference', lang) } });
    }
    if (isPoolTimeout(error)) {
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ code: 503, datas: { error: formatMessage('busy', lang) } });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Bad JSON, wrong content type, body too large and the like: the client's fault, said plainly.
      const detail = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'payload too large' : error.message.replace(/\s+at .*/s, '').slice(0, 200);
      return reply.status(status).send({ code: status === 400 ? Code.BAD_REQUEST : status, datas: { error: formatMessage('invalidInput', lang, { detail }) } });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: 500, datas: { error: formatMessage('internal', lang) } });
  });

  app.setNotFoundHandler((request, reply) => {
    const lang = request.lang ?? requestLang(request.headers['accept-language']);
    return reply.status(404).send({ code: 404, datas: { error: formatMessage('routeNotFound', lang) } });
  });
});

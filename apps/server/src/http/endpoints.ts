import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { type AnswerOf, type Endpoint, type EndpointModule, type Lang, noInput, type ParsedInputOf } from '@app/contract';
import type { Config } from '../config';
import type { Tx } from '../db/client';
import { type AuditSnapshot, recordAudit, refusals, userAgentOf, withSuppressed } from '../lib/audit';
import { AppError } from '../lib/errors';
import { exportOutcome } from '../lib/export';
import { localizeFieldError, parseForm } from '../lib/form';
import { requireStepUp } from '../lib/sessions';
import { requireAuth, type Auth } from './access';
import { ok } from './envelope';

/*
 * Routes come from the endpoint table only: a server module's routes.ts is
 *
 *   export default defineRoutes(packagesApi, service);
 *
 * where `service` has one function per endpoint, `(db, auth, input, ctx) => answer`, type-checked against
 * the endpoint's parsed input and answer. The access plugin checks the endpoint's access before the
 * handler runs; the onRoute hook refuses any /adminapi route that does not carry an endpoint.
 *
 * Writes (POST) run in one transaction with their audit row: the record's snapshot before, the handler,
 * the snapshot after, the row (lib/audit.ts). A failure rolls all of it back. Uploads (multipart) are
 * the exception: the file is received outside any transaction, then its row is written.
 *
 * The access audit (docs/decisions.md, "Access audit"): a GET marked `read` (one person's health data)
 * writes its row once the answer is computed, before it is sent, as one statement of its own: if the row
 * cannot be written, the call fails and nothing is shown (fail closed). An export (any reply that went
 * through lib/export.ts) writes its row when the response has ended, with its filters and the rows sent,
 * or `cancelled`. A write or health read refused to a signed-in caller as forbidden writes a refused row
 * (at most one per session and endpoint a minute: lib/audit.ts RefusalLimiter). Sign-in rows are the
 * auth module's (modules/auth/service.ts).
 */

/** What a handler may need of the request besides the database, the caller and the input. */
export interface Ctx {
  ip: string;
  lang: Lang;
  config: Config;
  req: FastifyRequest;
  reply: FastifyReply;
}

type AuthFor<E> = E extends { access: { public: true } } ? Auth | null : Auth;
export type Handler<E> = (db: Tx, auth: AuthFor<E>, input: ParsedInputOf<E>, ctx: Ctx) => Promise<AnswerOf<E>>;
export type Handlers<M extends EndpointModule> = { [K in keyof M]: Handler<M[K]> };

export interface RouteOptions<M extends EndpointModule = EndpointModule> {
  /** Snapshots of the record types this module's writes name in `audit`, by record id (null: the whole set). */
  snapshots?: Record<string, AuditSnapshot>;
  /** A write whose record type depends on the caller (modify_field: an admin's or an institution's own account). */
  recordTypes?: Record<string, (auth: Auth | null) => string>;
  /** Plugins the module's endpoints need (e.g. multipart parsing), registered in the module's scope. */
  setup?: (app: FastifyInstance) => Promise<void>;
  /** An endpoint's own preHandler (a throttle, say): it runs after the access check (http/access.ts), before the handler. */
  preHandler?: Partial<Record<keyof M, preHandlerAsyncHookHandler>>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    endpoint?: Endpoint;
  }
}

/** The input of a call: the query string (GET, multipart) or the JSON body, plus the path's `:params`. */
function rawInput(req: FastifyRequest, endpoint: Endpoint): unknown {
  const source = endpoint.method === 'GET' || endpoint.body === 'multipart' ? req.query : req.body;
  const params = req.params as Record<string, unknown> | undefined;
  const base = source && typeof source === 'object' && !Array.isArray(source) ? source : {};
  return params && Object.keys(params).length ? { ...base, ...params } : base;
}

/** The id a write is about: `input.id`, else the `id` it answers (a created record). */
function recordId(input: unknown, answer: unknown): number | null {
  const fromInput = (input as { id?: unknown } | null)?.id;
  if (typeof fromInput === 'number') return fromInput;
  const fromAnswer = (answer as { id?: unknown } | null)?.id;
  return typeof fromAnswer === 'number' ? fromAnswer : null;
}

/** A record id from raw input (a query string's digits too), for a refused row. */
function rawId(input: unknown): number | null {
  const id = (input as { id?: unknown } | null)?.id;
  const n = typeof id === 'number' ? id : typeof id === 'string' && /^[0-9]{1,10}$/.test(id) ? Number(id) : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647 ? n : null;
}

/** A permission refusal worth a row: forbidden, or a forged institution field. */
const isRefusal = (error: unknown) => error instanceof AppError && (error.messageKey === 'forbidden' || error.messageKey === 'institutionMismatch');

/** Registers every endpoint of one module with its handler. */
export function defineRoutes<M extends EndpointModule>(api: M, handlers: Handlers<M>, opts: RouteOptions<M> = {}): FastifyPluginAsync {
  return async function moduleRoutes(app: FastifyInstance) {
    if (opts.setup) await opts.setup(app);
    for (const [fn, endpoint] of Object.entries(api) as [string, Endpoint][]) {
      const handler = handlers[fn] as unknown as (db: Tx, auth: Auth | null, input: unknown, ctx: Ctx) => Promise<unknown>;
      if (typeof handler !== 'function') throw new Error(`endpoint ${endpoint.name} has no handler`);
      const audited = endpoint.method === 'POST' && endpoint.audit !== false;
      const typeOf = (auth: Auth | null) => opts.recordTypes?.[fn]?.(auth) ?? (typeof endpoint.audit === 'string' ? endpoint.audit : null);
      if (typeof endpoint.audit === 'string' && !opts.snapshots?.[endpoint.audit]) throw new Error(`endpoint ${endpoint.name}: no snapshot for record type "${endpoint.audit}"`);

      const reads = endpoint.method === 'GET' ? endpoint.read : undefined;

      app.route({
        method: endpoint.method,
        url: endpoint.path,
        config: { endpoint },
        preHandler: opts.preHandler?.[fn as keyof M],
        // A signed-in caller refused a write or a health read (in the access check or by the handler): one
        // refused row, bounded per session and endpoint. No session, no row (a 999 is nobody's).
        onError:
          audited || reads
            ? async (req, _reply, error) => {
                const auth = req.auth;
                if (!auth || !isRefusal(error)) return;
                const admitted = refusals.admit(`${auth.sessionId}|${endpoint.name}`);
                if (!admitted) return;
                const input = endpoint.body === 'multipart' ? null : rawInput(req, endpoint);
                try {
                  await recordAudit(app.db, {
                    auth,
                    endpoint,
                    recordType: reads ?? typeOf(auth),
                    recordId: rawId(input),
                    before: null,
                    after: null,
                    input: withSuppressed(input, admitted.suppressed),
                    ip: req.ip,
                    event: reads ? 'read' : 'write',
                    outcome: 'refused',
                    reason: 'forbidden',
                    userAgent: userAgentOf(req.headers),
                  });
                } catch (err) {
                  // The call is refused either way; the row's loss is logged for the operator.
                  req.log.error({ err }, 'audit: a refused call could not be recorded');
                }
              }
            : undefined,
        handler: async (req, reply) => {
          const auth = 'public' in endpoint.access ? req.auth : requireAuth(req);
          // An endpoint without input fields gets `{}` whatever was sent (what its schema, which strips unknown
          // keys, would answer) without running the validator.
          const input = endpoint.body === 'multipart' ? rawInput(req, endpoint) : endpoint.input === noInput ? {} : parseForm(endpoint.input, rawInput(req, endpoint), req.lang);
          const ctx: Ctx = { ip: req.ip, lang: req.lang, config: app.config, req, reply };
          const userAgent = userAgentOf(req.headers);
          try {
            // Step-up after the access check and the input's validation, before anything changes.
            if (endpoint.stepUp && auth) await requireStepUp(app.db, auth.sessionId);
            // A multipart body arrives at the client's pace: no transaction (and no pooled connection)
            // is held while it does; its audit row follows in a short one of its own.
            const answer =
              audited && endpoint.body === 'multipart'
                ? await handler(app.db, auth, input, ctx).then(async (out) => {
                    await app.db.transaction((tx) =>
                      recordAudit(tx, { auth, endpoint, recordType: null, recordId: recordId(null, out), before: null, after: null, input: out, ip: req.ip, userAgent }),
                    );
                    return out;
                  })
                : audited
                  ? await app.db.transaction(async (tx) => {
                      const recordType = typeOf(auth);
                      const snapshot = recordType ? opts.snapshots?.[recordType] : undefined;
                      if (recordType && !snapshot) throw new Error(`endpoint ${endpoint.name}: no snapshot for record type "${recordType}"`);
                      const before = snapshot ? await snapshot(tx, recordId(input, null)) : null;
                      const out = await handler(tx, auth, input, ctx);
                      const id = recordId(input, out);
                      const after = snapshot ? await snapshot(tx, id) : null;
                      await recordAudit(tx, { auth, endpoint, recordType, recordId: id, before, after, input, ip: req.ip, userAgent });
                      return out;
                    })
                  : await handler(app.db, auth, input, ctx);
            // A read of health data: its row before the answer leaves (fail closed).
            if (reads) await recordAudit(app.db, { auth, endpoint, recordType: reads, recordId: recordId(input, null), before: null, after: null, input, ip: req.ip, event: 'read', userAgent });
            const exported = exportOutcome(reply);
            if (exported) {
              // The file is on its way (or sent): its row when the response has ended, sent in full or cut.
              void exported
                .then(({ rows, cancelled }) =>
                  recordAudit(app.db, {
                    auth,
                    endpoint,
                    recordType: null,
                    recordId: null,
                    before: null,
                    after: null,
                    input,
                    ip: req.ip,
                    event: 'export',
                    reason: cancelled ? 'cancelled' : null,
                    rows,
                    userAgent,
                  }),
                )
                .catch((err) => req.log.error({ err }, 'audit: an export could not be recorded'));
            }
            // A raw answer: the handler sent it (a streamed export), or answered the file's bytes, sent only
            // now, after a health read's audit row (fail closed: the PDF report).
            if (endpoint.raw) return answer instanceof Uint8Array && !reply.sent ? reply.send(answer) : reply;
            return ok(answer ?? null);
          } catch (error) {
            throw localizeFieldError(error, req.lang);
          }
        },
      });
    }
  };
}

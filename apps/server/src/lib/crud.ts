import { eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ListResult, MessageKey } from '@app/contract';
import type { Db, Tx } from '../db/client';
import { requireAuth, type Access, type Auth } from '../http/access';
import { ok } from '../http/envelope';
import { fieldError, localizeFieldError, parseForm } from './form';
import { cappedCount, offsetOf } from './list';

/*
 * The shape shared by record modules (packages, doctors, users, params): routes that parse with the
 * contract schema, call one service function and answer ok(result), and the five calls of a record
 * page: GET /<prefix>/list and /detail, POST /<prefix>/add, /edit, /del.
 */

/**
 * One API call: `access` as in http/access.ts, the input parsed from the query (GET) or body (POST) with
 * parseForm, then `handler(input, auth)`; answers ok(result ?? null). A FieldError becomes a 400 with
 * its per-field message in the caller's language.
 */
export function route<S extends z.ZodType, O>(
  app: FastifyInstance, method: 'GET' | 'POST', path: string, access: Exclude<Access, 'public'>, schema: S,
  handler: (input: z.output<S>, auth: Auth) => Promise<O>,
) {
  const handle = async (req: FastifyRequest) => {
    const auth = requireAuth(req);
    const input = parseForm(schema, method === 'GET' ? req.query : req.body, req.lang);
    try {
      return ok((await handler(input, auth)) ?? null);
    } catch (error) {
      throw localizeFieldError(error, req.lang);
    }
  };
  if (method === 'GET') app.get(path, { config: { access } }, handle);
  else app.post(path, { config: { access } }, handle);
}

export interface RecordService<Q, A, E> {
  list(db: Db, auth: Auth, q: Q): Promise<ListResult<unknown>>;
  detail(db: Db, auth: Auth, id: number): Promise<unknown>;
  add(db: Db, auth: Auth, body: A): Promise<{ id: number }>;
  edit(db: Db, auth: Auth, body: E): Promise<unknown>;
  remove(db: Db, auth: Auth, id: number): Promise<unknown>;
}

export interface RecordRoutes<QS extends z.ZodType, AS extends z.ZodType, ES extends z.ZodType> {
  /** Path prefix: 'package' gives /package/list, /package/detail, ... */
  prefix: string;
  /** Route name whose page the reads need (routes.ts). */
  page: string;
  /** Button keys of the writes. */
  buttons: { add: string; edit: string; del: string };
  /** Access of the detail call when it differs from the page (users: the user:detail button). */
  detailAccess?: Exclude<Access, 'public'>;
  schemas: { list: QS; id: z.ZodType<{ id: number }>; add: AS; edit: ES };
  service: RecordService<z.output<QS>, z.output<AS>, z.output<ES>>;
}

/** Registers list / detail / add / edit / del. Answers: ListResult, the detail, { id }, null, null. */
export function recordRoutes<QS extends z.ZodType, AS extends z.ZodType, ES extends z.ZodType>(app: FastifyInstance, def: RecordRoutes<QS, AS, ES>) {
  const { prefix, page, buttons, schemas, service } = def;
  route(app, 'GET', `/${prefix}/list`, { page }, schemas.list, (q, auth) => service.list(app.db, auth, q));
  route(app, 'GET', `/${prefix}/detail`, def.detailAccess ?? { page }, schemas.id, ({ id }, auth) => service.detail(app.db, auth, id));
  route(app, 'POST', `/${prefix}/add`, { button: buttons.add }, schemas.add, (body, auth) => service.add(app.db, auth, body));
  route(app, 'POST', `/${prefix}/edit`, { button: buttons.edit }, schemas.edit, (body, auth) => service.edit(app.db, auth, body));
  route(app, 'POST', `/${prefix}/del`, { button: buttons.del }, schemas.id, ({ id }, auth) => service.remove(app.db, auth, id));
}

/**
 * One page of a list: `rows(limit, offset)` and the capped count of `fromWhere` (a FROM/WHERE fragment,
 * see cappedCount), run together.
 */
export async function pagedList<T>(db: Tx, q: { page: number; limit: number }, fromWhere: SQL, rows: (limit: number, offset: number) => Promise<T[]>): Promise<ListResult<T>> {
  const [list, count] = await Promise.all([rows(q.limit, offsetOf(q)), cappedCount(db, fromWhere)]);
  return { list, ...count };
}

/** The referenced row must exist (a picker value): otherwise a FieldError on `field`. */
export async function assertExists(db: Tx, table: PgTable & { id: AnyPgColumn }, id: number, field: string, key: MessageKey) {
  const [row] = await db.select({ id: table.id }).from(table as PgTable).where(eq(table.id, id)).limit(1);
  if (!row) throw fieldError(field, key);
}


/**
 * The endpoint table's building blocks. Every call of the API is declared once, in its module's
 * contract file (`api/<module>.ts`), with `defineEndpoints(module, { fn: endpoint })`:
 *
 *   export const packagesApi = defineEndpoints('packages', {
 *     list: get('/package/list', { page: 'PackageManage' }, packageListQuery, answer<ListResult<PackageRow>>()),
 *     add: post('/package/add', { button: 'package:add' }, packageAddBody, idAnswer, { audit: 'package' }),
 *   });
 *
 * From that one declaration: the server registers the route and checks its access (a route that is not
 * in the table cannot exist), the server module's handler of the same name is type-checked against the
 * input and answer, the web client calls `packages.list` by name with typed input and answer, and the
 * OpenAPI document lists it. Paths and payloads are the public API: scripts rely on them.
 */
import { z } from 'zod';
import type { Grade } from './constants';
import type { ButtonKey, PageName } from './routes';

/**
 * Who may call an endpoint:
 * - `{ public: true }`: anyone, no session;
 * - `{ session: true }`: any signed-in caller (`kind` narrows it to admins or institutions;
 *   `restricted: true` lets an overdue institution's restricted key through too; `mfaSetup: true` lets
 *   through a platform admin's session that must set up a second factor first, parameter `mfa_required_admins`);
 * - `{ page }` / `{ button }`: the caller must be allowed that page or button by the shared permission
 *   table (grade for institutions, role grants for admins). `page` may list several pages: any of them
 *   will do (a picker's data, e.g. `/acupoint/options`, is open to exactly the pages that show the picker);
 * - `{ grades }`: a grade check alone (0 = admins).
 */
export type Access =
  | { public: true }
  | { session: true; restricted?: boolean; mfaSetup?: boolean; kind?: 'admin' | 'institution' }
  | { page: PageName | readonly PageName[] }
  | { button: ButtonKey }
  | { grades: readonly Grade[] };

/** The pages of a `{ page }` rule, one or several. */
export const accessPages = (page: PageName | readonly PageName[]): readonly PageName[] => (typeof page === 'string' ? [page] : page);

export type Method = 'GET' | 'POST';

/** An answer's schema. `answer<T>()` when only its type is stated (the OpenAPI document shows it as an object). */
export type AnswerSchema<T> = z.ZodType<T>;

export interface EndpointOptions {
  /**
   * The record type a write changes, for the audit trail (the server snapshots the record before and
   * after). Every POST is audited; `false` only for calls that change nothing but sessions (sign-in,
   * sign-out, view-as), which the session table records.
   */
  audit?: string | false;
  /**
   * A GET that reads one person's health data (an inspection, an end user's record): the record type it
   * reads, by `input.id`. Every answered call writes one audit row (`change: read`) before the answer
   * goes out; a refused one (forbidden) writes a refused row.
   */
  read?: string;
  /** How the input arrives: JSON / query string (default), or a multipart upload. */
  body?: 'multipart';
  /** The handler writes the HTTP answer itself (a file), outside the `{ code, datas }` envelope. */
  raw?: true;
  /** A raw answer that stays open (server-sent events): walks that read every answer to its end leave it out. */
  stream?: true;
  /** One line for the API reference. */
  summary?: string;
  /**
   * Step-up (trust-api.md): the calling session must have re-authenticated (`/auth/reauth`, or signed in)
   * within the `reauth_minutes` parameter; otherwise the call answers 400 with `datas.error.reason`
   * `reauth_required` and changes nothing. For the calls that move money or hand out access.
   */
  stepUp?: true;
}

export interface Endpoint<I extends z.ZodType = z.ZodType, O = unknown, A extends Access = Access> extends EndpointOptions {
  /** `<module>.<fn>`: unique; the web client's and the query cache's name for it. */
  name: string;
  module: string;
  fn: string;
  method: Method;
  /** Under API_BASE; `:param` segments are filled from the input. */
  path: `/${string}`;
  access: A;
  input: I;
  answer: AnswerSchema<O>;
}

/** An endpoint before `defineEndpoints` names it. */
export type EndpointSpec<I extends z.ZodType = z.ZodType, O = unknown, A extends Access = Access> = Omit<Endpoint<I, O, A>, 'name' | 'module' | 'fn'>;

export type InputOf<E> = E extends { input: infer I extends z.ZodType } ? z.input<I> : never;
export type ParsedInputOf<E> = E extends { input: infer I extends z.ZodType } ? z.output<I> : never;
export type AnswerOf<E> = E extends { answer: AnswerSchema<infer O> } ? O : never;

/** A typed answer whose shape lives in a TypeScript interface (validated by the server's own code). */
export const answer = <T>() => z.custom<T>(() => true);
/** `{ id }` of a created record. */
export const idAnswer = z.object({ id: z.number().int() });
/** Writes that answer nothing. */
export const nullAnswer = z.null();
/** Calls without input. */
export const noInput = z.object({});

export const get = <I extends z.ZodType, O, const A extends Access>(path: `/${string}`, access: A, input: I, out: AnswerSchema<O>, opts: EndpointOptions = {}): EndpointSpec<I, O, A> => ({
  method: 'GET',
  path,
  access,
  input,
  answer: out,
  ...opts,
});
export const post = <I extends z.ZodType, O, const A extends Access>(path: `/${string}`, access: A, input: I, out: AnswerSchema<O>, opts: EndpointOptions = {}): EndpointSpec<I, O, A> => ({
  method: 'POST',
  path,
  access,
  input,
  answer: out,
  ...opts,
});

type Named<M> = { [K in keyof M]: M[K] extends EndpointSpec<infer I, infer O, infer A> ? Endpoint<I, O, A> : never };

/** Names a module's endpoints `<module>.<fn>`. */
export function defineEndpoints<const M extends Record<string, EndpointSpec<z.ZodType, unknown, Access>>>(module: string, specs: M): Named<M> {
  const out: Record<string, Endpoint> = {};
  // biome-ignore lint/plugin/no-property-after-spread: the endpoint table, built once
  for (const [fn, spec] of Object.entries(specs)) out[fn] = { ...spec, name: `${module}.${fn}`, module, fn } as Endpoint;
  return out as Named<M>;
}

export type EndpointModule = Record<string, Endpoint<z.ZodType, unknown, Access>>;

// ---------------------------------------------------------------------------------------------
// Ids
// ---------------------------------------------------------------------------------------------

/** The largest PostgreSQL integer: every serial id is at most this. */
export const INT_MAX = 2_147_483_647;
const ID_TEXT = /^[0-9]{1,10}$/;

/**
 * A row id: a positive safe integer within PostgreSQL's integer range, given as a JSON number or as a
 * string of decimal digits (query strings). `0x10`, `1e0`, ` 1 `, `1.0`, `true`, `[1]` are refused at the field.
 */
export const idSchema = z.union([z.number(), z.string().regex(ID_TEXT).transform(Number)]).pipe(z.number().int().min(1).max(INT_MAX));
/** An id that may be left out (filters): empty text counts as left out. */
export const optionalId = z.preprocess((v) => (v === '' || v === null ? undefined : v), idSchema.optional());
/** An id that may be cleared (`null`, e.g. a parent picker). */
export const nullableId = idSchema.nullable();
/** A list of ids (JSON arrays only), deduplicated. */
export const idList = (max: number) =>
  z
    .array(idSchema)
    .max(max)
    .transform((ids) => [...new Set(ids)]);
/** `{ id }`: detail queries and delete bodies. */
export const idInput = z.object({ id: idSchema });
export type IdInput = z.infer<typeof idInput>;

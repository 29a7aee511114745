import { Column, is, Placeholder, SQL, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Tx } from './client';

/**
 * Statements built once per shape.
 *
 * A list's SQL depends on which of its filters are set and on its order, not on the filters' values; yet
 * drizzle turns the query builder into SQL text on every call, and for a list that is most of Node's work
 * per request after the socket writes (docs/benchmarks.md). A shaped list builds its conditions with
 * `bind(name, value)`: a placeholder in the statement, the value recorded for this call. The names bound,
 * in order, are the shape; the statement of a shape is built and turned into SQL once per database and
 * run with each call's values.
 *
 * The rule that keeps it right: **every part of the SQL that varies between calls is either a bound value
 * or named in the shape key** (the order, the caller's kind). A condition written with a constant of the
 * call (`sql\`... ${q.x}\``) instead of `bind` would be frozen into the first statement of its shape.
 */
export type Bind = <T>(name: string, value: T) => T | Placeholder<string, T>;

/** Values written into the SQL: for statements that are built for one call (exports, the rare fallback count). */
export const inline: Bind = (_name, value) => value;

/** A call's bound values, and the shape their names make. */
export interface Bound {
  bind: Bind;
  values: Record<string, unknown>;
  /** The names bound so far, in order. */
  shape(): string;
}

/**
 * Records each bound value under its name and answers its placeholder. Dates go to the driver as ISO text
 * (a placeholder's value bypasses the column's own encoder). A name bound twice must carry the same value.
 */
export function bound(): Bound {
  const values: Record<string, unknown> = {};
  const names: string[] = [];
  const bind = (<T>(name: string, value: T) => {
    const v = value instanceof Date ? value.toISOString() : value;
    if (name in values) {
      if (values[name] !== v) throw new Error(`shaped statement: "${name}" bound twice with different values`);
    } else {
      values[name] = v;
      names.push(name);
    }
    return sql.placeholder(name) as Placeholder<string, T>;
  }) as Bind;
  return { bind, values, shape: () => names.join(',') };
}

/** What drizzle's `.prepare()` answers: a statement run with the placeholders' values. */
interface Runnable<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/** A query builder of drizzle: its SQL and parameters, and its prepared statement. */
export interface Buildable<R> {
  toSQL(): { sql: string; params: unknown[] };
  prepare(name: string): Runnable<R>;
}

/** Shapes kept per database: a list has a few dozen (its filters set or not, times its orders); the cap is a guard. */
const MAX_SHAPES = 2000;

/** Named statements built so far in this process (their names). */
let named = 0;

/** The SQL of a built query with its parameters: placeholders by name, other values as they are. */
function signature(query: { sql: string; params: unknown[] }): string {
  return `${query.sql}\u0000${JSON.stringify(query.params.map((p) => (is(p, Placeholder) ? { placeholder: p.name } : p)))}`;
}

/** What decodes a driver value: a column, or the decoder an expression's `.mapWith()` set. */
interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** drizzle's decoders that answer the value as it is (a column that does not override it, an expression without `.mapWith()`). */
const identities = new Set<unknown>([Column.prototype.mapFromDriverValue, (sql`` as unknown as { decoder: Decoder }).decoder.mapFromDriverValue]);

/** The decoder of one selected field; none where drizzle's would answer the value as it is. */
function decoderOf(field: unknown): Decoder | undefined {
  const expression = is(field, SQL) ? field : is(field, SQL.Aliased) ? field.sql : undefined;
  // drizzle keeps an expression's `.mapWith()` decoder on an internal field (its own mapping reads it there).
  const decoder = is(field, Column) ? (field as Decoder) : (expression as unknown as { decoder?: Decoder } | undefined)?.decoder;
  return decoder && !identities.has(decoder.mapFromDriverValue) ? decoder : undefined;
}

/** What a prepared select of drizzle's node-postgres session holds (read once, when a shape is first built). */
interface PreparedSelect {
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: (rows: unknown[][]) => unknown;
}

type RowsMapper = (rows: unknown[][]) => Record<string, unknown>[];

/** Compiled mapper factories by selection (its names, and which of its fields are decoded). */
const factories = new Map<string, (...decoders: (Decoder | undefined)[]) => RowsMapper>();

/**
 * The mapper of a flat selection: one object literal per row,
 * `{ "id": row[0], "activated_at": row[5] === null ? null : d5.mapFromDriverValue(row[5]), ... }`.
 * Every row then has the same hidden class from its first property on, where a loop storing `o[name]`
 * is a megamorphic store per cell; the mapping takes half the time and the answer's JSON.stringify less
 * too (docs/benchmarks.md). The source holds nothing but the names, written as JSON string literals
 * (the selection's keys, from our code), and cell indexes; the decoders are arguments.
 * Compiled once per selection, not per statement: a list's shapes (its filters, its orders) select the
 * same columns, and their mappers, closures of one compiled function, share its type feedback and its
 * optimized code, so the JIT warms one function per list rather than one per shape.
 */
function compileRows(names: string[], decoders: (Decoder | undefined)[]): RowsMapper {
  const key = JSON.stringify([names, decoders.map(Boolean)]);
  let factory = factories.get(key);
  if (!factory) {
    const cells = names.map((name, i) => {
      const cell = `row[${i}]`;
      return `${JSON.stringify(name)}: ${decoders[i] ? `${cell} === null ? null : d${i}.mapFromDriverValue(${cell})` : cell}`;
    });
    const source = `return function mapRows(rows) {
  const out = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    out[r] = { ${cells.join(', ')} };
  }
  return out;
};`;
    factory = new Function(...decoders.map((_, i) => `d${i}`), source) as (...decoders: (Decoder | undefined)[]) => RowsMapper;
    factories.set(key, factory);
  }
  return factory(...decoders);
}

/**
 * Rows of a flat selection (every field at the top level, as a list selects its columns under the API's
 * names) built by a mapper made once per statement: drizzle's own maps every cell through a chain of entity
 * checks, the most of its work per list call after the socket writes (docs/benchmarks.md). The driver's
 * values (the session's type parsers) and each field's decoder are the same; a nested selection keeps
 * drizzle's mapping, and so does a key a literal cannot hold as its own (`__proto__`). db/shaped.test.ts
 * compares both on every kind of field.
 */
function flatRows<S>(statement: S): S {
  const prepared = statement as PreparedSelect;
  const fields = prepared.fields;
  if (!fields?.length || prepared.customResultMapper || fields.some((f) => f.path.length !== 1 || f.path[0] === '__proto__')) return statement;
  prepared.customResultMapper = compileRows(
    fields.map((f) => f.path[0]!),
    fields.map((f) => decoderOf(f.field)),
  );
  return statement;
}

interface Held<R> {
  statement: Runnable<R>;
  signature: string;
}

/**
 * A cache of one list's statements by shape, per database. `get(db, shape, build)` answers the statement of
 * `shape`, built from `build(db)` on first use; only its SQL text is reused, the values go with each call.
 *
 * The statement is PostgreSQL's unnamed one by default, planned again at every call for its values: a
 * filter's values change the best plan (a clinic's few devices or an agent's many; a rare status or a
 * common one), and a cached generic plan chosen for one would serve the other. A shape whose values filter
 * no row (`{ named: true }`: the whole table in some order, only the page and the clock bound) gets a named
 * statement, parsed once per connection, whose plan PostgreSQL may keep: with `plan_cache_mode` at its
 * default it takes the generic plan only while that is estimated no dearer than planning for the values,
 * which on a small table it is (planning was most of PostgreSQL's work per device list page, docs/benchmarks.md)
 * and at a million rows, where the page's LIMIT decides the plan, it is not.
 * Inside a transaction the statement is built for that call alone (a prepared query belongs to its session).
 *
 * With `ShapedStatements.verify` on (the server tests turn it on), every call also builds its query and
 * throws when its SQL or a parameter that is not a placeholder differs from the statement held for its
 * shape: a value left out of the shape fails the test that passes it.
 */
export class ShapedStatements<R> {
  static verify = false;
  private readonly byDb = new WeakMap<object, Map<string, Held<R>>>();

  get(db: Tx, shape: string, build: (db: Tx) => Buildable<R>, opts: { named?: boolean } = {}): Runnable<R> {
    if (db instanceof PgTransaction) return build(db).prepare('');
    let shapes = this.byDb.get(db);
    if (!shapes) {
      shapes = new Map();
      this.byDb.set(db, shapes);
    }
    const key = opts.named ? `named ${shape}` : shape;
    const held = shapes.get(key);
    if (held) {
      if (ShapedStatements.verify && signature(build(db).toSQL()) !== held.signature) throw new Error(`shaped statement: the shape "${shape}" was built with a different SQL or value`);
      return held.statement;
    }
    const query = build(db);
    if (shapes.size >= MAX_SHAPES) shapes.clear();
    // A named statement's name is new for every statement built: a connection refuses one name for two texts.
    const statement = flatRows(query.prepare(opts.named ? `shaped_${++named}` : ''));
    shapes.set(key, { statement, signature: signature(query.toSQL()) });
    return statement;
  }

  /** How many shapes are held for `db` (tests). */
  size(db: Tx): number {
    return this.byDb.get(db)?.size ?? 0;
  }
}

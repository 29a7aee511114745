import { and, asc, eq, like, sql, type SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/harness';
import type { Database, Tx } from './client';
import { devices, institutions } from './schema';
import { type Bind, bound, inline, ShapedStatements } from './shaped';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase({ seed: false });
  await database.db
    .insert(devices)
    .values(['A-1', 'A-2', 'B-1', 'B-2', 'B-3'].map((serial, i) => ({ serial, model: 'M', name: `n${i}`, secretHash: `h${i}`, status: i % 2 ? ('active' as const) : ('inactive' as const) })));
});
afterAll(async () => {
  await database?.close();
});

/** A small list: serials by prefix and status, as a shaped statement. */
function conditions(q: { prefix?: string; status?: 'active' | 'inactive' }, bind: Bind): SQL | undefined {
  return and(q.prefix ? like(devices.serial, bind('prefix', `${q.prefix}%`)) : undefined, q.status ? eq(devices.status, bind('status', q.status)) : undefined);
}

describe('bound', () => {
  it('answers a placeholder per value, records the values and names the shape by the names bound', () => {
    const b = bound();
    const at = new Date('2026-01-02T03:04:05.678Z');
    expect(conditions({ prefix: 'A', status: 'active' }, b.bind)).toBeDefined();
    b.bind('at', at);
    expect(b.values).toEqual({ prefix: 'A%', status: 'active', at: '2026-01-02T03:04:05.678Z' });
    expect(b.shape()).toBe('prefix,status,at');
    expect(bound().shape()).toBe('');
  });

  it('takes a name twice with the same value, refuses it with another', () => {
    const b = bound();
    b.bind('x', 1);
    b.bind('x', 1);
    expect(b.shape()).toBe('x');
    expect(() => b.bind('x', 2)).toThrow(/bound twice/);
  });

  it('inline writes the value itself', () => {
    expect(inline('x', 5)).toBe(5);
  });
});

describe('ShapedStatements', () => {
  const run = async (statements: ShapedStatements<{ serial: string }[]>, db: Tx, q: { prefix?: string; status?: 'active' | 'inactive' }, built: string[]) => {
    const b = bound();
    const where = conditions(q, b.bind);
    const statement = statements.get(db, b.shape(), (db) => {
      built.push(b.shape());
      return db.select({ serial: devices.serial }).from(devices).where(where).orderBy(asc(devices.serial));
    });
    return (await statement.execute(b.values)).map((r) => r.serial);
  };

  it('builds a statement once per shape and runs it with each call’s values', async () => {
    const statements = new ShapedStatements<{ serial: string }[]>();
    const built: string[] = [];
    const db = database.db;
    expect(await run(statements, db, { prefix: 'A' }, built)).toEqual(['A-1', 'A-2']);
    expect(await run(statements, db, { prefix: 'B' }, built)).toEqual(['B-1', 'B-2', 'B-3']);
    expect(await run(statements, db, { prefix: 'B', status: 'active' }, built)).toEqual(['B-2']);
    expect(await run(statements, db, { prefix: 'A', status: 'inactive' }, built)).toEqual(['A-1']);
    expect(await run(statements, db, {}, built)).toEqual(['A-1', 'A-2', 'B-1', 'B-2', 'B-3']);
    // verify mode (on in the server tests) builds on every call too, so count the shapes held instead.
    expect(statements.size(db)).toBe(3);
    expect(new Set(built)).toEqual(new Set(['prefix', 'prefix,status', '']));
  });

  it('prepares a named statement on the connection only when asked (a shape whose values filter nothing)', async () => {
    const statements = new ShapedStatements<{ serial: string }[]>();
    const client = await database.pool.connect(); // one connection, to read its prepared statements
    try {
      const db = drizzle(client) as unknown as Tx;
      const prepared = async () => (await client.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map((r) => r.statement);
      const plain = statements.get(db, 'plain', (db) =>
        db
          .select({ serial: devices.serial })
          .from(devices)
          .where(like(devices.serial, sql.placeholder('p'))),
      );
      expect((await plain.execute({ p: 'A%' })).length).toBe(2);
      expect(await prepared()).toEqual([]);
      const named = statements.get(db, 'all', (db) => db.select({ serial: devices.serial }).from(devices).limit(sql.placeholder('limit')), { named: true });
      expect((await named.execute({ limit: 3 })).length).toBe(3);
      expect((await named.execute({ limit: 4 })).length).toBe(4);
      const texts = await prepared();
      expect(texts).toHaveLength(1);
      expect(texts[0]).toMatch(/from "devices" limit \$1/);
    } finally {
      client.release();
    }
  });

  it('inside a transaction builds for the call alone and holds nothing', async () => {
    const statements = new ShapedStatements<{ serial: string }[]>();
    const built: string[] = [];
    const out = await database.db.transaction(async (tx) => [await run(statements, tx, { prefix: 'A' }, built), await run(statements, tx, { prefix: 'B' }, built)]);
    expect(out).toEqual([
      ['A-1', 'A-2'],
      ['B-1', 'B-2', 'B-3'],
    ]);
    expect(built).toEqual(['prefix', 'prefix']);
    expect(statements.size(database.db)).toBe(0);
  });

  it('with verify on, a value written into the SQL instead of bound fails the call that differs', async () => {
    expect(ShapedStatements.verify).toBe(true);
    const statements = new ShapedStatements<{ serial: string }[]>();
    const byPrefix = (prefix: string) =>
      statements.get(database.db, 'one shape', (db) =>
        db
          .select({ serial: devices.serial })
          .from(devices)
          .where(like(devices.serial, `${prefix}%`)),
      );
    expect((await byPrefix('A').execute({})).length).toBe(2);
    expect(() => byPrefix('B')).toThrow(/different SQL or value/);
    // A condition that appears without binding a value changes the SQL: caught the same way.
    const flagged = (flag: boolean) =>
      statements.get(database.db, 'flag', (db) =>
        db
          .select({ serial: devices.serial })
          .from(devices)
          .where(flag ? sql`${devices.status} = 'active'` : undefined),
      );
    flagged(false);
    expect(() => flagged(true)).toThrow(/different SQL or value/);
  });

  it('maps the rows of a flat selection as drizzle maps them: columns, decoded expressions, aliases, nulls of a left join', async () => {
    await database.db
      .update(devices)
      .set({ activatedAt: new Date('2026-03-04T05:06:07.891Z'), remainingUses: 7 })
      .where(eq(devices.serial, 'A-1'));
    const select = (db: Tx) =>
      db
        .select({
          id: devices.id,
          serial: devices.serial,
          status: devices.status,
          activated_at: sql<string | null>`${devices.activatedAt}`.mapWith((text: string) => new Date(text).toISOString()),
          created: devices.createdAt,
          uses: devices.remainingUses,
          doubled: sql<number>`${devices.remainingUses} * 2`.mapWith(Number),
          plain: sql<string>`'x' || ${devices.serial}`,
          aliased: sql<number>`${devices.id} + 1`.mapWith(Number).as('aliased'),
          owner: institutions.name,
        })
        .from(devices)
        .leftJoin(institutions, eq(institutions.id, devices.institutionId))
        .orderBy(asc(devices.serial));
    const statements = new ShapedStatements<Awaited<ReturnType<typeof select>>>();
    const fast = await statements.get(database.db, 'all', select).execute({});
    const drizzles = await select(database.db);
    expect(fast).toEqual(drizzles);
    expect(fast[0]).toMatchObject({ serial: 'A-1', activated_at: '2026-03-04T05:06:07.891Z', uses: 7, doubled: 14, plain: 'xA-1', owner: null });
    expect(fast[0]!.created).toBeInstanceOf(Date);
    expect(fast[1]).toMatchObject({ serial: 'A-2', activated_at: null, uses: null, doubled: null });
    // Its own mapper, not drizzle's (which maps through entity checks per cell).
    const held = statements.get(database.db, 'all', select) as unknown as { customResultMapper?: unknown };
    expect(typeof held.customResultMapper).toBe('function');
  });

  it('two statements of one selection share its compiled mapper, each with its own decoders', async () => {
    const statements = new ShapedStatements<{ serial: string; mark: string }[]>();
    const select = (mark: string) => (db: Tx) =>
      db
        .select({ serial: devices.serial, mark: sql<string>`${devices.serial}`.mapWith((text: string) => `${mark}:${text}`) })
        .from(devices)
        .where(like(devices.serial, mark === 'a' ? 'A%' : 'B%'))
        .orderBy(asc(devices.serial));
    const a = await statements.get(database.db, 'a', select('a')).execute({});
    const b = await statements.get(database.db, 'b', select('b')).execute({});
    expect(a.map((r) => r.mark)).toEqual(['a:A-1', 'a:A-2']);
    expect(b.map((r) => r.mark)).toEqual(['b:B-1', 'b:B-2', 'b:B-3']);
  });

  it('leaves a nested selection to drizzle', async () => {
    const statements = new ShapedStatements<{ device: { serial: string } }[]>();
    const nested = statements.get(database.db, 'nested', (db) =>
      db
        .select({ device: { serial: devices.serial } })
        .from(devices)
        .orderBy(asc(devices.serial)),
    );
    expect((nested as unknown as { customResultMapper?: unknown }).customResultMapper).toBeUndefined();
    expect((await nested.execute({}))[0]).toEqual({ device: { serial: 'A-1' } });
  });
});

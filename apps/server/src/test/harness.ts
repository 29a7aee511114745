import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { inject } from 'vitest';
import { API_BASE } from '@app/contract';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openPostgres, type Database, type Db, type Tx } from '../db/client';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import * as schema from '../db/schema';
import { DEMO_PASSWORD } from '../seed';
import { eq, inArray } from 'drizzle-orm';
import { adminUsers, institutions, menus, roleMenus, roles } from '../db/schema';
import { hashPassword } from '../lib/crypto';
import { readParams } from '../lib/params';
import type { Auth } from '../http/access';
import { adminQuery, databaseUrl } from './global-setup';

/** The demo accounts' password, for tests that create accounts of their own. */
export { DEMO_PASSWORD };

/**
 * A database of the test file's own on the run's PostgreSQL (test/global-setup.ts: the embedded cluster,
 * or DATABASE_URL's server), copied from a template that is migrated and has every menu node; `seed`
 * (default) copies the one with the demo data too; `empty` gives a database with no table. Dropped again at close.
 */
export async function openTestDatabase(opts: { seed?: boolean; empty?: boolean } = {}): Promise<Database> {
  const { url, templates } = inject('testDatabase');
  const name = `t_${randomBytes(6).toString('hex')}`;
  // `empty`: not even migrated (a copy of the server's template1).
  const template = opts.empty ? 'template1' : opts.seed === false ? templates.bare : templates.seeded;
  await adminQuery(url, `create database ${name} template ${template}`);
  // The forced drop at close may end a connection the pool is still closing: expected, not worth a line.
  const database = await openPostgres(databaseUrl(url, name), { onIdleError: () => {} });
  return {
    ...database,
    close: async () => {
      await database.close();
      await adminQuery(url, `drop database if exists ${name} with (force)`);
    },
  };
}

export interface CallOptions {
  key?: string | null;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
  lang?: string;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  close(): Promise<void>;
  /** Calls the API as the client does: the key in the payload (query for GET, body otherwise). */
  call<T = any>(method: 'GET' | 'POST', path: string, opts?: CallOptions): Promise<{ status: number; code: number; datas: T; raw: string }>;
  /** Signs in a demo account and returns its key and id. */
  login(username: string, kind?: 'admin' | 'institution', password?: string): Promise<{ key: string; id: number }>;
  /** Creates an admin whose role holds exactly these menu signs (pages, buttons), signs it in, returns its key. */
  adminWith(username: string, signs: string[]): Promise<string>;
  /** The id of a demo institution by its username. */
  institutionId(username: string): Promise<number>;
}

/** Another app on a test file's database with other settings (e.g. `webDist`), for module tests (modules never import app.ts). */
export function buildAppOn(db: Db, overrides: Partial<ReturnType<typeof loadConfig>> = {}, opts?: Parameters<typeof buildApp>[2]) {
  return buildApp({ ...loadConfig({}), logLevel: 'silent', ...overrides }, db, opts);
}

export async function createTestApp(opts: { seed?: boolean } = {}): Promise<TestApp> {
  const database = await openTestDatabase(opts);
  const config = { ...loadConfig({}), logLevel: 'silent', webDist: undefined };
  const app = await buildApp(config, database.db);
  await app.ready();

  const call: TestApp['call'] = async (method, path, o = {}) => {
    const payload: Record<string, unknown> = { ...(method === 'GET' ? o.query : (o.body as Record<string, unknown>)) };
    if (o.key) payload.key = o.key;
    const req: InjectOptions = { method, url: `${API_BASE}${path}`, headers: { 'accept-language': o.lang ?? 'en', ...o.headers } };
    if (method === 'GET') req.query = Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, String(v)]));
    else req.payload = o.body !== undefined && typeof o.body !== 'object' ? (o.body as string) : payload;
    const res = await app.inject(req);
    let json: any = {};
    try {
      json = res.json();
    } catch {
      /* not JSON */
    }
    return { status: res.statusCode, code: json.code, datas: json.datas, raw: res.body };
  };

  const login: TestApp['login'] = async (username, kind = 'admin', password = DEMO_PASSWORD) => {
    const res = await call('POST', kind === 'admin' ? '/login/login' : '/login/institution_login', { body: { username, password } });
    if (res.code !== 200) throw new Error(`login ${username} failed: ${res.raw}`);
    return res.datas;
  };

  const adminWith: TestApp['adminWith'] = async (username, signs) => {
    const db = database.db;
    const [role] = await db
      .insert(roles)
      .values({ name: `Role of ${username}` })
      .returning();
    const nodes = signs.length ? await db.select({ id: menus.id }).from(menus).where(inArray(menus.sign, signs)) : [];
    if (nodes.length !== signs.length) throw new Error(`adminWith: unknown menu signs in ${signs.join(', ')}`);
    if (nodes.length) await db.insert(roleMenus).values(nodes.map((n) => ({ roleId: role!.id, menuId: n.id })));
    await db.insert(adminUsers).values({ username, name: username, passwordHash: await hashPassword(DEMO_PASSWORD), roleId: role!.id });
    return (await login(username)).key;
  };

  const institutionId: TestApp['institutionId'] = async (username) => (await database.db.select({ id: institutions.id }).from(institutions).where(eq(institutions.username, username)))[0]!.id;

  return {
    app,
    db: database.db,
    call,
    login,
    adminWith,
    institutionId,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** A statement left prepared on a connection: its text and its parameters' types (`{}` for none). */
export interface Prepared {
  statement: string;
  types: string;
}

/** The platform's caller (an admin, grade 0) as the access check makes it, to call a service directly. */
export async function platformAuth(db: Db): Promise<Auth> {
  const [admin] = await db.select({ id: adminUsers.id, roleId: adminUsers.roleId }).from(adminUsers).where(eq(adminUsers.username, 'admin'));
  if (!admin) throw new Error('the demo admin is missing');
  return {
    sessionId: 0,
    kind: 'admin',
    restricted: false,
    viewer: { isAdmin: true, grade: 0 },
    params: await readParams(db),
    admin: { id: admin.id, roleId: admin.roleId, isSuper: true, viewRoleId: null, username: 'admin' },
  };
}

/**
 * Runs `run` on one connection of a test app's pool, through a drizzle instance of its own, and answers the
 * named statements it prepared there that read `table` (`pg_prepared_statements` is per connection): what
 * PostgreSQL may plan once and keep for each later call, if no parameter is left to plan for.
 */
export async function preparedBy(t: TestApp, table: string, run: (db: Tx) => Promise<unknown>): Promise<Prepared[]> {
  const client = await (t.db as unknown as { $client: pg.Pool }).$client.connect();
  try {
    // The connection may hold statements of earlier calls: only the ones `run` prepared.
    const since = (await client.query<{ t: string }>('select clock_timestamp()::text as t')).rows[0]!.t;
    await run(drizzle(client, { schema }) as unknown as Tx);
    const prepared = await client.query<Prepared>('select statement, parameter_types::text as types from pg_prepared_statements where prepare_time >= $1 order by prepare_time', [since]);
    return prepared.rows.filter((p) => p.statement.includes(`from "${table}"`));
  } finally {
    client.release();
  }
}

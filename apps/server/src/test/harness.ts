import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { API_BASE } from '@app/contract';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openPglite, openPostgres, type Database, type Db } from '../db/client';
import { DEMO_PASSWORD, seedDemoIfEmpty, syncMenus } from '../seed';
import { eq, inArray } from 'drizzle-orm';
import { adminUsers, institutions, menus, roleMenus, roles } from '../db/schema';
import { hashPassword } from '../lib/crypto';

/** The demo accounts' password, for tests that create accounts of their own. */
export { DEMO_PASSWORD };

/**
 * A fresh database per test file: in-memory PGlite by default, or a new database on the PostgreSQL
 * server named by DATABASE_URL (dropped again at close), so the same suite runs against both.
 */
async function freshDatabase(): Promise<Database & { drop?: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) return openPglite();
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  // The forced drop at close may end a connection the pool is still closing: expected, not worth a line.
  const database = await openPostgres(target.toString(), { onIdleError: () => {} });
  return {
    ...database,
    close: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
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

export async function createTestApp(opts: { seed?: boolean } = {}): Promise<TestApp> {
  const database = await freshDatabase();
  await database.migrate();
  await syncMenus(database.db);
  if (opts.seed !== false) await seedDemoIfEmpty(database.db);
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

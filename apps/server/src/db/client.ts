import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { type EmbeddedCluster, launchEmbeddedIn } from './embedded';
import { AUTH_CHANNEL, type AuthWatch, listenOnConnect, NotifiedCache, setSessionCache, watchChanges } from './session-cache';
import { COUNTS_CHANNEL, newCountCache, setCountCache } from './count-cache';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A database or an open transaction: services take either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface Database {
  db: Db;
  /** `embedded`: the cluster in DATA_DIR this process started; `postgres`: the server of DATABASE_URL. */
  kind: 'embedded' | 'postgres';
  pool: pg.Pool;
  /**
   * Creates pg_trgm and applies drizzle-kit's migrations, then runs `then` (menus, demo data: start-up's
   * other writes), all under the start-up lock on one connection of its own (`underStartupLock`).
   */
  migrate<T = void>(then?: (db: Db) => Promise<T>): Promise<T | undefined>;
  close(): Promise<void>;
}

/** drizzle-kit's migrations and their journal (`meta/_journal.json`). */
export const migrationsFolder = path.resolve(import.meta.dirname, 'migrations');

/**
 * An idle pooled connection that the server ends (restart, failover, a terminated backend) makes the
 * pool emit 'error'; unheard, that event would bring the whole process down. The pool drops the dead
 * client and opens a new one on the next query, so reporting it is all there is to do.
 */
const reportIdleError = (err: Error) => process.stderr.write(`database: idle connection lost: ${err.message}\n`);

/**
 * The PostgreSQL advisory lock (a bigint key of this product's own, in the database's lock space) that
 * start-up's writes run under: processes started together on one empty database wait for each other, so
 * `create extension`, the migrations, the menu sync and the demo data run once, one process after another.
 */
export const STARTUP_LOCK = 0x6269_6f65; // "bioe"

/**
 * Runs `steps` on one pooled connection holding the session-level advisory lock STARTUP_LOCK (waiting
 * for it while another process holds it), and gives both back in finally. A connection that fails while
 * the lock is held is dropped, not returned to the pool: PostgreSQL releases a session's locks when it
 * ends. Needs a direct connection (or a session-mode pooler) for start-up: a transaction-mode pooler
 * does not keep a session's lock.
 */
export async function underStartupLock<T>(pool: pg.Pool, steps: (db: Db) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    return await steps(drizzle(client, { schema }) as unknown as Db);
  } catch (err) {
    broken = err as Error;
    throw err;
  } finally {
    try {
      await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]);
    } catch (err) {
      broken ??= err as Error;
    }
    // Released with the error, the connection is closed rather than pooled: its lock goes with it.
    client.release(broken);
  }
}

/** Connections per server process; what waits beyond them is the bounded queue of http/busy.ts. */
export const POOL_SIZE = 10;

export async function openPostgres(url: string, opts: { onIdleError?: (err: Error) => void; sessionCache?: boolean } = {}): Promise<Database> {
  // A query waits at most 10 s for a connection; the busy check (http/busy.ts) answers 503 long before
  // the queue gets there.
  // The access check's session rows, kept while no write notifies a change (db/session-cache.ts); off
  // with SESSION_CACHE=off (every call reads its session).
  // The list counts (db/count-cache.ts) are kept the same way, by the same switch and listener.
  const cache = opts.sessionCache === false ? undefined : new NotifiedCache();
  const counts = cache && newCountCache();
  const channels = cache && counts && { [AUTH_CHANNEL]: cache, [COUNTS_CHANNEL]: counts };
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: 10_000, ...(channels ? { onConnect: listenOnConnect(channels) } : {}) });
  pool.on('error', opts.onIdleError ?? reportIdleError);
  // Keep BIGINT money and counts as numbers (they stay far below 2^53) and dates as Date.
  pg.types.setTypeParser(20, (v) => Number(v));
  const db = drizzle(pool, { schema }) as unknown as Db;
  let watch: AuthWatch | undefined;
  if (cache && counts && channels) {
    setSessionCache(db, cache);
    setCountCache(db, counts);
    watch = watchChanges(url, channels, {
      onError: (err) => process.stderr.write(`database: the listener of the session and count caches was lost (${err.message}); both are off until it is back\n`),
    });
    await watch.ready;
  }
  return {
    db,
    kind: 'postgres',
    pool,
    migrate: (then) =>
      underStartupLock(pool, async (locked) => {
        await locked.execute(sql`create extension if not exists pg_trgm`);
        await migratePg(locked as never, { migrationsFolder });
        return then?.(locked);
      }),
    close: async () => {
      await watch?.stop();
      await pool.end();
    },
  };
}

/**
 * Whether the session cache is on: as SESSION_CACHE says, else on for the embedded cluster (its connections
 * are this process's own) and off for DATABASE_URL's server (a transaction-mode pooler in front of it
 * would deliver no notices; the operator turns it on).
 */
export const sessionCacheWanted = (opts: { databaseUrl?: string; sessionCache?: boolean }): boolean => opts.sessionCache ?? !opts.databaseUrl;

/**
 * The PostgreSQL server of DATABASE_URL, or the embedded cluster in DATA_DIR/postgres (`started`, when the
 * caller started it already, as main.ts does; else started here), stopped by close().
 */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string; sessionCache?: boolean }, started?: Promise<EmbeddedCluster>): Promise<Database> {
  const sessionCache = sessionCacheWanted(opts);
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, { sessionCache });
  const cluster = await (started ?? (await launchEmbeddedIn(opts.dataDir)).ready);
  const database = await openPostgres(cluster.url, { sessionCache });
  return {
    ...database,
    // biome-ignore lint/plugin/no-property-after-spread: once at start-up
    kind: 'embedded',
    close: async () => {
      await database.close();
      await cluster.stop();
    },
  };
}

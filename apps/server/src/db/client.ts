import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A database or an open transaction: services take either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/** drizzle-kit's migrations and their journal (`meta/_journal.json`). */
export const migrationsFolder = path.resolve(import.meta.dirname, 'migrations');

/** Embedded PGlite in a folder (or in memory when dir is undefined). */
export async function openPglite(dir?: string): Promise<Database> {
  if (dir) fs.mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir, { extensions: { pg_trgm } });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await db.execute(sql`create extension if not exists pg_trgm`);
      await migratePglite(db as never, { migrationsFolder });
    },
    close: () => client.close(),
  };
}

/**
 * An idle pooled connection that the server ends (restart, failover, a terminated backend) makes the
 * pool emit 'error'; unheard, that event would bring the whole process down. The pool drops the dead
 * client and opens a new one on the next query, so reporting it is all there is to do.
 */
const reportIdleError = (err: Error) => process.stderr.write(`database: idle connection lost: ${err.message}\n`);

export async function openPostgres(url: string, opts: { onIdleError?: (err: Error) => void } = {}): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', opts.onIdleError ?? reportIdleError);
  // Keep BIGINT money and counts as numbers (they stay far below 2^53) and dates as Date.
  pg.types.setTypeParser(20, (v) => Number(v));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      await db.execute(sql`create extension if not exists pg_trgm`);
      await migratePg(db as never, { migrationsFolder });
    },
    close: () => pool.end(),
  };
}

export function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(path.join(opts.dataDir, 'pgdata'));
}

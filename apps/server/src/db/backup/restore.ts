import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { embeddedClusterDir, launchEmbeddedIn, syncEmbedded } from '../embedded';
import { BackupError, buildMigrations, quoteIdent } from './format';
import { type CheckedBackup, loadRows } from './read';
import { connect } from './connection';

/** Restore: the schema by this build's migrations, the rows, the sequences, in one transaction, into an empty database. */

/** Whether the database holds any table or sequence of ours (then restore refuses it). */
export async function databaseIsEmpty(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query(`select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p', 'S', 'v', 'm') and (n.nspname = 'public' or n.nspname = 'drizzle') limit 1`);
  return rows.length === 0;
}

/**
 * Restores a checked backup into the empty database `client` is connected to, in one transaction: this
 * build's migrations up to the backup's, every table's rows with its own triggers off (owner rights are
 * enough: `DISABLE TRIGGER USER`), the plain indexes and the foreign keys dropped before the load and made
 * again after it (each built or checked in one pass, as pg_restore does), the sequences. A failure leaves the
 * database as empty as it was.
 */
export async function restoreInto(client: pg.ClientBase, checked: CheckedBackup, progress: (line: string) => void = () => undefined): Promise<void> {
  if (!(await databaseIsEmpty(client))) throw new BackupError('the target database is not empty (it holds tables): restore fills only an empty database');
  const { header } = checked;
  const migrations = buildMigrations().slice(0, header.schema.migrations);
  await client.query('set statement_timeout = 0');
  await client.query('begin');
  try {
    await client.query('create extension if not exists pg_trgm');
    // drizzle's own bookkeeping, as its migrator makes it; its rows come from the backup.
    await client.query('create schema if not exists drizzle');
    await client.query('create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)');
    for (const m of migrations) for (const statement of m.sql) if (statement.trim()) await client.query(statement);
    const { rows: known } = await client.query<{ schema: string; table: string }>(`select n.nspname as schema, c.relname as table from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and (n.nspname = 'public' or (n.nspname = 'drizzle' and c.relname = '__drizzle_migrations'))`);
    const names = new Set(known.map((r) => `${quoteIdent(r.schema)}.${quoteIdent(r.table)}`));
    for (const t of header.tables) if (!names.has(t.name)) throw new BackupError(`the backup has a table ${t.name} that its schema version does not create here; nothing was restored`);
    for (const t of header.tables) await client.query(`alter table ${t.name} disable trigger user`);
    // Rows the migrations wrote (initial counters, drizzle's own bookkeeping) are the backup's to give.
    await client.query(`truncate ${header.tables.map((t) => t.name).join(', ')}`);

    // Every index and key is built or checked once after the load (as pg_restore does), not kept row by row
    // during it: the foreign keys (each checked by one scan), the primary keys and unique constraints (each
    // index built by one sort), the plain indexes. Dropped in that order (a foreign key needs its unique
    // index), made again in the reverse one.
    const tables = header.tables.map((t) => t.name);
    const constraintsOf = async (types: string) =>
      (
        await client.query<{ on: string; name: string; def: string }>(
          `select format('%I.%I', n.nspname, t.relname) as on, quote_ident(c.conname) as name, pg_get_constraintdef(c.oid) as def
           from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace n on n.oid = t.relnamespace
           where c.contype = any($2::"char"[]) and c.conrelid = any($1::regclass[]) order by c.oid`,
          [tables, types.split('')],
        )
      ).rows;
    const keys = await constraintsOf('f');
    for (const k of keys) await client.query(`alter table ${k.on} drop constraint ${k.name}`);
    const uniques = await constraintsOf('pu');
    for (const u of uniques) await client.query(`alter table ${u.on} drop constraint ${u.name}`);
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `select format('%I.%I', n.nspname, ic.relname) as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i join pg_class ic on ic.oid = i.indexrelid join pg_namespace n on n.oid = ic.relnamespace
       where i.indrelid = any($1::regclass[]) and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
      [tables],
    );
    for (const ix of indexes) await client.query(`drop index ${ix.name}`);

    await loadRows(client, checked, progress);

    let step = Date.now();
    const took = (what: string) => {
      progress(`  ${what} in ${((Date.now() - step) / 1000).toFixed(1)} s`);
      step = Date.now();
    };
    await client.query("set local maintenance_work_mem = '512MB'");
    for (const u of uniques) await client.query(`alter table ${u.on} add constraint ${u.name} ${u.def}`);
    took(`${uniques.length} primary keys and unique constraints`);
    for (const ix of indexes) await client.query(ix.def);
    took(`${indexes.length} indexes`);
    for (const k of keys) await client.query(`alter table ${k.on} add constraint ${k.name} ${k.def}`);
    took(`${keys.length} foreign keys`);

    for (const t of header.tables) await client.query(`alter table ${t.name} enable trigger user`);
    for (const s of header.sequences) await client.query('select setval($1::regclass, $2::bigint, $3)', [s.name, s.last_value, s.is_called]);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  }
  // Fresh statistics for the planner (a restored database has none).
  const analyzed = Date.now();
  await client.query('analyze');
  progress(`  statistics (ANALYZE) in ${((Date.now() - analyzed) / 1000).toFixed(1)} s`);
}

/**
 * Restores a checked backup: into DATABASE_URL's database when set (it must be empty), else into DATA_DIR,
 * which must hold no database yet (its cluster is initialised here; code.key may be there already). A
 * failure leaves no cluster behind (nor DATA_DIR, when it did not exist before).
 */
export async function restoreBackup(checked: CheckedBackup, opts: { databaseUrl?: string; dataDir: string }, progress: (line: string) => void = () => undefined): Promise<string> {
  if (opts.databaseUrl) {
    const client = await connect(opts.databaseUrl);
    try {
      await restoreInto(client, checked, progress);
    } finally {
      await client.end();
    }
    return 'the PostgreSQL database of DATABASE_URL';
  }
  const dataDir = path.resolve(opts.dataDir);
  const existing = embeddedClusterDir(dataDir);
  if (existing) throw new BackupError(`${dataDir} already holds a database (${existing}): restore fills only an empty DATA_DIR; choose a new folder, or move that one away first`);
  const hadDataDir = fs.existsSync(dataDir);
  try {
    // A cluster of its own for the load (no WAL for the tables made in the restore's transaction, no
    // fsync), stopped, every file then written to disk once; the server starts it with its usual settings.
    const cluster = await (await launchEmbeddedIn(dataDir, { bulkLoad: true })).ready;
    try {
      const client = await connect(cluster.url);
      try {
        await restoreInto(client, checked, progress);
      } finally {
        await client.end();
      }
    } finally {
      await cluster.stop();
    }
    const synced = Date.now();
    await syncEmbedded(embeddedClusterDir(dataDir)!);
    progress(`  written to disk in ${((Date.now() - synced) / 1000).toFixed(1)} s`);
  } catch (err) {
    const made = embeddedClusterDir(dataDir) ?? path.join(dataDir, 'postgres');
    fs.rmSync(made, { recursive: true, force: true });
    if (!hadDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return `the embedded database in ${dataDir}`;
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { buildMigrations, checkBackup, loadRows, restoreBackup, restoreInto, writeBackup } from '../src/db/backup';
import { launchEmbedded, syncEmbedded } from '../src/db/embedded';

/*
 * The backup part of the bench (BENCH_PARTS=backup): at the bench's size, the time to read every table once
 * (`COPY (SELECT * FROM t) TO STDOUT`, discarded, in one REPEATABLE READ transaction: what a backup cannot do
 * without), then `writeBackup` (the same reads, gzip, the file, fsync), in rounds side by side so that the
 * shared box's noise falls on both; then the file's check and a restore into an empty database of the same
 * server. Targets: backup <= 2x the read-all, restore <= 4x.
 */

export interface BackupFigures {
  version: string;
  /** Rows of the largest tables. */
  largest: { name: string; rows: number }[];
  rows: number;
  readAll: { ms: number; bytes: number }[];
  backup: { ms: number; bytes: number }[];
  checkMs: number;
  restoreMs: number;
  /** The floor of the restore: the same COPY FROM into tables without indexes, constraints or triggers. */
  loadFloorMs: number;
  /** Embedded: the restore went into an empty DATA_DIR (`npm run restore`'s path); of it, a bare cluster's initdb, start and stop. */
  dataDir?: { clusterMs: number };
}

const quote = (n: string) => `"${n.replace(/"/g, '""')}"`;

async function tablesOf(c: pg.Client): Promise<string[]> {
  const { rows } = await c.query<{ s: string; t: string }>(`select n.nspname as s, c.relname as t from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and (n.nspname = 'public' or (n.nspname = 'drizzle' and c.relname = '__drizzle_migrations')) order by 1, 2`);
  return rows.map((r) => `${quote(r.s)}.${quote(r.t)}`);
}

/** Every table read once in one snapshot, its COPY text counted and dropped. */
async function readAll(c: pg.Client, tables: string[]): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  let bytes = 0;
  await c.query('begin isolation level repeatable read read only');
  for (const t of tables)
    await pipeline(
      c.query(copyTo(`copy (select * from ${t}) to stdout`)),
      new Writable({
        write(chunk: Buffer, _e, done) {
          bytes += chunk.length;
          done();
        },
      }),
    );
  await c.query('commit');
  return { ms: performance.now() - started, bytes };
}

const withDatabase = (url: string, name: string) => url.replace(/\/[^/?]*(\?.*)?$/, `/${name}$1`);

/**
 * `dataDir`: restore as `npm run restore` does on the embedded default, into an empty DATA_DIR (a cluster of
 * its own, loaded without WAL or fsync, then written to disk); the floor then is the same rows by COPY FROM
 * into bare tables made in the same transaction, on such a cluster too. Otherwise (a PostgreSQL server) the
 * restore goes into an empty database of the same server, the floor into bare tables there.
 */
export async function measureBackup(url: string, progress: (line: string) => void, rounds = 2, opts: { dataDir?: boolean } = {}): Promise<BackupFigures> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-backup-'));
  // Reachable by the postgres user when run as root (the restore's clusters live under it).
  fs.chmodSync(dir, 0o755);
  const file = path.join(dir, 'bench.bkp.gz');
  const restoreDb = `bench_restore_${process.pid}`;
  try {
    const version = String((await c.query(`select current_setting('server_version') as v`)).rows[0].v).split(' ')[0]!;
    const tables = await tablesOf(c);
    const figures: BackupFigures = { version, largest: [], rows: 0, readAll: [], backup: [], checkMs: 0, restoreMs: 0, loadFloorMs: 0 };
    for (let i = 0; i < rounds; i++) {
      progress(`backup: round ${i + 1} of ${rounds}: reading every table`);
      figures.readAll.push(await readAll(c, tables));
      progress(`backup: round ${i + 1} of ${rounds}: the backup`);
      const started = performance.now();
      const { bytes, header } = await writeBackup(c, file);
      figures.backup.push({ ms: performance.now() - started, bytes });
      figures.rows = header.tables.reduce((n, t) => n + t.rows, 0);
      figures.largest = header.tables
        .map((t) => ({ name: t.name.replace(/"/g, ''), rows: t.rows }))
        .sort((a, b) => b.rows - a.rows)
        .slice(0, 4);
    }
    if (opts.dataDir) {
      await restoreDataDir(file, dir, figures, progress);
      return figures;
    }
    progress('backup: checking the file and restoring it into an empty database');
    await c.query(`drop database if exists ${restoreDb}`);
    await c.query(`create database ${restoreDb}`);
    const r = new pg.Client({ connectionString: withDatabase(url, restoreDb) });
    await r.connect();
    try {
      let started = performance.now();
      const checked = await checkBackup(file);
      figures.checkMs = performance.now() - started;
      started = performance.now();
      await restoreInto(r, checked, (line) => progress(`backup: ${line.trim()}`));
      figures.restoreMs = performance.now() - started;
      // The floor: the same rows by the same COPY FROM into bare copies of the tables (no index, key or trigger).
      progress('backup: the restore floor (COPY FROM into bare tables)');
      await r.query('create schema floor');
      for (const t of checked.header.tables) await r.query(`create table ${floorName(t.name)} as select * from ${t.name} with no data`);
      started = performance.now();
      await loadOnly(r, bareOf(checked));
      figures.loadFloorMs = performance.now() - started;
    } finally {
      await r.end();
    }
    return figures;
  } finally {
    await c.query(`drop database if exists ${restoreDb} with (force)`).catch(() => undefined);
    await c.end();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

type Checked = Awaited<ReturnType<typeof checkBackup>>;
const floorName = (table: string) => `floor.${quote(table.split('.')[1]!.replace(/"/g, ''))}`;
/** The backup's rows aimed at the floor's bare tables. */
const bareOf = (checked: Checked): Checked =>
  Object.assign({}, checked, { header: Object.assign({}, checked.header, { tables: checked.header.tables.map((t) => Object.assign({}, t, { name: floorName(t.name) })) }) });

/** The rows of a checked backup into existing tables, nothing else (the floor). */
async function loadOnly(c: pg.Client, checked: Checked) {
  await c.query('begin');
  await loadRows(c, checked);
  await c.query('commit');
}

/**
 * The embedded default's restore, as `npm run restore -- FILE` does it: the file's check, then
 * `restoreBackup` into an empty DATA_DIR (initdb, the load, the stop, every file written to disk). Beside
 * it, a bare cluster's initdb, start and stop alone, and the floor: on a cluster started as the restore's
 * is, bare tables made and filled by the same COPY FROM in one transaction, then every file written to disk.
 */
async function restoreDataDir(file: string, dir: string, figures: BackupFigures, progress: (line: string) => void) {
  progress('backup: checking the file and restoring it into an empty DATA_DIR');
  let started = performance.now();
  const checked = await checkBackup(file);
  figures.checkMs = performance.now() - started;
  started = performance.now();
  await restoreBackup(checked, { dataDir: path.join(dir, 'restored') }, (line) => progress(`backup: ${line.trim()}`));
  figures.restoreMs = performance.now() - started;
  fs.rmSync(path.join(dir, 'restored'), { recursive: true, force: true });

  progress('backup: the restore floor (a bare cluster, then COPY FROM into bare tables)');
  const clusterDir = path.join(dir, 'floor');
  started = performance.now();
  const cluster = await (await launchEmbedded({ dir: clusterDir, bulkLoad: true })).ready;
  const clusterMs = performance.now() - started;
  try {
    const r = new pg.Client({ connectionString: cluster.url });
    await r.connect();
    try {
      // The schema's tables made, bare copies of them (the same column types: jsonb is parsed, as it must
      // be), filled, all in one transaction: the least a restore into this cluster does.
      await r.query('create extension if not exists pg_trgm');
      await r.query('create schema if not exists drizzle');
      await r.query('create table drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)');
      for (const m of buildMigrations().slice(0, checked.header.schema.migrations)) for (const statement of m.sql) if (statement.trim()) await r.query(statement);
      started = performance.now();
      await r.query('begin');
      await r.query('create schema floor');
      for (const t of checked.header.tables) await r.query(`create table ${floorName(t.name)} as select * from ${t.name} with no data`);
      await loadRows(r, bareOf(checked));
      await r.query('commit');
      // Durable as the restore is: every file written to disk.
      await syncEmbedded(cluster.dir);
      figures.loadFloorMs = performance.now() - started;
    } finally {
      await r.end();
    }
  } finally {
    started = performance.now();
    await cluster.stop();
  }
  figures.dataDir = { clusterMs: clusterMs + (performance.now() - started) };
  fs.rmSync(clusterDir, { recursive: true, force: true });
  fs.rmSync(cluster.dir, { recursive: true, force: true });
}

export function backupMarkdown(f: BackupFigures, engine: string): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const minRead = Math.min(...f.readAll.map((x) => x.ms));
  const minBackup = Math.min(...f.backup.map((x) => x.ms));
  const restore = f.checkMs + f.restoreMs;
  const lines = [
    `### Backup and restore (${engine}, PostgreSQL ${f.version})`,
    '',
    `${f.rows.toLocaleString('en-US')} rows (${f.largest.map((t) => `${t.name} ${t.rows.toLocaleString('en-US')}`).join(', ')}).`,
    '',
    '| round | read every table | backup | ratio |',
    '|---|---|---|---|',
    ...f.readAll.map(
      (r, i) =>
        `| ${i + 1} | ${s(r.ms)} (${(r.bytes / 1e6).toFixed(0)} MB of COPY text) | ${s(f.backup[i]!.ms)} (${(f.backup[i]!.bytes / 1e6).toFixed(1)} MB file) | ${(f.backup[i]!.ms / r.ms).toFixed(3)} |`,
    ),
    '',
    `| figure | time | x read-all (best ${s(minRead)}) | target |`,
    '|---|---|---|---|',
    `| backup (best) | ${s(minBackup)} | ${(minBackup / minRead).toFixed(3)} | <= 2 |`,
    `| restore: file check | ${s(f.checkMs)} | ${(f.checkMs / minRead).toFixed(3)} | |`,
    `| restore: ${f.dataDir ? 'into an empty DATA_DIR: initdb, schema, rows, keys, indexes, ANALYZE, stop, sync' : 'schema, rows, sequences, ANALYZE'} | ${s(f.restoreMs)} | ${(f.restoreMs / minRead).toFixed(3)} | |`,
    ...(f.dataDir ? [`| of which a bare cluster's initdb, start and stop | ${s(f.dataDir.clusterMs)} | ${(f.dataDir.clusterMs / minRead).toFixed(3)} | |`] : []),
    `| restore (check + load) | ${s(restore)} | ${(restore / minRead).toFixed(3)} | <= 4 |`,
    `| restore floor: the rows' COPY FROM into bare tables${f.dataDir ? " (made in the same transaction, on a cluster started as the restore's)" : ''} | ${s(f.loadFloorMs)} | ${(f.loadFloorMs / minRead).toFixed(3)} | |`,
  ];
  return lines.join('\n');
}

import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { migrationsFolder } from './client';
import { embeddedClusterDir, launchEmbeddedIn, runningEmbedded } from './embedded';

/*
 * Backup and restore of the whole database as one file (docs/decisions.md, "Backup and restore"). The
 * embedded cluster's binaries have no pg_dump, so the backup reads every table of the schema (every table
 * of `public`, and drizzle's `drizzle.__drizzle_migrations`, found in the catalog: a table added later is
 * included without a line here) with `COPY ... TO STDOUT` inside one REPEATABLE READ READ ONLY
 * transaction, one snapshot, while the server goes on writing. Restore creates the schema with this
 * build's migrations up to the backup's, loads the rows with the tables' own triggers off (the stats
 * roll-ups come from the file, not counted a second time; the append-only rules are not in the way) and
 * sets the sequences, all in one transaction.
 *
 * The file:
 *   MAGIC (16 bytes) | header length H (uint32 BE) | header, JSON padded with spaces to H bytes
 *   | the data, gzip | trailer: sha256 (32 bytes) | END (8 bytes)
 * The data, once decompressed: per table of the header, in its order, frames `length (uint32 BE) | COPY
 * text` and a frame of length 0 at the table's end. The sha256 is that of the data's bytes followed by the
 * first 20 + H bytes (every byte of the file before the trailer; the data is hashed as it is written, the
 * header, whose row counts are known only at the end, is written last into the room kept for it).
 */

export const MAGIC = Buffer.from('BIOADMIN-BACKUP\n', 'latin1');
export const END = Buffer.from('BKUP-END', 'latin1');
export const FORMAT_VERSION = 1;
/** The file extension of backups (daily backups are `backup-YYYYMMDD-HHMMSS.bkp.gz`). */
export const BACKUP_EXT = 'bkp.gz';
const PREFIX = MAGIC.length + 4;
const TRAILER = 32 + END.length;
/** Frames of the data are about this long (the COPY stream's small chunks gathered, so gzip gets few large writes). */
const FRAME = 1 << 20;
/** A header longer than this is not one of ours. */
const MAX_HEADER = 16 << 20;

export interface BackupTable {
  /** Schema-qualified, quoted where needed: `public.devices`, `drizzle.__drizzle_migrations`. */
  name: string;
  columns: string[];
  rows: number;
}

export interface BackupSequence {
  name: string;
  /** bigint as text. */
  last_value: string;
  is_called: boolean;
}

export interface BackupHeader {
  format: number;
  app: 'bioelectric-admin';
  created_at: string;
  /** The PostgreSQL the backup was read from (`server_version`). */
  server_version: string;
  /** The schema: how many of the build's migrations were applied, and the last one's hash and time. */
  schema: { migrations: number; hash: string; created_at: number };
  compression: 'gzip';
  /** In the order they are in the data, which is an order rows can be loaded in (referenced tables first). */
  tables: BackupTable[];
  sequences: BackupSequence[];
  /** A fingerprint of the activation code key the server had (not the key): restore says when another key is in place. */
  code_key: string | null;
}

/** A refusal meant for the operator: the CLIs print its message alone, without a stack. */
export class BackupError extends Error {}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The migrations of this build, in order (drizzle-kit's journal). */
export function buildMigrations() {
  return readMigrationFiles({ migrationsFolder });
}

interface CatalogTable {
  schema: string;
  table: string;
  name: string;
  columns: string[];
}

/** Every table of the schema (public's, and drizzle's migrations table), referenced tables before the ones that reference them. */
async function catalogTables(client: pg.ClientBase): Promise<CatalogTable[]> {
  const { rows } = await client.query<{ oid: number; schema: string; table: string; columns: string[] }>(`
    select c.oid::int as oid, n.nspname as schema, c.relname as table,
           array(select a.attname::text from pg_attribute a
                 where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
                 order by a.attnum) as columns
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and not c.relispartition
      and (n.nspname = 'public' or (n.nspname = 'drizzle' and c.relname = '__drizzle_migrations'))
    order by n.nspname, c.relname`);
  const { rows: refs } = await client.query<{ child: number; parent: number }>(`select conrelid::int as child, confrelid::int as parent from pg_constraint where contype = 'f'`);
  // Kahn's order: a table once every table it references is placed (a table referencing itself is loaded
  // by one COPY, whose foreign keys are checked at its end). Ties by name, so the order is stable.
  const byOid = new Map(rows.map((r) => [r.oid, r]));
  const needs = new Map(rows.map((r) => [r.oid, new Set<number>()]));
  for (const { child, parent } of refs) if (child !== parent && byOid.has(child) && byOid.has(parent)) needs.get(child)!.add(parent);
  const placed: typeof rows = [];
  const done = new Set<number>();
  while (placed.length < rows.length) {
    const next = rows.find((r) => !done.has(r.oid) && [...needs.get(r.oid)!].every((p) => done.has(p)));
    // A cycle of references (none in this schema): the rest in name order; restore would say which key failed.
    const pick = next ?? rows.find((r) => !done.has(r.oid))!;
    done.add(pick.oid);
    placed.push(pick);
  }
  return placed.map((r) => ({ schema: r.schema, table: r.table, name: `${quoteIdent(r.schema)}.${quoteIdent(r.table)}`, columns: r.columns }));
}

/** The sequences of the schema with their values (read after the snapshot is taken: never below an id it holds). */
async function sequenceValues(client: pg.ClientBase): Promise<BackupSequence[]> {
  const { rows } = await client.query<{ schema: string; name: string }>(`
    select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'S' and n.nspname in ('public', 'drizzle') order by 1, 2`);
  const out: BackupSequence[] = [];
  for (const s of rows) {
    const name = `${quoteIdent(s.schema)}.${quoteIdent(s.name)}`;
    const { rows: v } = await client.query<{ last_value: string; is_called: boolean }>(`select last_value::text as last_value, is_called from ${name}`);
    out.push({ name, last_value: v[0]!.last_value, is_called: v[0]!.is_called });
  }
  return out;
}

/** Splits a stream's chunks into frames of about FRAME bytes, each `length | bytes`, then the end frame. */
async function* framed(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let size = 0;
  const flush = () => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(size);
    const frame = Buffer.concat([len, ...parts], size + 4);
    parts = [];
    size = 0;
    return frame;
  };
  for await (const chunk of source) {
    parts.push(chunk);
    size += chunk.length;
    if (size >= FRAME) yield flush();
  }
  if (size) yield flush();
  yield Buffer.alloc(4);
}

export interface BackupResult {
  file: string;
  bytes: number;
  header: BackupHeader;
}

/**
 * Writes a backup of the database `client` is connected to into `file`: under a temporary name beside it
 * (`<file>.tmp-<pid>`, never a valid backup: its header is written last and its checksum at the very end),
 * fsynced, then renamed. `client` must be idle and is left idle (the transaction ends either way).
 */
export async function writeBackup(client: pg.ClientBase, file: string, opts: { codeKey?: string | null; gzipLevel?: number } = {}): Promise<BackupResult> {
  const target = path.resolve(file);
  const tmp = `${target}.tmp-${process.pid}`;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  let fd: number | undefined;
  await client.query('begin isolation level repeatable read read only');
  try {
    // The first statement takes the snapshot: everything below reads the database as it was then.
    const [{ version }] = (await client.query<{ version: string }>("select current_setting('server_version') as version")).rows as [{ version: string }];
    const tables = await catalogTables(client);
    if (!tables.some((t) => t.schema === 'drizzle')) throw new BackupError('the database holds no schema (it was never migrated): nothing to back up');
    const applied = (await client.query<{ hash: string; created_at: string }>('select hash, created_at::text as created_at from drizzle.__drizzle_migrations order by created_at, id')).rows;
    const last = applied.at(-1);
    if (!last) throw new BackupError('the database holds no schema (no migration applied): nothing to back up');
    const sequences = await sequenceValues(client);
    const header: BackupHeader = {
      format: FORMAT_VERSION,
      app: 'bioelectric-admin',
      created_at: new Date().toISOString(),
      server_version: version,
      schema: { migrations: applied.length, hash: last.hash, created_at: Number(last.created_at) },
      compression: 'gzip',
      tables: tables.map((t) => ({ name: t.name, columns: t.columns, rows: 0 })),
      sequences,
      code_key: opts.codeKey ?? null,
    };
    // Room for the header once every count is known: the same JSON with the widest counts, and some slack.
    const room = Buffer.byteLength(JSON.stringify(Object.assign({}, header, { tables: header.tables.map((t) => Object.assign({}, t, { rows: Number.MAX_SAFE_INTEGER })) }))) + 256;

    fd = fs.openSync(tmp, 'w', 0o600);
    const hash = createHash('sha256');
    let dataBytes = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        dataBytes += chunk.length;
        done(null, chunk);
      },
    });
    async function* data() {
      for (let i = 0; i < tables.length; i++) {
        const t = tables[i]!;
        const stream = client.query(copyTo(`copy ${t.name} (${t.columns.map(quoteIdent).join(', ')}) to stdout`));
        yield* framed(stream as AsyncIterable<Buffer>);
        header.tables[i]!.rows = stream.rowCount;
      }
    }
    const out = fs.createWriteStream('', { fd, start: PREFIX + room, autoClose: false });
    await pipeline(Readable.from(data()), zlib.createGzip({ level: opts.gzipLevel ?? 1, chunkSize: 256 * 1024 }), tap, out);
    await client.query('commit');

    const json = Buffer.from(JSON.stringify(header));
    if (json.length > room) throw new Error('backup: the header outgrew its room');
    const head = Buffer.alloc(PREFIX + room, 0x20);
    MAGIC.copy(head, 0);
    head.writeUInt32BE(room, MAGIC.length);
    json.copy(head, PREFIX);
    hash.update(head);
    fs.writeSync(fd, head, 0, head.length, 0);
    const trailer = Buffer.concat([hash.digest(), END]);
    fs.writeSync(fd, trailer, 0, trailer.length, PREFIX + room + dataBytes);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tmp, target);
    fsyncDir(path.dirname(target));
    return { file: target, bytes: PREFIX + room + dataBytes + TRAILER, header };
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

function fsyncDir(dir: string) {
  try {
    const d = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(d);
    } finally {
      fs.closeSync(d);
    }
  } catch {
    // Not every platform opens a folder for fsync (Windows); the file itself was fsynced.
  }
}

export interface CheckedBackup {
  file: string;
  header: BackupHeader;
  /** Where the data starts and ends in the file. */
  dataStart: number;
  dataEnd: number;
}

/**
 * Reads a backup's header and checks the whole file (magic, format, checksum) and that this build knows its
 * schema; a refusal says what is wrong. Nothing is written.
 */
export async function checkBackup(file: string): Promise<CheckedBackup> {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    throw new BackupError(`${file}: no such file`);
  }
  if (!st.isFile()) throw new BackupError(`${file} is not a file`);
  const fd = fs.openSync(file, 'r');
  let head: Buffer;
  let room: number;
  try {
    const prefix = Buffer.alloc(PREFIX);
    const n = fs.readSync(fd, prefix, 0, PREFIX, 0);
    // A backup stopped midway has its room for the header still zero: the header is written last.
    if (n === PREFIX && prefix.every((b) => b === 0)) throw new BackupError(`${file} is an unfinished backup (its header was never written: the backup was stopped midway); nothing was restored`);
    if (n < PREFIX || !prefix.subarray(0, MAGIC.length).equals(MAGIC)) throw new BackupError(`${file} is not a backup of this system (its first bytes are not a backup's)`);
    room = prefix.readUInt32BE(MAGIC.length);
    if (room > MAX_HEADER || PREFIX + room + TRAILER > st.size) throw new BackupError(`${file} is damaged or truncated (it is shorter than its header says)`);
    head = Buffer.alloc(PREFIX + room);
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  let header: BackupHeader;
  try {
    header = JSON.parse(head.subarray(PREFIX).toString('utf8')) as BackupHeader;
  } catch {
    throw new BackupError(`${file} is damaged (its header cannot be read)`);
  }
  if (typeof header.format !== 'number' || header.app !== 'bioelectric-admin') throw new BackupError(`${file} is damaged (its header is not a backup header)`);
  if (header.format !== FORMAT_VERSION) throw new BackupError(`${file} is a backup of format ${header.format}; this build reads format ${FORMAT_VERSION} (use the build that made it, or a newer one)`);

  const dataStart = PREFIX + room;
  const dataEnd = st.size - TRAILER;
  const hash = createHash('sha256');
  if (dataEnd > dataStart) for await (const chunk of fs.createReadStream(file, { start: dataStart, end: dataEnd - 1, highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  hash.update(head);
  const trailer = Buffer.alloc(TRAILER);
  const fd2 = fs.openSync(file, 'r');
  try {
    fs.readSync(fd2, trailer, 0, TRAILER, dataEnd);
  } finally {
    fs.closeSync(fd2);
  }
  if (!trailer.subarray(32).equals(END) || !trailer.subarray(0, 32).equals(hash.digest()))
    throw new BackupError(`${file} is damaged or truncated: its checksum does not match its contents (an unfinished or altered copy); nothing was restored`);

  const migrations = buildMigrations();
  const n = header.schema?.migrations;
  if (!Number.isInteger(n) || n < 1) throw new BackupError(`${file} is damaged (its header names no schema version)`);
  if (n > migrations.length) throw new BackupError(`${file} was made by a newer build (schema version ${n}; this build knows ${migrations.length}): restore it with that build or a newer one`);
  if (migrations[n - 1]!.hash !== header.schema.hash) throw new BackupError(`${file} has a schema this build does not know (migration ${n} differs): restore it with the build that made it`);
  return { file, header, dataStart, dataEnd };
}

/** The frames of a backup's data, decompressed: `null` at each table's end. */
async function* frames(checked: CheckedBackup): AsyncGenerator<Buffer | null> {
  const gunzip = zlib.createGunzip({ chunkSize: 256 * 1024 });
  const source = fs.createReadStream(checked.file, { start: checked.dataStart, end: checked.dataEnd - 1, highWaterMark: 1 << 20 });
  source.on('error', (err) => gunzip.destroy(err));
  source.pipe(gunzip);
  let parts: Buffer[] = [];
  let size = 0;
  const take = (n: number): Buffer => {
    const all = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    parts = rest.length ? [rest] : [];
    size = rest.length;
    return out;
  };
  let want = -1;
  for await (const chunk of gunzip) {
    parts.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    for (;;) {
      if (want < 0) {
        if (size < 4) break;
        want = take(4).readUInt32BE(0);
        if (want === 0) {
          want = -1;
          yield null;
          continue;
        }
      }
      if (size < want) break;
      yield take(want);
      want = -1;
    }
  }
  if (want >= 0 || size) throw new BackupError(`${checked.file} is damaged: its data ends inside a frame`);
}

/** Waits until `stream` may take more, or fails with it. */
async function writeTo(stream: Writable, chunk: Buffer, failed: Promise<never>) {
  if (!stream.write(chunk)) await Promise.race([once(stream, 'drain'), failed]);
}

/** Every table's rows of a checked backup, by COPY FROM, into the tables its header names (in the caller's transaction). */
export async function loadRows(client: pg.ClientBase, checked: CheckedBackup, progress: (line: string) => void = () => undefined): Promise<void> {
  const { header } = checked;
  const it = frames(checked)[Symbol.asyncIterator]();
  for (const t of header.tables) {
    const started = Date.now();
    const stream = client.query(copyFrom(`copy ${t.name} (${t.columns.map(quoteIdent).join(', ')}) from stdin`));
    let fail: (err: Error) => void = () => undefined;
    const failed = new Promise<never>((_, reject) => {
      fail = reject;
    });
    failed.catch(() => undefined);
    stream.on('error', (err) => fail(err));
    const finished = new Promise<void>((resolve) => stream.on('finish', () => resolve()));
    try {
      for (;;) {
        const next = await it.next();
        if (next.done) throw new BackupError(`${checked.file} is damaged: its data ends before table ${t.name}`);
        if (next.value === null) break;
        await writeTo(stream, next.value, failed);
      }
      stream.end();
      await Promise.race([finished, failed]);
    } catch (err) {
      stream.destroy();
      throw err;
    }
    if (stream.rowCount !== t.rows) throw new BackupError(`${checked.file} is damaged: table ${t.name} has ${stream.rowCount} rows, its header says ${t.rows}`);
    if (t.rows > 10_000) progress(`  ${t.name}: ${t.rows} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (!(await it.next()).done) throw new BackupError(`${checked.file} is damaged: it holds more data than its header's tables`);
}

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

    // Indexes are built once after the load (as pg_restore does), not kept row by row during it: every one
    // that no constraint is (primary keys and unique constraints stay, and so does an index a foreign key needs).
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `select format('%I.%I', n.nspname, ic.relname) as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i join pg_class ic on ic.oid = i.indexrelid join pg_namespace n on n.oid = ic.relnamespace
       where i.indrelid = any($1::regclass[])
         and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
         and not exists (select 1 from pg_depend d where d.refobjid = i.indexrelid and d.classid = 'pg_constraint'::regclass)`,
      [header.tables.map((t) => t.name)],
    );
    for (const ix of indexes) await client.query(`drop index ${ix.name}`);
    // Foreign keys too: added again after the load, each checked by one scan instead of one lookup per row.
    const { rows: keys } = await client.query<{ on: string; name: string; def: string }>(
      `select format('%I.%I', n.nspname, t.relname) as on, quote_ident(c.conname) as name, pg_get_constraintdef(c.oid) as def
       from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace n on n.oid = t.relnamespace
       where c.contype = 'f' and c.conrelid = any($1::regclass[]) order by c.oid`,
      [header.tables.map((t) => t.name)],
    );
    for (const k of keys) await client.query(`alter table ${k.on} drop constraint ${k.name}`);

    await loadRows(client, checked, progress);

    await client.query("set local maintenance_work_mem = '256MB'");
    for (const ix of indexes) await client.query(ix.def);
    for (const k of keys) await client.query(`alter table ${k.on} add constraint ${k.name} ${k.def}`);

    for (const t of header.tables) await client.query(`alter table ${t.name} enable trigger user`);
    for (const s of header.sequences) await client.query('select setval($1::regclass, $2::bigint, $3)', [s.name, s.last_value, s.is_called]);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  }
  // Fresh statistics for the planner (a restored database has none).
  await client.query('analyze');
}

/** A connection of its own to a database, closed (and a cluster started for it stopped) by close(). */
export interface Connection {
  client: pg.Client;
  /** What it is connected to, for the operator. */
  what: string;
  close(): Promise<void>;
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/**
 * The database to back up: DATABASE_URL's server; else DATA_DIR's embedded cluster, the running one (the
 * server's, reached on its socket: a connection like any other, nothing disturbed) or, when none runs, one
 * started here for the backup and stopped after.
 */
export async function connectSource(opts: { databaseUrl?: string; dataDir: string }): Promise<Connection> {
  if (opts.databaseUrl) {
    const client = await connect(opts.databaseUrl);
    return { client, what: 'the PostgreSQL server of DATABASE_URL', close: () => client.end() };
  }
  if (!embeddedClusterDir(opts.dataDir)) throw new BackupError(`${opts.dataDir} holds no database (no ${path.join(opts.dataDir, 'postgres')}): set DATA_DIR to the server's data folder`);
  const running = runningEmbedded(opts.dataDir);
  if (running) {
    try {
      const client = await connect(running.url);
      return { client, what: `the running embedded database of ${opts.dataDir} (pid ${running.pid})`, close: () => client.end() };
    } catch {
      // A postmaster that is stopping or starting: started again below, which waits for it.
    }
  }
  const cluster = await (await launchEmbeddedIn(opts.dataDir)).ready;
  const client = await connect(cluster.url);
  return {
    client,
    what: `the embedded database of ${opts.dataDir} (started for the backup)`,
    close: async () => {
      await client.end();
      await cluster.stop();
    },
  };
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
    const cluster = await (await launchEmbeddedIn(dataDir)).ready;
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
  } catch (err) {
    const made = embeddedClusterDir(dataDir) ?? path.join(dataDir, 'postgres');
    fs.rmSync(made, { recursive: true, force: true });
    if (!hadDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return `the embedded database in ${dataDir}`;
}

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { BackupError, type BackupHeader, type BackupSequence, END, FRAME, FORMAT_VERSION, MAGIC, PREFIX, quoteIdent, TRAILER } from './format';

/** Writing a backup: every table of the schema in one snapshot, framed, gzipped, checksummed, renamed when complete. */

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

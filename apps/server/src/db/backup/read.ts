import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import type { Writable } from 'node:stream';
import zlib from 'node:zlib';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { BackupError, type BackupHeader, buildMigrations, END, FORMAT_VERSION, MAGIC, MAX_HEADER, PREFIX, quoteIdent, TRAILER } from './format';

/** Reading a backup: its header and checksum checked, its frames, its rows loaded by COPY FROM. */

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

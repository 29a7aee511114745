import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_FILE_MAX_BYTES } from '@app/contract';
import { uploads } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { solidPng } from '../schematics';
import { type MoveInLog, moveUploadFolderIn } from './move-in';

/*
 * Issue 34: the files of an earlier DATA_DIR/uploads are moved into the `uploads` table at start, once,
 * under their names; anything else in the folder is left where it is; a file is removed only once the
 * database holds its very bytes.
 */

let t: TestApp;
const folders: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  for (const f of folders) fs.rmSync(f, { recursive: true, force: true });
});

/** A DATA_DIR with an `uploads` folder holding these files (name -> bytes; a null is a sub-folder). */
function dataDirWith(files: Record<string, Buffer | null>): { dataDir: string; dir: string } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'move-in-'));
  folders.push(dataDir);
  const dir = path.join(dataDir, 'uploads');
  fs.mkdirSync(dir);
  for (const [name, content] of Object.entries(files)) {
    if (content === null) fs.mkdirSync(path.join(dir, name));
    else fs.writeFileSync(path.join(dir, name), content);
  }
  return { dataDir, dir };
}

/** A log that keeps its lines. */
function recorder(): MoveInLog & { lines: { level: string; msg: string; obj: Record<string, unknown> }[] } {
  const lines: { level: string; msg: string; obj: Record<string, unknown> }[] = [];
  const at = (level: string) => (obj: object, msg: string) => lines.push({ level, msg, obj: obj as Record<string, unknown> });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

/** The names of the files the log's lines of one level are about. */
const filesLogged = (log: ReturnType<typeof recorder>, level: string) =>
  log.lines
    .filter((l) => l.level === level)
    .map((l) => path.basename(String(l.obj.file)))
    .sort();
const hex = () => randomBytes(16).toString('hex');
const sha = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');
const rowsNamed = async (names: string[]) => Number((await t.db.select({ n: count() }).from(uploads).where(inArray(uploads.name, names)))[0]!.n);

describe('moving DATA_DIR/uploads into the database', () => {
  it('moves the upload files in under their names and serves them as before; anything else is left and logged; a second run does nothing', async () => {
    const png = { name: `${hex()}.png`, content: solidPng(30, 20) };
    const pdf = { name: `${hex()}.pdf`, content: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF') };
    const csv = { name: `${hex()}.csv`, content: Buffer.from('date,amount\n2025-01-01,12.50\n') };
    const others = {
      'notes.txt': Buffer.from('not an upload name'),
      [`${hex().toUpperCase()}.png`]: solidPng(2, 2),
      [`${hex()}.exe`]: Buffer.from('MZ'),
      [`${hex()}.png.tmp`]: solidPng(2, 2),
      [`${hex()}.gif`]: null, // a folder with an upload's name
    };
    const { dataDir, dir } = dataDirWith(Object.assign({ [png.name]: png.content, [pdf.name]: pdf.content, [csv.name]: csv.content }, others));
    const oversized = `${hex()}.zip`;
    fs.writeFileSync(path.join(dir, oversized), '');
    fs.truncateSync(path.join(dir, oversized), UPLOAD_FILE_MAX_BYTES + 1);
    const uploaded = new Date('2026-03-04T05:06:07.000Z');
    fs.utimesSync(path.join(dir, png.name), uploaded, uploaded);

    const log = recorder();
    const report = await moveUploadFolderIn(t.db, dataDir, log);
    expect(report.moved.sort()).toEqual([png.name, pdf.name, csv.name].sort());
    expect(report.present).toEqual([]);
    expect(report.left.sort()).toEqual([...Object.keys(others), oversized].sort());
    // The moved files are gone from the folder; everything else is there as it was.
    expect(fs.readdirSync(dir).sort()).toEqual([...Object.keys(others), oversized].sort());
    for (const [name, content] of Object.entries(others)) if (content) expect(fs.readFileSync(path.join(dir, name)).equals(content)).toBe(true);
    expect(filesLogged(log, 'warn')).toEqual([...Object.keys(others), oversized].sort());
    expect(log.lines.filter((l) => l.level === 'error')).toEqual([]);

    // The rows: the bytes, their length and hash, the type of the extension, the file's time.
    const [row] = await t.db.select().from(uploads).where(eq(uploads.name, png.name));
    expect(row).toMatchObject({ contentType: 'image/png', size: png.content.length, sha256: sha(png.content), uploaderKind: null, uploaderId: null, createdAt: uploaded });
    expect(row!.content.equals(png.content)).toBe(true);

    // Served at the same URLs with the same headers as an upload.
    for (const [f, type, disposition] of [
      [png, 'image/png', 'inline'],
      [pdf, 'application/pdf', 'attachment'],
      [csv, 'text/csv; charset=utf-8', 'attachment'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/adminapi/uploads/${f.name}` });
      expect(res.statusCode, f.name).toBe(200);
      expect(res.rawPayload.equals(f.content)).toBe(true);
      expect(res.headers).toMatchObject({
        'content-type': type,
        'content-disposition': `${disposition}; filename=${f.name}`,
        'x-content-type-options': 'nosniff',
        'cache-control': 'public, max-age=31536000, immutable',
        'content-length': String(f.content.length),
      });
      expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; sandbox(;|$)/);
    }
    // What was left is not served.
    for (const name of Object.keys(others)) expect((await t.app.inject({ method: 'GET', url: `/adminapi/uploads/${encodeURIComponent(name)}` })).statusCode, name).toBe(404);

    // A second start: nothing more is inserted, nothing removed.
    const again = await moveUploadFolderIn(t.db, dataDir, recorder());
    expect(again).toEqual({ moved: [], present: [], left: report.left });
    expect(fs.readdirSync(dir).sort()).toEqual([...Object.keys(others), oversized].sort());
    expect(await rowsNamed([png.name, pdf.name, csv.name])).toBe(3);
  });

  it('removes the folder once every file is in; without a folder there is nothing to do', async () => {
    const files = Object.fromEntries(Array.from({ length: 3 }, () => [`${hex()}.txt`, randomBytes(64)]));
    const { dataDir, dir } = dataDirWith(files);
    const report = await moveUploadFolderIn(t.db, dataDir, recorder());
    expect(report.moved).toHaveLength(3);
    expect(fs.existsSync(dir)).toBe(false);
    const log = recorder();
    expect(await moveUploadFolderIn(t.db, dataDir, log)).toEqual({ moved: [], present: [], left: [] });
    expect(log.lines).toEqual([]);
  });

  it('two processes starting together insert each file once and both finish cleanly', async () => {
    const names = Array.from({ length: 24 }, (_, i) => `${hex()}.${i % 2 ? 'png' : 'pdf'}`);
    const { dataDir, dir } = dataDirWith(Object.fromEntries(names.map((n, i) => [n, n.endsWith('.png') ? solidPng(8 + i, 8) : Buffer.from(`%PDF-1.4 ${i}`)])));
    const [a, b] = await Promise.all([moveUploadFolderIn(t.db, dataDir, recorder()), moveUploadFolderIn(t.db, dataDir, recorder())]);
    // Every file inserted by exactly one of them; neither left anything behind nor failed.
    expect([...a!.moved, ...b!.moved].sort()).toEqual([...names].sort());
    expect(a!.left).toEqual([]);
    expect(b!.left).toEqual([]);
    expect(await rowsNamed(names)).toBe(names.length);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('never loses a file: a failed insert, or a row of that name with other bytes, leaves it in the folder', async () => {
    const failing = { name: `${hex()}.png`, content: solidPng(5, 5) };
    const clash = { name: `${hex()}.png`, content: solidPng(6, 6) };
    const fine = { name: `${hex()}.png`, content: solidPng(7, 7) };
    // Another upload is already stored under `clash`'s name.
    const theirs = solidPng(9, 9);
    await t.db.insert(uploads).values({ name: clash.name, contentType: 'image/png', size: theirs.length, sha256: sha(theirs), content: theirs });
    // The database refuses `failing`'s row (as a full disk or a lost connection would).
    await t.db.execute(
      sql.raw(`create function refuse_one_upload() returns trigger language plpgsql as $$
        begin if new.name = '${failing.name}' then raise exception 'no room for this file'; end if; return new; end $$`),
    );
    await t.db.execute(sql`create trigger refuse_one_upload before insert on uploads for each row execute function refuse_one_upload()`);
    const { dataDir, dir } = dataDirWith({ [failing.name]: failing.content, [clash.name]: clash.content, [fine.name]: fine.content });
    try {
      const log = recorder();
      const report = await moveUploadFolderIn(t.db, dataDir, log);
      expect(report.moved).toEqual([fine.name]);
      expect(report.left.sort()).toEqual([failing.name, clash.name].sort());
      expect(fs.readFileSync(path.join(dir, failing.name)).equals(failing.content)).toBe(true);
      expect(fs.readFileSync(path.join(dir, clash.name)).equals(clash.content)).toBe(true);
      expect(fs.existsSync(path.join(dir, fine.name))).toBe(false);
      expect(filesLogged(log, 'error')).toEqual([failing.name, clash.name].sort());
      // The other upload's row is untouched; no row was written for the refused file.
      const [kept] = await t.db.select().from(uploads).where(eq(uploads.name, clash.name));
      expect(kept!.content.equals(theirs)).toBe(true);
      expect(await rowsNamed([failing.name])).toBe(0);
    } finally {
      await t.db.execute(sql`drop trigger refuse_one_upload on uploads`);
      await t.db.execute(sql`drop function refuse_one_upload()`);
    }
    // The next start moves the file the database refused before; the clash stays for someone to look at.
    const next = await moveUploadFolderIn(t.db, dataDir, recorder());
    expect(next).toEqual({ moved: [failing.name], present: [], left: [clash.name] });
    expect(fs.readdirSync(dir)).toEqual([clash.name]);
  });

  it('a file another process inserted but did not get to remove is removed as already present', async () => {
    const f = { name: `${hex()}.txt`, content: Buffer.from('moved in by the process beside this one') };
    await t.db.insert(uploads).values({ name: f.name, contentType: 'text/plain', size: f.content.length, sha256: sha(f.content), content: f.content });
    const { dataDir, dir } = dataDirWith({ [f.name]: f.content });
    expect(await moveUploadFolderIn(t.db, dataDir, recorder())).toEqual({ moved: [], present: [f.name], left: [] });
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('an `uploads` that is a file, not a folder, is left alone', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'move-in-'));
    folders.push(dataDir);
    fs.writeFileSync(path.join(dataDir, 'uploads'), 'x');
    const log = recorder();
    expect(await moveUploadFolderIn(t.db, dataDir, log)).toEqual({ moved: [], present: [], left: [] });
    expect(log.lines.map((l) => [l.level, l.msg])).toEqual([['error', 'uploads folder: cannot be listed; left alone']]);
    expect(fs.readFileSync(path.join(dataDir, 'uploads'), 'utf8')).toBe('x');
  });
});

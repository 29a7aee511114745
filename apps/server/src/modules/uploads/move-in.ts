import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { UPLOAD_FILE_MAX_BYTES } from '@app/contract';
import type { Tx } from '../../db/client';
import { uploads } from '../../db/schema';
import { FILE_EXTS, STORED_RE, sha256Hex } from './service';

/*
 * Before issue 34, uploads were files in `DATA_DIR/uploads/<32 hex>.<ext>`. At every start the server
 * moves what is left there into the `uploads` table, once, under the same names (so every stored URL keeps
 * working):
 * - only regular files whose names are upload names (and no larger than an upload may be); anything else
 *   is left where it is and logged;
 * - each file is inserted with `on conflict do nothing` (several processes starting together, or a second
 *   start, insert nothing twice), then the row of its name is read back and PostgreSQL's own SHA-256 of the
 *   stored bytes compared with the file's: only then is the file removed. A failed insert, or a row of that
 *   name holding other bytes, leaves the file in place (logged), to be tried again at the next start;
 * - the folder itself is removed once it is empty, so the next start finds nothing to look at.
 * Files are removed one by one rather than the folder renamed: a renamed folder would be a second copy that
 * nothing reads, and the files that were left alone would be hidden in it instead of staying where they
 * were; removing a file another process has just removed is no error.
 */

export interface MoveInLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface MoveInReport {
  /** Inserted by this run. */
  moved: string[];
  /** Already in the table with the same bytes (another process, or an earlier run, inserted them); file removed. */
  present: string[];
  /** Left in the folder: not an upload's name, not a regular file, too large, or not stored (see the log). */
  left: string[];
}

const codeOf = (err: unknown) => (err as { code?: string } | null)?.code;

/** Moves the upload files of `${dataDir}/uploads` into the `uploads` table (see above). */
export async function moveUploadFolderIn(db: Tx, dataDir: string, log: MoveInLog): Promise<MoveInReport> {
  const report: MoveInReport = { moved: [], present: [], left: [] };
  const dir = path.join(dataDir, 'uploads');
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch (err) {
    // None (the usual case), or one that cannot be listed (not a folder, no permission): the server starts
    // anyway and the next start looks again.
    if (codeOf(err) !== 'ENOENT') log.error({ path: dir, err }, 'uploads folder: cannot be listed; left alone');
    return report;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (entries.length) log.info({ path: dir, entries: entries.length }, 'uploads folder: moving its files into the database');

  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    const m = STORED_RE.exec(entry.name);
    if (!m || !entry.isFile()) {
      report.left.push(entry.name);
      log.warn({ file }, 'uploads folder: not an upload (name or kind); left alone');
      continue;
    }
    let buf: Buffer;
    let mtime: Date;
    try {
      const st = await fs.promises.stat(file);
      if (st.size > UPLOAD_FILE_MAX_BYTES) {
        report.left.push(entry.name);
        log.warn({ file, size: st.size }, 'uploads folder: larger than any upload may be; left alone');
        continue;
      }
      mtime = st.mtime;
      buf = await fs.promises.readFile(file);
    } catch (err) {
      // Another process starting beside this one has moved it in and removed it.
      if (codeOf(err) === 'ENOENT') continue;
      report.left.push(entry.name);
      log.error({ file, err }, 'uploads folder: could not read the file; left alone');
      continue;
    }
    const sha256 = sha256Hex(buf);
    try {
      const inserted = await db
        .insert(uploads)
        .values({ name: entry.name, contentType: FILE_EXTS[m[1]!]!, size: buf.length, sha256, content: buf, createdAt: mtime })
        .onConflictDoNothing({ target: uploads.name })
        .returning({ name: uploads.name });
      const [row] = await db
        .select({ size: uploads.size, sha256: uploads.sha256, stored: sql<string>`encode(sha256(${uploads.content}), 'hex')` })
        .from(uploads)
        .where(eq(uploads.name, entry.name));
      if (!row || row.size !== buf.length || row.sha256 !== sha256 || row.stored !== sha256) {
        report.left.push(entry.name);
        log.error({ file }, 'uploads folder: the database holds other bytes under this name; the file is left in the folder');
        continue;
      }
      await fs.promises.rm(file, { force: true });
      (inserted.length ? report.moved : report.present).push(entry.name);
    } catch (err) {
      report.left.push(entry.name);
      log.error({ file, err }, 'uploads folder: could not store the file in the database; left in the folder');
    }
  }

  if (!report.left.length) {
    try {
      await fs.promises.rmdir(dir);
    } catch (err) {
      // Gone already (another process), or a file arrived meanwhile: the next start looks again.
      if (codeOf(err) !== 'ENOENT' && codeOf(err) !== 'ENOTEMPTY') log.warn({ path: dir, err }, 'uploads folder: could not remove the empty folder');
    }
  }
  if (entries.length) log.info({ path: dir, moved: report.moved.length, present: report.present.length, left: report.left }, 'uploads folder: done');
  return report;
}

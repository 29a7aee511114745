import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { BACKUP_EXT, writeBackup } from '../db/backup';
import type { Db } from '../db/client';
import { systemParams } from '../db/schema';
import { readParams } from './params';
import { HOUR } from './time';

/*
 * The daily automatic backup (parameters `backup_daily`, `backup_keep`): once a UTC day, a backup of the
 * database into DATA_DIR/backups (`backup-YYYYMMDD-HHMMSS.bkp.gz`, the time in UTC), the newest
 * `backup_keep` kept. serve.ts runs it with the housekeeping, every 10 minutes; it writes only when no
 * backup of the day is there yet. One process writes: the one that holds the advisory lock, which looks
 * again for the day's file once it has it (another process sharing DATA_DIR may have just written it).
 */

/** The advisory lock of the daily backup (pg_try_advisory_lock's two-key form: ours, then the job). */
export const BACKUP_LOCK: readonly [number, number] = [0x62696f, 1];
const NAME = /^backup-(\d{8})-(\d{6})\.bkp\.gz$/;
/** Temporary files of a backup that was killed midway (`<name>.tmp-<pid>`), removed once older than this. */
const STALE_TMP_MS = 24 * HOUR;

const digits = (d: Date) => d.toISOString().replace(/[-:]/g, '').slice(0, 15); // YYYYMMDDTHHMMSS
/** A daily backup's file name for a moment (UTC). */
export const backupFileName = (now: number) => {
  const s = digits(new Date(now));
  return `backup-${s.slice(0, 8)}-${s.slice(9, 15)}.${BACKUP_EXT}`;
};

/** Whether the daily backup is on: as saved, else on for the embedded database and off for DATABASE_URL's server. */
export async function dailyBackupWanted(db: Db, kind: 'embedded' | 'postgres'): Promise<boolean> {
  const [stored] = await db.select({ key: systemParams.key }).from(systemParams).where(eq(systemParams.key, 'backup_daily'));
  if (!stored) return kind === 'embedded';
  return (await readParams(db)).backup_daily === 1;
}

/** The daily backups in a folder, newest first. */
export function dailyBackups(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => NAME.test(n))
    .sort()
    .reverse();
}

export interface DailyBackupOutcome {
  /** The file written, when one was. */
  written?: string;
  /** Why none was: off, done today, another process holds the lock. */
  skipped?: 'off' | 'done today' | 'locked';
  /** Older backups (and stale temporary files) deleted. */
  removed: string[];
}

/**
 * One turn of the daily backup at `now` (injected by tests): writes the day's backup when it is due and
 * this process gets the lock, then keeps the newest `backup_keep`.
 */
export async function dailyBackup(database: { db: Db; pool: pg.Pool; kind: 'embedded' | 'postgres' }, opts: { dataDir: string; now?: number; codeKey?: string | null }): Promise<DailyBackupOutcome> {
  const now = opts.now ?? Date.now();
  const dir = path.join(opts.dataDir, 'backups');
  if (!(await dailyBackupWanted(database.db, database.kind))) return { skipped: 'off', removed: [] };
  const today = backupFileName(now).slice(0, 'backup-YYYYMMDD'.length);
  const doneToday = () => dailyBackups(dir).some((n) => n.startsWith(today));
  const outcome: DailyBackupOutcome = { removed: [] };
  if (doneToday()) outcome.skipped = 'done today';
  else {
    const client = await database.pool.connect();
    let broken: Error | undefined;
    try {
      const { rows } = await client.query<{ got: boolean }>('select pg_try_advisory_lock($1, $2) as got', [...BACKUP_LOCK]);
      if (!rows[0]?.got) outcome.skipped = 'locked';
      else {
        try {
          if (doneToday()) outcome.skipped = 'done today';
          else outcome.written = (await writeBackup(client, path.join(dir, backupFileName(now)), { codeKey: opts.codeKey })).file;
        } finally {
          await client.query('select pg_advisory_unlock($1, $2)', [...BACKUP_LOCK]);
        }
      }
    } catch (err) {
      broken = err as Error;
      throw err;
    } finally {
      // A connection that failed midway (inside a COPY) is not given back to the pool: it is closed, and its lock with it.
      client.release(broken);
    }
  }
  const keep = (await readParams(database.db)).backup_keep;
  for (const name of dailyBackups(dir).slice(keep)) {
    fs.rmSync(path.join(dir, name), { force: true });
    outcome.removed.push(name);
  }
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (!/\.tmp-\d+$/.test(name)) continue;
    const file = path.join(dir, name);
    // File times are the real clock's, whatever `now` a test injects (a file being written is never that old).
    if (Date.now() - fs.statSync(file).mtimeMs > STALE_TMP_MS) {
      fs.rmSync(file, { force: true });
      outcome.removed.push(name);
    }
  }
  return outcome;
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBackup } from '../db/backup';
import type { Database } from '../db/client';
import { systemParams } from '../db/schema';
import { openTestDatabase } from '../test/harness';
import { BACKUP_LOCK, backupFileName, dailyBackup, dailyBackups } from './backups';
import { DAY } from './time';

/* The daily automatic backup (lib/backups.ts): when it writes, what it keeps, one process at a time; the clock injected. */

let database: Database;
let dataDir: string;
const T0 = Date.UTC(2030, 0, 10, 3, 4, 5);

beforeAll(async () => {
  database = await openTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'daily-backup-'));
});
afterAll(async () => {
  await database?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const setParam = (key: 'backup_daily' | 'backup_keep', value: number) => database.db.insert(systemParams).values({ key, value }).onConflictDoUpdate({ target: systemParams.key, set: { value } });
const dir = () => path.join(dataDir, 'backups');

describe('daily backup', () => {
  it('is on by default for the embedded database and off for a PostgreSQL server until saved', async () => {
    expect(await dailyBackup(Object.assign({}, database, { kind: 'postgres' as const }), { dataDir, now: T0 })).toEqual({ skipped: 'off', removed: [] });
    expect(dailyBackups(dir())).toEqual([]);
    const first = await dailyBackup(Object.assign({}, database, { kind: 'embedded' as const }), { dataDir, now: T0 });
    expect(first.written).toBe(path.join(dir(), 'backup-20300110-030405.bkp.gz'));
    // A whole, restorable file.
    const { header } = await checkBackup(first.written!);
    expect(header.tables.length).toBeGreaterThan(10);
  });

  it('writes once a UTC day, and two processes at once write one file', async () => {
    const later = T0 + 6 * 3600_000;
    expect((await dailyBackup(Object.assign({}, database, { kind: 'embedded' as const }), { dataDir, now: later })).skipped).toBe('done today');
    const next = T0 + DAY;
    const both = await Promise.all([0, 1].map(() => dailyBackup(Object.assign({}, database, { kind: 'embedded' as const }), { dataDir, now: next })));
    expect(both.filter((o) => o.written)).toHaveLength(1);
    expect(both.map((o) => o.skipped ?? 'written').sort()).toEqual([expect.stringMatching(/^(locked|done today)$/), 'written'].sort());
    expect(dailyBackups(dir())).toEqual([backupFileName(next), backupFileName(T0)]);
  });

  it('does not write while another process holds the lock', async () => {
    const other = await database.pool.connect();
    try {
      await other.query('select pg_advisory_lock($1, $2)', [...BACKUP_LOCK]);
      expect((await dailyBackup(Object.assign({}, database, { kind: 'embedded' as const }), { dataDir, now: T0 + 2 * DAY })).skipped).toBe('locked');
      await other.query('select pg_advisory_unlock($1, $2)', [...BACKUP_LOCK]);
    } finally {
      other.release();
    }
  });

  it('keeps the newest backup_keep, removes stale temporary files, and is off when saved as 0 even on the embedded database', async () => {
    await setParam('backup_keep', 2);
    fs.writeFileSync(path.join(dir(), `${backupFileName(T0)}.tmp-12345`), 'partial');
    // Two days old by the real clock (file times are never the injected one).
    fs.utimesSync(path.join(dir(), `${backupFileName(T0)}.tmp-12345`), new Date(Date.now() - 2 * DAY), new Date(Date.now() - 2 * DAY));
    const out = await dailyBackup(Object.assign({}, database, { kind: 'embedded' as const }), { dataDir, now: T0 + 3 * DAY });
    expect(out.written).toBeTruthy();
    expect(out.removed.sort()).toEqual([backupFileName(T0), `${backupFileName(T0)}.tmp-12345`].sort());
    expect(dailyBackups(dir())).toEqual([backupFileName(T0 + 3 * DAY), backupFileName(T0 + DAY)]);
    await setParam('backup_daily', 0);
    expect((await dailyBackup(Object.assign({}, database, { kind: 'embedded' as const }), { dataDir, now: T0 + 4 * DAY })).skipped).toBe('off');
    await setParam('backup_daily', 1);
    expect((await dailyBackup(Object.assign({}, database, { kind: 'postgres' as const }), { dataDir, now: T0 + 4 * DAY })).written).toBeTruthy();
  });
});

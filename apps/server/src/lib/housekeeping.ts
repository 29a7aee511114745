import { lt } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { mfaChallenges } from '../db/schema';
import { purgeOldUploadCounts } from './quota';
import { purgeExpiredSessions } from './sessions';
import { purgeOldFailures } from './throttle';

/** Every 10 minutes (serve.ts): rows that no longer count for anything are dropped. */
export const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000;

/**
 * Expired sessions (past their absolute expiry or idle too long), sign-in failures older than the
 * throttling window, upload counts of days before yesterday, second-factor challenges past their five
 * minutes. Safe to run from several processes at once.
 */
export async function housekeeping(db: Tx, now = Date.now()) {
  await purgeExpiredSessions(db, now);
  await purgeOldFailures(db, now);
  await purgeOldUploadCounts(db, now);
  await db.delete(mfaChallenges).where(lt(mfaChallenges.expiresAt, new Date(now)));
}

import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { uploadCounts } from '../db/schema';
import { DAY } from './time';

/*
 * The daily upload quota (`upload_daily_limit`): uploads per account (admin or institution) per UTC
 * day, counted in `upload_counts`. A slot is taken by one atomic upsert that only counts while under the
 * limit, before the file is read, so neither concurrent uploads nor several server processes overshoot
 * it; an upload that is refused afterwards (wrong type, too large) gives its slot back.
 */

export interface UploadActor {
  kind: 'admin' | 'institution';
  id: number;
}

/** The UTC day of a time, `YYYY-MM-DD`. */
export const utcDay = (now = Date.now()) => new Date(now).toISOString().slice(0, 10);

/** Takes one upload of the actor's day: answers the day, or null when its `limit` is reached (nothing is counted then). */
export async function takeUploadSlot(db: Tx, actor: UploadActor, limit: number, now = Date.now()): Promise<string | null> {
  if (limit < 1) return null;
  const day = utcDay(now);
  const rows = await db
    .insert(uploadCounts)
    .values({ actorKind: actor.kind, actorId: actor.id, day, count: 1 })
    .onConflictDoUpdate({
      target: [uploadCounts.actorKind, uploadCounts.actorId, uploadCounts.day],
      set: { count: sql`${uploadCounts.count} + 1` },
      setWhere: sql`${uploadCounts.count} < ${limit}`,
    })
    .returning({ count: uploadCounts.count });
  return rows.length > 0 ? day : null;
}

/** Gives back a slot taken on `day` (the upload was refused after all). */
export async function releaseUploadSlot(db: Tx, actor: UploadActor, day: string) {
  await db
    .update(uploadCounts)
    .set({ count: sql`${uploadCounts.count} - 1` })
    .where(and(eq(uploadCounts.actorKind, actor.kind), eq(uploadCounts.actorId, actor.id), eq(uploadCounts.day, day), gt(uploadCounts.count, 0)));
}

/** Housekeeping: counts of days before yesterday are of no use. */
export async function purgeOldUploadCounts(db: Tx, now = Date.now()) {
  await db.delete(uploadCounts).where(lt(uploadCounts.day, utcDay(now - DAY)));
}

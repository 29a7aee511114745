import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Db, Tx } from '../../db/client';
import { readParams } from '../../lib/params';
import { raiseNotices } from './raise';

/*
 * The time-based notices (trust-api.md, "Notices"): devices offline, devices expiring, devices low on uses,
 * institutions whose term is ending. serve.ts runs the check every CHECK_INTERVAL_MS (and once at start);
 * one process at a time does it, the one that gets the advisory lock NOTICE_CHECK_LOCK (the others skip that
 * turn), as the daily backup does (lib/backups.ts). Even two checks at once (a test's concurrent calls of
 * `checkNotices`) write each notice once: the unique key decides.
 *
 * The epoch of each state (what makes "once per thing and state"):
 * - device_offline: the last_seen_at it went silent at; a device that stays offline keeps it, and one that
 *   came back and went silent again has a new one;
 * - device_expiring / institution_expiring: the expiry itself; a renewal moves it;
 * - device_uses_low: the uses granted to date (inspections made + uses left): an inspection leaves it as
 *   it is, a top-up raises it.
 */

/** How often the check runs (serve.ts). */
export const CHECK_INTERVAL_MS = 5 * 60_000;
/** The advisory lock of the scheduled check (pg_try_advisory_lock's two-key form: ours, then the job). */
export const NOTICE_CHECK_LOCK: readonly [number, number] = [0x62696f, 2];

const ms = (column: string) => sql.raw(`floor(extract(epoch from ${column}) * 1000)::bigint`);
const day = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`);

/** Raises every time-based notice due at `now` (tests inject it). Answers the rows written by kind. */
export async function checkNotices(db: Tx, now = new Date()): Promise<Record<string, number>> {
  const params = await readParams(db);
  const at = now.toISOString();
  const deviceParams = (extra: ReturnType<typeof sql>) => sql`jsonb_build_object('serial', d.serial, 'name', d.name, 'institution', i.name) || ${extra}`;
  const fromDevices = sql`from devices d left join institutions i on i.id = d.institution_id where d.status = 'active'`;
  const out: Record<string, number> = {};
  await db.transaction(async (tx) => {
    out.device_offline = await raiseNotices(
      tx,
      'device_offline',
      sql`select d.id as thing_id, ${ms('d.last_seen_at')} as epoch, i.path as inst_path, 'warning'::varchar as level,
        ${deviceParams(sql`jsonb_build_object('hours', ${params.device_offline_hours}::int, 'last_seen', to_char(d.last_seen_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC')`)} as params
        ${fromDevices} and d.last_seen_at < ${at}::timestamptz - make_interval(hours => ${params.device_offline_hours}::int)`,
    );
    out.device_expiring = await raiseNotices(
      tx,
      'device_expiring',
      sql`select d.id as thing_id, ${ms('d.expires_at')} as epoch, i.path as inst_path, 'warning'::varchar as level,
        ${deviceParams(sql`jsonb_build_object('expires', ${day('d.expires_at')})`)} as params
        ${fromDevices} and d.expires_at >= ${at}::timestamptz and d.expires_at <= ${at}::timestamptz + make_interval(days => ${params.expiring_days}::int)`,
    );
    out.device_uses_low = await raiseNotices(
      tx,
      'device_uses_low',
      sql`select d.id as thing_id, (d.total_inspections + d.remaining_uses)::bigint as epoch, i.path as inst_path, 'warning'::varchar as level,
        ${deviceParams(sql`jsonb_build_object('uses', d.remaining_uses)`)} as params
        ${fromDevices} and d.remaining_uses is not null and d.remaining_uses <= ${params.device_uses_low}::int`,
    );
    out.institution_expiring = await raiseNotices(
      tx,
      'institution_expiring',
      sql`select i.id as thing_id, ${ms('i.term_expires_at')} as epoch, i.path as inst_path, 'warning'::varchar as level,
        jsonb_build_object('institution', i.name, 'username', i.username, 'expires', ${day('i.term_expires_at')}) as params
        from institutions i where i.status = 1 and i.term_expires_at >= ${at}::timestamptz
          and i.term_expires_at <= ${at}::timestamptz + make_interval(days => ${params.expiring_days}::int)`,
    );
  });
  return out;
}

/**
 * One turn of the scheduled check: run by the process that gets the lock, skipped by the others (answers
 * 'locked'). The lock is a session lock on a connection of its own, given back at the end.
 */
export async function scheduledCheck(database: { db: Db; pool: pg.Pool }, now?: Date): Promise<Record<string, number> | 'locked'> {
  const client = await database.pool.connect();
  let broken: Error | undefined;
  try {
    const { rows } = await client.query<{ got: boolean }>('select pg_try_advisory_lock($1, $2) as got', [...NOTICE_CHECK_LOCK]);
    if (!rows[0]?.got) return 'locked';
    try {
      return await checkNotices(database.db, now);
    } finally {
      await client.query('select pg_advisory_unlock($1, $2)', [...NOTICE_CHECK_LOCK]);
    }
  } catch (err) {
    broken = err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
}

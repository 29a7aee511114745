import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc } from 'drizzle-orm';
import { loginFailures, sessions, systemParams, uploadCounts } from '../db/schema';
import { createTestApp, type TestApp } from '../test/harness';
import { hashKey, newKey } from './crypto';
import { housekeeping } from './housekeeping';
import { utcDay } from './quota';
import { purgeExpiredSessions } from './sessions';
import { WINDOW_MS } from './throttle';

/* The periodic job of serve.ts (issue 9 §4): what it drops, and what it keeps. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(async () => {
  await t?.close();
});

const HOUR = 3600_000;
const MINUTE = 60_000;

/** A session row named by its IP column, seen and expiring at the given times. */
async function session(ip: string, lastSeen: number, expires: number, restricted = false) {
  await t.db.insert(sessions).values({ keyHash: hashKey(newKey()), subjectKind: 'admin', subjectId: 1, ip, restricted, lastSeenAt: new Date(lastSeen), expiresAt: new Date(expires) });
}
const remaining = async () => (await t.db.select({ ip: sessions.ip }).from(sessions).orderBy(asc(sessions.ip))).map((r) => r.ip);

describe('housekeeping', () => {
  it('purges sessions past their absolute expiry or idle too long, and keeps live ones', async () => {
    const now = Date.now();
    await t.db.delete(sessions);
    // The default idle limit is 120 minutes.
    await session('live', now - MINUTE, now + 24 * HOUR);
    await session('live-restricted', now - MINUTE, now + HOUR, true);
    await session('live-idle-119', now - 119 * MINUTE, now + HOUR);
    await session('expired', now - MINUTE, now - 1000);
    await session('expired-restricted', now - MINUTE, now - 1000, true);
    await session('idle-121', now - 121 * MINUTE, now + 24 * HOUR);
    await purgeExpiredSessions(t.db, now);
    expect(await remaining()).toEqual(['live', 'live-idle-119', 'live-restricted']);
  });

  it('reads the idle limit from the system parameters at every run', async () => {
    const now = Date.now();
    await t.db.delete(sessions);
    await session('idle-30', now - 30 * MINUTE, now + HOUR);
    await session('idle-5', now - 5 * MINUTE, now + HOUR);
    await t.db
      .insert(systemParams)
      .values({ key: 'session_idle_minutes', value: 20 })
      .onConflictDoUpdate({ target: systemParams.key, set: { value: 20 } });
    await purgeExpiredSessions(t.db, now);
    expect(await remaining()).toEqual(['idle-5']);
    await t.db.delete(systemParams);
  });

  it('also drops sign-in failures older than the throttling window and upload counts before yesterday', async () => {
    const now = Date.now();
    await t.db.delete(sessions);
    await session('live', now, now + HOUR);
    await session('expired', now - MINUTE, now - 1);
    await t.db.insert(loginFailures).values([
      { username: 'old', ip: '192.0.2.1', createdAt: new Date(now - WINDOW_MS - 1000) },
      { username: 'recent', ip: '192.0.2.1', createdAt: new Date(now - WINDOW_MS + 60_000) },
    ]);
    const day = (d: number) => utcDay(now - d * 24 * HOUR);
    await t.db.insert(uploadCounts).values([0, 1, 2, 3].map((d) => ({ actorKind: 'admin' as const, actorId: 1, day: day(d), count: 5 })));
    await housekeeping(t.db, now);
    expect(await remaining()).toEqual(['live']);
    expect((await t.db.select({ u: loginFailures.username }).from(loginFailures)).map((r) => r.u)).toEqual(['recent']);
    expect((await t.db.select({ day: uploadCounts.day }).from(uploadCounts).orderBy(asc(uploadCounts.day))).map((r) => r.day)).toEqual([day(1), day(0)]);
  });
});

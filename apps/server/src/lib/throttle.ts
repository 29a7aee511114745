import { isIPv4, isIPv6 } from 'node:net';
import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { loginFailures } from '../db/schema';
import { type AppError, badRequest } from './errors';
import { HOUR } from './time';

/*
 * Sign-in throttling that an attacker cannot turn against a user. Failures are counted per address and
 * per (username, address), never per username alone: hammering `admin` from one address slows that
 * address only, and `admin` still signs in from anywhere else. The counters are rows of
 * `login_failures` in the database, so every server process sees the same ones.
 *
 * - (username, address): the first PAIR.free failures within the hour are free; after that each attempt
 *   waits PAIR.baseMs after the last failure, doubling with every further failure, at most PAIR.maxMs.
 * - address, over every username: ADDRESS.free failures within the hour are free, then a doubling wait
 *   the same way, and never more than ADDRESS.maxPerWindow failures within any hour.
 *
 * An attempt is counted BEFORE its password is checked (a row is written under a per-address advisory
 * lock, in a short transaction of its own), so a burst of parallel attempts cannot all slip through the
 * check at once; the row is removed again when the password was right. A refused (throttled) attempt
 * checks no password and is not counted, so waiting the time the answer gives always works. A check that
 * is quick and has to write anyway (the second factor's code, `/login/mfa`) does it all in one
 * transaction instead: `throttleWait` under the lock, the check, then `countFailure` or `clearFailures`,
 * committed before the answer either way.
 */

export const WINDOW_MS = HOUR;
export const PAIR = { free: 5, baseMs: 60_000, maxMs: 15 * 60_000 };
export const ADDRESS = { free: 10, baseMs: 10_000, maxMs: 10 * 60_000, maxPerWindow: 30 };

/** Namespace of the advisory locks taken here (the first of the two int4 keys). */
const LOCK_NAMESPACE = 4_201;

/** How long to wait after the last of `n` failures. */
export const delayAfter = (n: number, p: { free: number; baseMs: number; maxMs: number }) => (n < p.free ? 0 : Math.min(p.maxMs, p.baseMs * 2 ** (n - p.free)));

/**
 * The key an address is counted under: IPv4 as is (an IPv4-mapped IPv6 address as its IPv4), an IPv6
 * address by its /64 (one subscriber usually holds a whole /64, so counting single IPv6 addresses
 * would give an attacker 2^64 fresh counters).
 */
export function addressKey(ip: string): string {
  const plain = ip.replace(/^::ffff:/i, '');
  if (isIPv4(plain)) return plain;
  if (!isIPv6(ip)) return ip.slice(0, 64);
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

export type Reservation = { ok: true; id: number } | { ok: false; retryAfterMs: number };

/** The address's advisory lock for the rest of the transaction, then its counted rows of the last hour, newest first. */
async function lockedRecent(tx: Tx, address: string, now: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}, hashtext(${address}))`);
  return tx
    .select({ username: loginFailures.username, at: loginFailures.createdAt })
    .from(loginFailures)
    .where(and(eq(loginFailures.ip, address), gt(loginFailures.createdAt, new Date(now - WINDOW_MS))))
    .orderBy(desc(loginFailures.createdAt));
}

/**
 * How long an attempt of `username` from `address` (an addressKey) must wait, 0 when it may go on. Takes
 * the address's advisory lock for the rest of the caller's transaction (call it inside one): attempts
 * from one address are counted one after another, so a burst of parallel attempts cannot all slip
 * through the check at once. `now` is the caller's clock (tests move it).
 */
export async function throttleWait(tx: Tx, username: string, address: string, now = Date.now()): Promise<number> {
  const rows = await lockedRecent(tx, address, now);
  const byAddress = rows.map((r) => r.at.getTime());
  const byPair = rows.filter((r) => r.username === username).map((r) => r.at.getTime());
  // A rule with no delay adds no wait: a parallel attempt that reserved after this one's clock was read
  // (its row a few ms "in the future") must not throttle it.
  const after = (times: number[], p: typeof PAIR) => {
    const delay = times.length ? delayAfter(times.length, p) : 0;
    return delay > 0 ? times[0]! + delay : 0;
  };
  const retryAt = Math.max(
    after(byPair, PAIR),
    after(byAddress, ADDRESS),
    // The hour's cap: wait until the oldest failure that keeps the count at the cap leaves the hour.
    byAddress.length >= ADDRESS.maxPerWindow ? byAddress[ADDRESS.maxPerWindow - 1]! + WINDOW_MS : 0,
  );
  return Math.max(0, retryAt - now);
}

/** One failed attempt of `username` from `address`, counted (inside the transaction that holds the address's lock). */
export async function countFailure(tx: Tx, username: string, address: string, now = Date.now()): Promise<number> {
  const [row] = await tx
    .insert(loginFailures)
    .values({ username, ip: address, createdAt: new Date(now) })
    .returning({ id: loginFailures.id });
  return row!.id;
}

/**
 * Counts an attempt of `username` from `address` (an addressKey) unless it is throttled, in a short
 * transaction of its own, before its secret is checked: answers the reserved row's id, or how long to wait.
 */
export async function reserveAttempt(db: Tx, username: string, address: string, now = Date.now()): Promise<Reservation> {
  return db.transaction(async (tx) => {
    const wait = await throttleWait(tx, username, address, now);
    if (wait > 0) return { ok: false as const, retryAfterMs: wait };
    return { ok: true as const, id: await countFailure(tx, username, address, now) };
  });
}

/** The throttled answer: when to try again, in seconds under a minute, else in minutes (rounded up). */
export function throttledError(retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const error = seconds < 60 ? badRequest('tooManyAttemptsSeconds', { seconds }) : badRequest('tooManyAttempts', { minutes: Math.ceil(seconds / 60) });
  error.extra.retryAfter = seconds;
  return error;
}

/**
 * The password was right but a second factor is still to come: only the reserved attempt is forgotten.
 * The pair's earlier failures stay until the code is right, so that a known password does not reset the
 * count of wrong codes.
 */
export async function releaseAttempt(db: Tx, id: number) {
  await db.delete(loginFailures).where(eq(loginFailures.id, id));
}

/** The password was right: the pair's failures (the reserved attempt with them) are forgotten. */
export async function clearFailures(db: Tx, username: string, address: string) {
  await db.delete(loginFailures).where(and(eq(loginFailures.ip, address), eq(loginFailures.username, username)));
}

/** Housekeeping: failures older than the hour count for nothing. */
export async function purgeOldFailures(db: Tx, now = Date.now()) {
  await db.delete(loginFailures).where(lt(loginFailures.createdAt, new Date(now - WINDOW_MS)));
}

/**
 * A public link's opens (the shared report, inspections/shares.ts), per address, counted in the same
 * table under names of their own and an address key `<namespace>|<addressKey>`: at most OPENS.max opens
 * within OPENS.windowMs, and at most OPENS.badMax opens of a link that does not open (unknown, expired,
 * revoked) within the hour. As with sign-in, an open is counted as a bad one (`bad`) before its token is
 * looked up, under a per-address advisory lock, so a burst of parallel guesses cannot slip past the check;
 * a link that opens turns its row into `open` (goodOpen). A refused (throttled) open is not counted.
 */
export const OPENS = { max: 120, windowMs: 10 * 60_000, badMax: 20 };

export async function reserveOpen(db: Tx, address: string, now = Date.now()): Promise<Reservation> {
  return db.transaction(async (tx) => {
    const rows = await lockedRecent(tx, address, now);
    const opens = rows.filter((r) => r.at.getTime() > now - OPENS.windowMs).map((r) => r.at.getTime());
    const bad = rows.filter((r) => r.username === 'bad').map((r) => r.at.getTime());
    const retryAt = Math.max(opens.length >= OPENS.max ? opens[OPENS.max - 1]! + OPENS.windowMs : 0, bad.length >= OPENS.badMax ? bad[OPENS.badMax - 1]! + WINDOW_MS : 0);
    if (retryAt > now) return { ok: false as const, retryAfterMs: retryAt - now };
    return { ok: true as const, id: await countFailure(tx, 'bad', address, now) };
  });
}

/** The reserved open's link opened: it counts as an open, not as a bad one. */
export async function goodOpen(db: Tx, id: number) {
  await db.update(loginFailures).set({ username: 'open' }).where(eq(loginFailures.id, id));
}

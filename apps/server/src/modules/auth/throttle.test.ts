import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD, createTestApp, type TestApp } from '../../test/harness';
import { loginFailures } from '../../db/schema';
import { ADDRESS, addressKey, PAIR, reserveAttempt, WINDOW_MS } from '../../lib/throttle';

/*
 * Sign-in throttling (issue 9 §3): per (username, address) and per address, never per username alone;
 * the answer says when to try again, in the caller's language. The clock is moved with fake Date (the
 * counters take the server's clock), never slept on.
 */

/** verifyPassword as the app calls it, with a probe the tests can hook (what the hash is checked against, and when). */
const probe = vi.hoisted(() => ({ calls: [] as string[], during: null as null | (() => Promise<void>) }));
vi.mock('../../lib/crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../lib/crypto')>();
  return {
    ...real,
    verifyPassword: async (stored: string, password: string) => {
      probe.calls.push(stored);
      await probe.during?.();
      return real.verifyPassword(stored, password);
    },
  };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  vi.useRealTimers();
  probe.during = null;
});

interface Attempt {
  code: number;
  error?: string;
  key?: string;
  retryAfter?: number;
}

/** One sign-in from an address. */
async function signIn(username: string, password: string, ip: string, opts: { lang?: string; kind?: 'admin' | 'institution' } = {}): Promise<Attempt> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/adminapi/login/${opts.kind === 'institution' ? 'institution_login' : 'login'}`,
    payload: { username, password },
    remoteAddress: ip,
    headers: { 'accept-language': opts.lang ?? 'en' },
  });
  const body = res.json() as { code: number; datas: { error?: string; key?: string } };
  const retry = res.headers['retry-after'];
  return { code: body.code, error: body.datas?.error, key: body.datas?.key, retryAfter: retry === undefined ? undefined : Number(retry) };
}

const isThrottled = (a: Attempt) => a.code === 400 && /Too many failed sign-in attempts/.test(a.error ?? '');

/** Fake Date from now on, starting at `start`; answers a function that moves it forward. */
function fakeClock(start = Date.now()) {
  vi.useFakeTimers({ toFake: ['Date'] });
  let now = start;
  vi.setSystemTime(now);
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
      vi.setSystemTime(now);
    },
  };
}

describe('sign-in throttling', () => {
  it('an attacker hammering admin from one address does not stop admin signing in from another', async () => {
    for (let i = 0; i < PAIR.free; i++) expect((await signIn('admin', `guess-${i}`, '203.0.113.7')).error).toBe('Incorrect username or password');
    // The attacker's address is throttled for admin, the right password included, and told for how long.
    const blocked = await signIn('admin', DEMO_PASSWORD, '203.0.113.7');
    expect(blocked.code).toBe(400);
    expect(blocked.error).toBe('Too many failed sign-in attempts; try again in 1 min');
    expect(blocked.retryAfter).toBe(60);
    // The owner, from elsewhere, is not.
    const owner = await signIn('admin', DEMO_PASSWORD, '198.51.100.20');
    expect(owner.code).toBe(200);
    expect(owner.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Nor is another account from the attacker's address (the address itself is under its own limit).
    expect((await signIn('auditor', DEMO_PASSWORD, '203.0.113.7')).code).toBe(200);
  });

  it('the delay for one (username, address) grows with every further failure and ends when it says', async () => {
    const clock = fakeClock();
    const ip = '203.0.113.8';
    for (let i = 0; i < PAIR.free; i++) await signIn('agent2', 'wrong', ip, { kind: 'institution' });
    const waits: number[] = [];
    for (let step = 0; step < 4; step++) {
      const refused = await signIn('agent2', 'wrong', ip, { kind: 'institution' });
      expect(isThrottled(refused)).toBe(true);
      waits.push(refused.retryAfter!);
      // One second short of the time given: still refused; at the time given: checked (and wrong again).
      clock.advance(refused.retryAfter! * 1000 - 1000);
      expect(isThrottled(await signIn('agent2', 'wrong', ip, { kind: 'institution' }))).toBe(true);
      clock.advance(1000);
      expect((await signIn('agent2', 'wrong', ip, { kind: 'institution' })).error).toBe('Incorrect username or password');
    }
    expect(waits).toEqual([60, 120, 240, 480]);
    // The right password after the wait signs in and clears the pair's failures.
    clock.advance(PAIR.maxMs);
    expect((await signIn('agent2', DEMO_PASSWORD, ip, { kind: 'institution' })).code).toBe(200);
    expect((await signIn('agent2', 'wrong', ip, { kind: 'institution' })).error).toBe('Incorrect username or password');
  });

  it('one address cannot try more than a few dozen passwords an hour against any accounts', async () => {
    const clock = fakeClock();
    const start = clock.now();
    const ip = '192.0.2.44';
    const checked: number[] = [];
    // The attacker tries a new username every time (so no pair delay applies) and waits exactly as told.
    for (let i = 0; clock.now() < start + 2 * WINDOW_MS; i++) {
      const a = await signIn(i % 3 === 0 ? 'auditor' : `user-${i}`, 'wrong', ip);
      if (isThrottled(a)) {
        expect(a.retryAfter).toBeGreaterThan(0);
        clock.advance(a.retryAfter! * 1000);
      } else {
        expect(a.error).toBe('Incorrect username or password');
        checked.push(clock.now());
      }
    }
    // In any hour, at most ADDRESS.maxPerWindow (30) passwords were checked; the first ADDRESS.free went through at once.
    const mostInAnHour = Math.max(...checked.map((at) => checked.filter((x) => x >= at && x < at + WINDOW_MS).length));
    expect(mostInAnHour).toBeLessThanOrEqual(ADDRESS.maxPerWindow);
    expect(checked.slice(0, ADDRESS.free).every((at) => at === start)).toBe(true);
  });

  it('the throttled answer says when to try again in the caller language (seconds, then minutes)', async () => {
    fakeClock();
    const ip = '192.0.2.99';
    for (let i = 0; i < ADDRESS.free; i++) await signIn(`someone-${i}`, 'wrong', ip);
    const texts: Record<string, string | undefined> = {};
    for (const lang of ['zh-CN', 'en', 'es', 'ja']) texts[lang] = (await signIn('someone-else', 'wrong', ip, { lang })).error;
    expect(texts).toEqual({
      'zh-CN': '登录失败次数过多，请 10 秒后再试',
      en: 'Too many failed sign-in attempts; try again in 10 s',
      es: 'Demasiados intentos fallidos; inténtelo de nuevo en 10 s',
      ja: 'ログインの失敗が多すぎます。10 秒後にもう一度お試しください',
    });
    const ip2 = '192.0.2.100';
    for (let i = 0; i < PAIR.free; i++) await signIn('clinic3', 'wrong', ip2, { kind: 'institution' });
    expect((await signIn('clinic3', 'wrong', ip2, { kind: 'institution', lang: 'zh' })).error).toBe('登录失败次数过多，请 1 分钟后再试');
    expect((await signIn('clinic3', 'wrong', ip2, { kind: 'institution', lang: 'es' })).error).toBe('Demasiados intentos fallidos; inténtelo de nuevo en 1 min');
    expect((await signIn('clinic3', 'wrong', ip2, { kind: 'institution', lang: 'ja' })).error).toBe('ログインの失敗が多すぎます。1 分後にもう一度お試しください');
  });

  it('unknown usernames are indistinguishable: same answers, same count, a hash checked all the same', async () => {
    const known: Attempt[] = [];
    const unknown: Attempt[] = [];
    probe.calls = [];
    for (let i = 0; i <= PAIR.free; i++) {
      known.push(await signIn('clinic3b', 'wrong', '198.51.100.61', { kind: 'institution' }));
      unknown.push(await signIn('no-such-clinic', 'wrong', '198.51.100.62', { kind: 'institution' }));
    }
    expect(unknown.map((a) => [a.code, a.error, a.retryAfter])).toEqual(known.map((a) => [a.code, a.error, a.retryAfter]));
    expect(isThrottled(unknown.at(-1)!)).toBe(true);
    // Every attempt that was not throttled checked a hash: the account's or the dummy one.
    expect(probe.calls).toHaveLength(2 * PAIR.free);
    expect(probe.calls.every((h) => h.startsWith('$argon2id$'))).toBe(true);
  });

  it('IPv6 addresses count by their /64; IPv4-mapped addresses as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::5')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
  });

  it('a whole /64 is one address: rotating IPv6 addresses within it does not reset the count', async () => {
    for (let i = 0; i < PAIR.free; i++) await signIn('agent1', 'wrong', `2001:db8:77:1::${i + 1}`, { kind: 'institution' });
    expect(isThrottled(await signIn('agent1', DEMO_PASSWORD, '2001:db8:77:1:9999::abcd', { kind: 'institution' }))).toBe(true);
    expect((await signIn('agent1', DEMO_PASSWORD, '2001:db8:77:2::1', { kind: 'institution' })).code).toBe(200);
  });

  it('a burst of parallel attempts is counted as it arrives, not after', async () => {
    const answers = await Promise.all(Array.from({ length: 16 }, () => signIn('agent2b', 'wrong', '198.51.100.90', { kind: 'institution' })));
    expect(answers.filter((a) => a.error === 'Incorrect username or password')).toHaveLength(PAIR.free);
    expect(answers.filter(isThrottled)).toHaveLength(16 - PAIR.free);
  });

  it('an attempt whose clock was read before a parallel one reserved is not throttled while no rule asks a wait', async () => {
    // Another attempt from the address reserved a moment "later" than this one's clock (requests in parallel).
    const address = addressKey('198.51.100.91');
    const now = Date.now();
    await t.db.insert(loginFailures).values({ username: 'someone', ip: address, createdAt: new Date(now + 50) });
    expect(await reserveAttempt(t.db, 'clinic3', address, now)).toMatchObject({ ok: true });
    // Under the free counts nothing waits; a real wait still applies once a rule asks for one.
    for (let i = 0; i < PAIR.free; i++) await t.db.insert(loginFailures).values({ username: 'clinic3', ip: address, createdAt: new Date(now - 1000) });
    expect(await reserveAttempt(t.db, 'clinic3', address, now)).toMatchObject({ ok: false });
  });

  it('the password is checked outside any database transaction', async () => {
    const openTransactions: number[] = [];
    probe.during = async () => {
      // Another pooled connection looks at the server: no connection of this database sits in a transaction.
      const rows = await t.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`);
      openTransactions.push(Number((rows as unknown as { rows: { n: number }[] }).rows[0]!.n));
    };
    expect((await signIn('agent1b', DEMO_PASSWORD, '198.51.100.91', { kind: 'institution' })).code).toBe(200);
    expect((await signIn('agent1b', 'wrong', '198.51.100.91', { kind: 'institution' })).code).toBe(400);
    expect((await signIn('nobody-at-all', 'wrong', '198.51.100.91')).code).toBe(400);
    expect(openTransactions).toEqual([0, 0, 0]);
  });
});

import { PassThrough } from 'node:stream';
import { and, eq, inArray, like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_BASE, formatMessage } from '@app/contract';
import type { Database } from '../../db/client';
import { adminUsers, auditLog, institutions, mfaChallenges, mfaFactors, mfaRecoveryCodes, roles, systemParams } from '../../db/schema';
import { hashPassword } from '../../lib/crypto';
import { redactUrl, scrubText } from '../../lib/log';
import { buildAppOn, DEMO_PASSWORD, openTestDatabase } from '../../test/harness';
import { verifySecondFactor } from './index';

/*
 * The second factor (trust-api.md, "Second factor"), on both kinds of account: setup, enable, disable,
 * recovery codes, the sign-in's challenge and `/login/mfa`, no replay (also under concurrent requests on
 * several pool connections), throttling of wrong codes, the admin's restricted session
 * (`mfa_required_admins`), and nothing secret in the logs or the audit trail. The clock is a fake Date
 * moved by the tests (TOTP steps, the challenge's five minutes), never slept on.
 */

let database: Database;
let app: FastifyInstance;
let logs = '';

beforeAll(async () => {
  database = await openTestDatabase();
  const stream = new PassThrough();
  stream.on('data', (chunk) => {
    logs += chunk.toString();
  });
  app = await buildAppOn(database.db, { logLevel: 'trace', webDist: undefined }, { logStream: stream });
  await app.ready();
});
afterAll(async () => {
  vi.useRealTimers();
  await app?.close();
  await database?.close();
});

/** The fake clock: a little after the start of a 30 s step, moved forward by every test. */
let now = Math.floor(Date.now() / 30_000) * 30_000 + 2_000;
const tick = (ms: number) => {
  now += ms;
  vi.setSystemTime(now);
};
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  tick(10 * 60_000);
});
afterEach(() => {
  vi.useRealTimers();
});

let ipSeq = 0;
/** A fresh address: no sign-in throttle counts the calls of two tests together. */
const freshIp = () => {
  ipSeq++;
  return `10.77.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
};

interface Res {
  code: number;
  datas: any;
  raw: string;
  retryAfter?: string;
}
async function api(method: 'GET' | 'POST', path: string, o: { key?: string; body?: Record<string, unknown>; ip?: string; lang?: string } = {}): Promise<Res> {
  const payload = { ...o.body, ...(o.key ? { key: o.key } : {}) };
  const res = await app.inject({
    method,
    url: `${API_BASE}${path}`,
    ...(method === 'GET' ? { query: Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, String(v)])) } : { payload }),
    headers: { 'accept-language': o.lang ?? 'en' },
    remoteAddress: o.ip ?? freshIp(),
  });
  const body = res.json();
  const retry = res.headers['retry-after'];
  return { code: body.code, datas: body.datas, raw: res.body, retryAfter: retry === undefined ? undefined : String(retry) };
}

type Kind = 'admin' | 'institution';
const loginPath = (kind: Kind) => (kind === 'admin' ? '/login/login' : '/login/institution_login');
const password = (kind: Kind, username: string, ip = freshIp()) => api('POST', loginPath(kind), { body: { username, password: DEMO_PASSWORD }, ip });
async function keyOf(kind: Kind, username: string): Promise<string> {
  const res = await password(kind, username);
  expect(res.code, res.raw).toBe(200);
  expect(typeof res.datas.key, res.raw).toBe('string');
  return res.datas.key;
}
async function challengeOf(kind: Kind, username: string, ip = freshIp()): Promise<string> {
  const res = await password(kind, username, ip);
  expect(res.code, res.raw).toBe(200);
  expect(res.datas.mfa_required).toBe(true);
  expect(res.datas.key).toBeUndefined();
  return res.datas.challenge;
}
const second = (challenge: string, code: string, ip = freshIp(), lang = 'en') => api('POST', '/login/mfa', { body: { challenge, code }, ip, lang });
/** The code of the current step (or `steps` steps away), made by the same library. */
const codeOf = (secret: string, steps = 0) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 });
const msg = (key: Parameters<typeof formatMessage>[0], lang: 'en' | 'zh' | 'es' | 'ja' = 'en') => formatMessage(key, lang);
const errorText = (r: Res) => (typeof r.datas?.error === 'string' ? r.datas.error : r.datas?.error?.message);

/** Sets up and enables the factor of a signed-in account: its secret and recovery codes. The clock then moves a step on. */
async function enrol(key: string): Promise<{ secret: string; recovery: string[] }> {
  const setup = await api('POST', '/mfa/setup', { key, body: {} });
  expect(setup.code, setup.raw).toBe(200);
  const enabled = await api('POST', '/mfa/enable', { key, body: { code: codeOf(setup.datas.secret) } });
  expect(enabled.code, enabled.raw).toBe(200);
  tick(30_000);
  return { secret: setup.datas.secret, recovery: enabled.datas.recovery_codes };
}

/** A platform admin of its own (a role holding nothing), with the demo password. */
let adminSeq = 0;
async function newAdmin(): Promise<string> {
  adminSeq++;
  const username = `mfa-admin-${adminSeq}`;
  const [role] = await database.db
    .insert(roles)
    .values({ name: `mfa role ${adminSeq}` })
    .returning();
  await database.db.insert(adminUsers).values({ username, name: username, passwordHash: await hashPassword(DEMO_PASSWORD), roleId: role!.id });
  return username;
}
/** An institution of its own (grade 3, a root of no tree), with the demo password. */
let institutionSeq = 0;
async function newInstitution(): Promise<string> {
  institutionSeq++;
  const username = `mfa-clinic-${institutionSeq}`;
  const [row] = await database.db
    .insert(institutions)
    .values({ name: username, grade: 3, username, passwordHash: await hashPassword(DEMO_PASSWORD) })
    .returning({ id: institutions.id });
  await database.db
    .update(institutions)
    .set({ path: `/${row!.id}/` })
    .where(eq(institutions.id, row!.id));
  return username;
}
const account = (kind: Kind) => (kind === 'admin' ? newAdmin() : newInstitution());

describe.each(['institution', 'admin'] as const)('the second factor of an %s', (kind) => {
  it('set up, enabled with a first code, signed in with a challenge and a code, turned off', async () => {
    const username = await account(kind);
    const key = await keyOf(kind, username);
    expect((await api('GET', '/mfa/status', { key })).datas).toEqual({ enabled: false, required: false, pending: false, recovery_codes_left: 0 });

    // A first setup, then a second that replaces it: the first secret no longer enables.
    const first = await api('POST', '/mfa/setup', { key, body: {} });
    expect(first.code, first.raw).toBe(200);
    expect(first.datas.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(first.datas.otpauth_url).toMatch(new RegExp(`^otpauth://totp/.+secret=${first.datas.secret}.*`));
    expect(first.datas.otpauth_url).toContain('digits=6');
    expect(first.datas.otpauth_url).toContain('period=30');
    const setup = await api('POST', '/mfa/setup', { key, body: {} });
    expect(setup.datas.secret).not.toBe(first.datas.secret);
    expect((await api('GET', '/mfa/status', { key })).datas).toMatchObject({ enabled: false, pending: true });
    const stale = await api('POST', '/mfa/enable', { key, body: { code: codeOf(first.datas.secret) } });
    expect(stale.code).toBe(400);
    expect(errorText(stale)).toBe(msg('mfaCodeWrong'));
    // Not yet active: the password alone still signs in.
    expect((await password(kind, username)).datas.key).toEqual(expect.any(String));

    // Stored sealed: the database holds no base32 secret, only a sealed value.
    const factors = await database.db.select().from(mfaFactors);
    expect(factors.some((f) => f.pendingSecret?.startsWith('v1.'))).toBe(true);
    expect(JSON.stringify(factors)).not.toContain(setup.datas.secret);

    // Codes of the wrong shape: a clear 400 in the caller's language, nothing changed.
    for (const code of ['12345', '1234567', 'abcdef', '', '12 34 5x']) {
      const bad = await api('POST', '/mfa/enable', { key, body: { code }, lang: 'zh' });
      expect(bad.code, code).toBe(400);
      expect(errorText(bad)).toBe(msg('mfaCodeFormat', 'zh'));
    }
    expect((await api('GET', '/mfa/status', { key })).datas).toMatchObject({ enabled: false, pending: true });

    const enabled = await api('POST', '/mfa/enable', { key, body: { code: codeOf(setup.datas.secret) } });
    expect(enabled.code, enabled.raw).toBe(200);
    const recovery: string[] = enabled.datas.recovery_codes;
    expect(recovery).toHaveLength(10);
    for (const c of recovery) expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(new Set(recovery).size).toBe(10);
    // Stored hashed: no recovery code in the table.
    const stored = JSON.stringify(await database.db.select().from(mfaRecoveryCodes));
    for (const c of recovery) expect(stored).not.toContain(c.replace(/-/g, ''));
    expect((await api('GET', '/mfa/status', { key })).datas).toEqual({ enabled: true, required: false, pending: false, recovery_codes_left: 10 });
    // On: a new setup is refused, and the code just used enables nothing twice.
    expect(errorText(await api('POST', '/mfa/setup', { key, body: {} }))).toBe(msg('mfaAlreadyEnabled'));

    // Sign-in: a challenge, no key; then the code for the key.
    tick(30_000);
    const challenge = await challengeOf(kind, username);
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const done = await second(challenge, codeOf(setup.datas.secret));
    expect(done.code, done.raw).toBe(200);
    expect(done.datas.id).toEqual(expect.any(Number));
    const info = await api('GET', kind === 'admin' ? '/member/get_member' : '/institution/get_institution_info', { key: done.datas.key });
    expect(info.code, info.raw).toBe(200);
    expect(info.datas.username).toBe(username);

    // Turned off: a wrong code refused (nothing changed), a current code accepted; the password alone signs in again.
    tick(30_000);
    const wrong = await api('POST', '/mfa/disable', { key, body: { code: codeOf(setup.datas.secret, 5) } });
    expect(errorText(wrong)).toBe(msg('mfaCodeWrong'));
    expect((await api('GET', '/mfa/status', { key })).datas.enabled).toBe(true);
    const off = await api('POST', '/mfa/disable', { key, body: { code: codeOf(setup.datas.secret) } });
    expect(off.code, off.raw).toBe(200);
    expect(off.datas).toBeNull();
    expect((await api('GET', '/mfa/status', { key })).datas).toEqual({ enabled: false, required: false, pending: false, recovery_codes_left: 0 });
    expect(
      await database.db
        .select()
        .from(mfaRecoveryCodes)
        .where(inArray(mfaRecoveryCodes.subjectId, [done.datas.id])),
    ).toEqual([]);
    expect((await password(kind, username)).datas.key).toEqual(expect.any(String));
    expect(errorText(await api('POST', '/mfa/disable', { key, body: { code: codeOf(setup.datas.secret, 1) } }))).toBe(msg('mfaNotEnabled'));
  });

  it('a challenge: 5 minutes, one sign-in, bound to its account; malformed ones and bad codes are clear 400s that change nothing', async () => {
    const username = await account(kind);
    const { secret } = await enrol(await keyOf(kind, username));
    const other = await account(kind);
    const { secret: otherSecret } = await enrol(await keyOf(kind, other));

    // Malformed, unknown.
    for (const challenge of ['', 'short', 'x'.repeat(43).replace(/x/g, '!'), 'A'.repeat(43)]) {
      const res = await second(challenge, codeOf(secret), freshIp(), 'es');
      expect(res.code, challenge).toBe(400);
      expect(errorText(res)).toBe(msg('mfaChallengeUnknown', 'es'));
    }
    const challenge = await challengeOf(kind, username);
    // Codes of the wrong length or alphabet: refused before anything is counted or spent.
    for (const code of ['12345', '1234567', 'abcdef', '!!!!!!', 'ABCD-EFGH-JKMN-PQR']) {
      const res = await second(challenge, code, freshIp(), 'ja');
      expect(res.code, code).toBe(400);
      expect(errorText(res)).toBe(msg('mfaCodeFormat', 'ja'));
    }
    // Another account's code: wrong for this one (the challenge is bound to its account).
    const foreign = await second(challenge, codeOf(otherSecret));
    expect(errorText(foreign)).toBe(msg('mfaCodeWrong'));
    // Still usable after those refusals; then used, and refused the second time.
    const ok = await second(challenge, codeOf(secret));
    expect(ok.code, ok.raw).toBe(200);
    tick(30_000);
    const reused = await second(challenge, codeOf(secret));
    expect(errorText(reused)).toBe(msg('mfaChallengeUnknown'));
    // Expired after five minutes: refused, and its code is not spent (the next challenge takes it).
    const late = await challengeOf(kind, username);
    tick(5 * 60_000 + 1_000);
    const code = codeOf(secret);
    const expired = await second(late, code, freshIp(), 'zh');
    expect(expired.code).toBe(400);
    expect(errorText(expired)).toBe(msg('mfaChallengeExpired', 'zh'));
    const fresh = await second(await challengeOf(kind, username), code);
    expect(fresh.code, fresh.raw).toBe(200);
    // Stored hashed: no challenge in the table.
    expect(JSON.stringify(await database.db.select().from(mfaChallenges))).not.toContain(challenge);
  });

  it('no replay: a code used in its step, or an earlier step’s code, is refused; the next step’s works', async () => {
    const username = await account(kind);
    const { secret } = await enrol(await keyOf(kind, username));
    const code = codeOf(secret);
    expect((await second(await challengeOf(kind, username), code)).code).toBe(200);
    const again = await second(await challengeOf(kind, username), code);
    expect(again.code).toBe(400);
    expect(errorText(again)).toBe(msg('mfaCodeWrong'));
    // The previous step's code (within the drift allowed) is older than the last one used: refused.
    expect(errorText(await second(await challengeOf(kind, username), codeOf(secret, -1)))).toBe(msg('mfaCodeWrong'));
    // Drift of one step ahead is accepted; then the current step's code is older: refused.
    expect((await second(await challengeOf(kind, username), codeOf(secret, 1))).code).toBe(200);
    expect(errorText(await second(await challengeOf(kind, username), codeOf(secret)))).toBe(msg('mfaCodeWrong'));
    // Two steps away: outside the drift.
    tick(60_000);
    expect(errorText(await second(await challengeOf(kind, username), codeOf(secret, 2)))).toBe(msg('mfaCodeWrong'));
    expect((await second(await challengeOf(kind, username), codeOf(secret))).code).toBe(200);
  });

  it('recovery codes: each works once in place of a code, in any case and grouping; regenerated with a current code', async () => {
    const username = await account(kind);
    const key = await keyOf(kind, username);
    const { secret, recovery } = await enrol(key);
    const first = await second(await challengeOf(kind, username), recovery[0]!);
    expect(first.code, first.raw).toBe(200);
    const twice = await second(await challengeOf(kind, username), recovery[0]!, freshIp(), 'zh');
    expect(twice.code).toBe(400);
    expect(errorText(twice)).toBe(msg('mfaRecoveryUsed', 'zh'));
    // Lower case, no dashes, spaces: the same code.
    expect((await second(await challengeOf(kind, username), ` ${recovery[1]!.replace(/-/g, '').toLowerCase()} `)).code).toBe(200);
    expect((await api('GET', '/mfa/status', { key })).datas.recovery_codes_left).toBe(8);
    // The shared check, as step-up will call it.
    const subject = { kind, id: first.datas.id as number };
    expect(await verifySecondFactor(database.db, subject, recovery[2]!, app.config)).toBe('recovery');
    await expect(verifySecondFactor(database.db, subject, recovery[2]!, app.config)).rejects.toMatchObject({ messageKey: 'mfaRecoveryUsed' });
    expect(await verifySecondFactor(database.db, subject, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ', app.config)).toBeNull();
    expect(await verifySecondFactor(database.db, subject, codeOf(secret), app.config)).toBe('totp');
    expect(await verifySecondFactor(database.db, subject, codeOf(secret), app.config)).toBeNull();
    await expect(verifySecondFactor(database.db, subject, 'nope', app.config)).rejects.toMatchObject({ messageKey: 'mfaCodeFormat' });

    // Regenerating needs a current code (a recovery code will not do); the old codes stop working.
    tick(30_000);
    expect(errorText(await api('POST', '/mfa/recovery_codes', { key, body: { code: recovery[3]! } }))).toBe(msg('mfaTotpRequired'));
    expect(errorText(await api('POST', '/mfa/recovery_codes', { key, body: { code: codeOf(secret, 4) } }))).toBe(msg('mfaCodeWrong'));
    const fresh = await api('POST', '/mfa/recovery_codes', { key, body: { code: codeOf(secret) } });
    expect(fresh.code, fresh.raw).toBe(200);
    expect(fresh.datas.recovery_codes).toHaveLength(10);
    expect(errorText(await second(await challengeOf(kind, username), recovery[4]!))).toBe(msg('mfaCodeWrong'));
    expect((await second(await challengeOf(kind, username), fresh.datas.recovery_codes[0])).code).toBe(200);
    // A recovery code turns the factor off too.
    expect((await api('POST', '/mfa/disable', { key, body: { code: fresh.datas.recovery_codes[1] } })).code).toBe(200);
  });

  it('wrong codes are throttled like wrong passwords, per account and address; a right password does not reset the count', async () => {
    const username = await account(kind);
    const { secret } = await enrol(await keyOf(kind, username));
    const ip = freshIp();
    const challenge = await challengeOf(kind, username, ip);
    for (let i = 0; i < 5; i++) expect(errorText(await second(challenge, codeOf(secret, 5), ip))).toBe(msg('mfaCodeWrong'));
    // The sixth attempt waits, even with the right code; its answer says when, with Retry-After.
    const throttled = await second(challenge, codeOf(secret), ip);
    expect(throttled.code).toBe(400);
    expect(errorText(throttled)).toMatch(/Too many failed sign-in attempts; try again in 1 min/);
    expect(throttled.retryAfter).toBe('60');
    // The password again from that address does not reset the count of wrong codes: it is throttled too.
    const pw = await password(kind, username, ip);
    expect(errorText(pw)).toMatch(/Too many failed sign-in attempts/);
    // From another address the account signs in (same challenge, still unused).
    expect((await second(challenge, codeOf(secret), freshIp())).code).toBe(200);
    // After the wait, from the first address, the right code clears the failures.
    tick(61_000);
    const back = await second(await challengeOf(kind, username, ip), codeOf(secret), ip);
    expect(back.code, back.raw).toBe(200);
    expect((await password(kind, username, ip)).datas.mfa_required).toBe(true);
  });

  it('a burst of 9 parallel wrong codes from one address is counted as it arrives: 5 judged, 4 throttled', async () => {
    const username = await account(kind);
    const { secret } = await enrol(await keyOf(kind, username));
    const ip = freshIp();
    // One after another: parallel password attempts would be counted while pending, as they should.
    const challenges: string[] = [];
    for (let i = 0; i < 9; i++) challenges.push(await challengeOf(kind, username, ip));
    const results = await Promise.all(challenges.map((c) => second(c, codeOf(secret, 5), ip)));
    const texts = results.map(errorText);
    expect(texts.filter((t) => t === msg('mfaCodeWrong'))).toHaveLength(5);
    expect(texts.filter((t) => /Too many failed sign-in attempts/.test(t ?? ''))).toHaveLength(4);
    // Each judged one left its refused sign-in row, committed with the count.
    const rows = await database.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.outcome, 'refused'), eq(auditLog.reason, 'second_factor'), eq(auditLog.actorName, username)));
    expect(rows).toHaveLength(5);
  });
});

describe('codes asked of a signed-in account', () => {
  it('wrong codes to turn the factor off are throttled per account and address; a right one clears the count', async () => {
    const username = await newAdmin();
    const key = await keyOf('admin', username);
    const { secret } = await enrol(key);
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect(errorText(await api('POST', '/mfa/disable', { key, body: { code: codeOf(secret, 5) }, ip }))).toBe(msg('mfaCodeWrong'));
    const throttled = await api('POST', '/mfa/disable', { key, body: { code: codeOf(secret) }, ip });
    expect(errorText(throttled)).toMatch(/try again in 1 min/);
    expect(throttled.retryAfter).toBe('60');
    expect(errorText(await api('POST', '/mfa/recovery_codes', { key, body: { code: codeOf(secret) }, ip }))).toMatch(/try again in/);
    expect((await api('GET', '/mfa/status', { key })).datas.enabled).toBe(true);
    // Sign-in failures count apart: the password still answers a challenge from that address.
    expect((await password('admin', username, ip)).datas.mfa_required).toBe(true);
    tick(61_000);
    expect((await api('POST', '/mfa/recovery_codes', { key, body: { code: codeOf(secret) }, ip })).code).toBe(200);
    tick(30_000);
    expect((await api('POST', '/mfa/disable', { key, body: { code: codeOf(secret, 5) }, ip })).code).toBe(400);
    expect((await api('POST', '/mfa/disable', { key, body: { code: codeOf(secret) }, ip })).code).toBe(200);
  });
});

describe('concurrent uses, on several connections', () => {
  it('20 concurrent sign-ins with the same valid code on 20 challenges: exactly one succeeds', async () => {
    const username = await account('institution');
    const { secret } = await enrol(await keyOf('institution', username));
    const challenges = await Promise.all(Array.from({ length: 20 }, () => challengeOf('institution', username)));
    const code = codeOf(secret);
    const results = await Promise.all(challenges.map((c) => second(c, code)));
    expect(results.filter((r) => r.code === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.code !== 200)) expect(errorText(r)).toBe(msg('mfaCodeWrong'));
  });

  it('one challenge used by 10 concurrent requests with 10 different recovery codes: one sign-in, one code spent', async () => {
    const username = await newAdmin();
    const key = await keyOf('admin', username);
    const { recovery } = await enrol(key);
    const challenge = await challengeOf('admin', username);
    const results = await Promise.all(recovery.map((c) => second(challenge, c)));
    expect(results.filter((r) => r.code === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.code !== 200)) expect(errorText(r)).toBe(msg('mfaChallengeUnknown'));
    expect((await api('GET', '/mfa/status', { key })).datas.recovery_codes_left).toBe(9);
  });

  it('the same code on 10 concurrent regenerations: one passes', async () => {
    const username = await newAdmin();
    const key = await keyOf('admin', username);
    const { secret } = await enrol(key);
    const code = codeOf(secret);
    // From 10 addresses: the throttle lets each through, the code's step lets one.
    const results = await Promise.all(Array.from({ length: 10 }, () => api('POST', '/mfa/recovery_codes', { key, body: { code }, ip: freshIp() })));
    expect(results.filter((r) => r.code === 200)).toHaveLength(1);
  });
});

describe('mfa_required_admins', () => {
  const setParam = (value: number) => database.db.insert(systemParams).values({ key: 'mfa_required_admins', value }).onConflictDoUpdate({ target: systemParams.key, set: { value } });
  afterEach(async () => {
    await setParam(0);
  });

  it('an admin without a factor gets a session that reaches only the setup, get_member, the sessions list and sign-out, until it enables one', async () => {
    await setParam(1);
    const username = await newAdmin();
    const key = await keyOf('admin', username);
    const member = await api('GET', '/member/get_member', { key });
    expect(member.code, member.raw).toBe(200);
    expect(member.datas.mfa_setup_required).toBe(true);
    expect((await api('GET', '/mfa/status', { key })).datas).toMatchObject({ enabled: false, required: true });
    expect((await api('GET', '/session/list', { key })).code).toBe(200);
    for (const [method, path] of [
      ['POST', '/session/end_others'],
      ['GET', '/region/tree'],
      ['GET', '/equipment/list'],
    ] as const) {
      const refused = await api(method, path, { key, body: {}, lang: 'es' });
      expect(refused.code, path).toBe(400);
      expect(refused.datas.error).toEqual({ message: msg('mfaSetupRequired', 'es'), reason: 'mfa_setup_required' });
    }
    // Enrolling lifts the restriction of this very session at once.
    await enrol(key);
    expect((await api('POST', '/session/end_others', { key, body: {} })).code).toBe(200);
    expect((await api('GET', '/member/get_member', { key })).datas.mfa_setup_required).toBe(false);
    // With its factor, the admin signs in with a challenge and gets a full session.
    const restrictedAgain = await keyOf('admin', await newAdmin());
    expect((await api('GET', '/member/get_member', { key: restrictedAgain })).datas.mfa_setup_required).toBe(true);
    // Institutions are not concerned.
    const inst = await keyOf('institution', 'overdue3');
    expect((await api('GET', '/institution/get_institution_info', { key: inst })).code).toBe(200);
    // Sign-out works from a restricted session.
    expect((await api('POST', '/login/logout', { key: restrictedAgain, body: {} })).code).toBe(200);
    expect((await api('GET', '/member/get_member', { key: restrictedAgain })).code).toBe(999);
  });

  it('back to 0: a restricted session regains full access at its next call', async () => {
    await setParam(1);
    const key = await keyOf('admin', await newAdmin());
    expect((await api('POST', '/session/end_others', { key, body: {} })).datas.error.reason).toBe('mfa_setup_required');
    await setParam(0);
    expect((await api('POST', '/session/end_others', { key, body: {} })).code).toBe(200);
    expect((await api('GET', '/member/get_member', { key })).datas.mfa_setup_required).toBe(false);
  });
});

describe('nothing secret in logs or the audit trail', () => {
  it('log lines and audit rows carry no secret, code, challenge or recovery code', async () => {
    const username = await account('institution');
    const key = await keyOf('institution', username);
    const setup = await api('POST', '/mfa/setup', { key, body: {} });
    const firstCode = codeOf(setup.datas.secret);
    const enabled = await api('POST', '/mfa/enable', { key, body: { code: firstCode } });
    tick(30_000);
    const challenge = await challengeOf('institution', username);
    const code = codeOf(setup.datas.secret);
    await api('GET', '/mfa/status', { key, body: { code, challenge } });
    await app.inject({ method: 'GET', url: `${API_BASE}/mfa/status?key=${key}&code=${code}&challenge=${challenge}` });
    expect((await second(challenge, code)).code).toBe(200);
    await api('POST', '/mfa/disable', { key, body: { code: enabled.datas.recovery_codes[0] } });
    await new Promise((r) => setImmediate(r));
    const secrets = [setup.datas.secret, firstCode, code, challenge, ...enabled.datas.recovery_codes, encodeURIComponent(setup.datas.otpauth_url)];
    const rows = JSON.stringify(await database.db.select().from(auditLog).where(like(auditLog.endpoint, 'mfa.%')));
    expect(rows).toContain('mfa.enable');
    for (const s of secrets) {
      expect(logs).not.toContain(s);
      expect(rows).not.toContain(s);
    }
    expect(logs).toContain('[redacted]');
  });

  it('the log redaction covers the second factor’s names', () => {
    expect(redactUrl('/adminapi/x?code=123456&challenge=abc&recovery_codes=A&otpauth_url=o&passcode=1&id=7')).toBe(
      '/adminapi/x?code=[redacted]&challenge=[redacted]&recovery_codes=[redacted]&otpauth_url=[redacted]&passcode=[redacted]&id=7',
    );
    expect(scrubText('{"code":"123456","challenge":"abc","secret":"S"}')).toBe('{"code":"[redacted]","challenge":"[redacted]","secret":"[redacted]"}');
  });
});

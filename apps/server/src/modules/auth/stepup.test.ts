import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { ENDPOINTS } from '@app/contract';
import { activationCodes, adminUsers, auditLog, devicePayments, institutions, payouts, roles, sessions } from '../../db/schema';
import { hashKey } from '../../lib/crypto';
import { createTestApp, type TestApp } from '../../test/harness';

/*
 * Step-up (trust-api.md): the calls that move money or hand out access need a re-authentication within
 * `reauth_minutes`; a password sign-in counts as one. Each call of the list is refused with
 * `reauth_required` when its session's window has passed, with an input that would otherwise succeed,
 * and nothing changes; `/auth/reauth` opens the window again.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/** The calls trust-api.md lists, by endpoint name. */
const STEP_UP = [
  'auth.modifyField',
  'codes.generate',
  'finance.payoutApprove',
  'finance.payoutReject',
  'finance.refund',
  'institutions.resetPassword',
  'jurisdiction.adminAdd',
  'jurisdiction.adminEdit',
  'jurisdiction.roleAdd',
  'jurisdiction.roleEdit',
  'mfa.disable',
  'mfa.recoveryCodes',
  'sessions.endAccount',
];

/** The session of a key, its step-up window moved to `until`. */
async function windowEnds(key: string, until: Date | null) {
  await t.db
    .update(sessions)
    .set({ reauthUntil: until })
    .where(eq(sessions.keyHash, hashKey(key)));
}
const stale = (key: string) => windowEnds(key, new Date(Date.now() - 1_000));

describe('step-up', () => {
  it('is asked exactly by the calls trust-api.md lists', () => {
    expect(
      ENDPOINTS.filter((e) => e.stepUp)
        .map((e) => e.name)
        .sort(),
    ).toEqual([...STEP_UP].sort());
  });

  it('refuses each listed call with reauth_required once the window has passed, changing nothing; a reauth lets it through', async () => {
    const admin = Object.assign(await t.login('admin'), { roleId: (await t.db.select({ roleId: adminUsers.roleId }).from(adminUsers).where(eq(adminUsers.username, 'admin')))[0]!.roleId });
    const [pending] = await t.db.select().from(payouts).where(eq(payouts.status, 'pending')).limit(2);
    const [paid] = await t.db.select().from(devicePayments).where(eq(devicePayments.status, 'paid')).limit(1);
    const clinic = await t.institutionId('clinic3b');
    const [auditorRole] = await t.db.select().from(roles).where(eq(roles.name, 'Auditor'));
    const bodies: Record<string, Record<string, unknown>> = {
      'auth.modifyField': { id: admin.id, field: 'password', value: 'Brand-new-pass-31' },
      'codes.generate': { scope: 'device', days: 30, count: 1 },
      'finance.payoutApprove': { id: pending!.id },
      'finance.payoutReject': { id: pending!.id, reason: 'Wrong account' },
      'finance.refund': { id: paid!.id, reason: 'Duplicate order' },
      'institutions.resetPassword': { id: clinic },
      'jurisdiction.adminAdd': { username: 'stepper', name: 'Stepper', role_id: auditorRole?.id ?? 1, password: 'Stepper-pass-77' },
      'jurisdiction.adminEdit': { id: admin.id, name: 'Renamed', phone: '', role_id: admin.roleId },
      'jurisdiction.roleAdd': { name: 'Step role', menu_ids: [] },
      'jurisdiction.roleEdit': { id: auditorRole?.id ?? 1, name: 'Renamed role' },
      'sessions.endAccount': { kind: 'institution', id: clinic },
      'mfa.disable': { code: '123456' },
      'mfa.recoveryCodes': { code: '123456' },
    };
    const counts = async () => ({
      audit: await t.db.$count(auditLog),
      codes: await t.db.$count(activationCodes),
      roles: await t.db.$count(roles),
      pending: await t.db.$count(payouts, eq(payouts.status, 'pending')),
      paid: await t.db.$count(devicePayments, eq(devicePayments.status, 'paid')),
      passwords: (await t.db.select({ h: sql<string>`string_agg(password_hash, ',' order by id)` }).from(institutions))[0]!.h,
    });
    await stale(admin.key);
    const before = await counts();
    for (const name of STEP_UP) {
      const e = ENDPOINTS.find((x) => x.name === name)!;
      const res = await t.call('POST', e.path, { key: admin.key, body: bodies[name], lang: 'zh' });
      expect(res.code, `${name}: ${res.raw}`).toBe(400);
      expect(res.datas.error, name).toEqual({ reason: 'reauth_required', message: expect.stringMatching(/重新验证/) });
    }
    expect(await counts()).toEqual(before);
    // The admin can still sign in with the password it had.
    expect((await t.login('admin')).key).toBeTruthy();

    const res = await t.call('POST', '/auth/reauth', { key: admin.key, body: { password: 'demo1234' } });
    expect(res.code, res.raw).toBe(200);
    const until = Date.parse(res.datas.until);
    expect(until - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    const generated = await t.call('POST', '/activation_code/generate', { key: admin.key, body: bodies['codes.generate'] });
    expect(generated.code, generated.raw).toBe(200);
    expect(await t.db.$count(activationCodes)).toBe(before.codes + 1);
  });

  it('a password sign-in opens the window, for the `reauth_minutes` parameter', async () => {
    await t.call('POST', '/params/save', { key: (await t.login('admin')).key, body: { values: { reauth_minutes: 12 } } });
    const agent = await t.login('agent1b', 'institution');
    const [row] = await t.db
      .select({ until: sessions.reauthUntil })
      .from(sessions)
      .where(eq(sessions.keyHash, hashKey(agent.key)));
    const left = row!.until!.getTime() - Date.now();
    expect(left).toBeGreaterThan(11 * 60_000);
    expect(left).toBeLessThanOrEqual(12 * 60_000);
    const renewed = await t.call('POST', '/auth/reauth', { key: agent.key, body: { password: 'demo1234' } });
    expect(Date.parse(renewed.datas.until) - Date.now()).toBeGreaterThan(11 * 60_000);
    await t.call('POST', '/params/save', { key: (await t.login('admin')).key, body: { values: { reauth_minutes: 5 } } });
  });

  it('an institution’s own password change needs it too; a wrong password is refused in the caller’s language and changes nothing', async () => {
    const me = await t.login('agent2b', 'institution');
    await stale(me.key);
    const change = { id: me.id, field: 'password', value: 'Another-pass-55' };
    const refused = await t.call('POST', '/member/modify_field', { key: me.key, body: change, lang: 'es' });
    expect(refused.datas.error.reason).toBe('reauth_required');
    const wrong = await t.call('POST', '/auth/reauth', { key: me.key, body: { password: 'not-my-password' }, lang: 'ja' });
    expect(wrong.code).toBe(400);
    expect(wrong.datas.error).toBe('パスワードが正しくありません');
    expect((await t.call('POST', '/member/modify_field', { key: me.key, body: change })).datas.error.reason).toBe('reauth_required');
    for (const body of [{}, { password: '' }, { password: 1 }, { password: 'x'.repeat(500) }]) {
      expect((await t.call('POST', '/auth/reauth', { key: me.key, body })).code).toBe(400);
    }
    expect((await t.call('POST', '/auth/reauth', { key: me.key, body: { password: 'demo1234' } })).code).toBe(200);
    expect((await t.call('POST', '/member/modify_field', { key: me.key, body: change })).code).toBe(200);
    await t.call('POST', '/member/modify_field', { key: me.key, body: { id: me.id, field: 'password', value: 'demo1234' } });
  });

  it('wrong passwords are throttled like sign-ins: after five, even the right one waits', async () => {
    const me = await t.login('clinic3', 'institution');
    const from = '10.77.0.1';
    const reauth = (password: string) => t.app.inject({ method: 'POST', url: '/adminapi/auth/reauth', payload: { key: me.key, password }, remoteAddress: from }).then((r) => r.json());
    for (let i = 0; i < 5; i++) expect((await reauth(`wrong-${i}`)).datas.error).toBe('The password is not correct');
    const held = await reauth('demo1234');
    expect(held.code).toBe(400);
    expect(held.datas.error).toMatch(/try again in/i);
    // The sign-in counts the same failures (one counter per account name and address).
    const signIn = await t.app.inject({ method: 'POST', url: '/adminapi/login/institution_login', payload: { username: 'clinic3', password: 'demo1234' }, remoteAddress: from });
    expect(signIn.json().datas.error).toMatch(/try again in/i);
    // Another address is not held.
    const elsewhere = await t.app.inject({ method: 'POST', url: '/adminapi/auth/reauth', payload: { key: me.key, password: 'demo1234' }, remoteAddress: '10.78.0.1' });
    expect(elsewhere.json().code).toBe(200);
  });

  it('the window is the session’s own: another session of the same account is not re-authenticated by it', async () => {
    const a = await t.login('agent1', 'institution');
    const b = await t.login('agent1', 'institution');
    await stale(a.key);
    await stale(b.key);
    expect((await t.call('POST', '/auth/reauth', { key: a.key, body: { password: 'demo1234' } })).code).toBe(200);
    const child = await t.institutionId('agent2');
    expect((await t.call('POST', '/institution/reset_password', { key: b.key, body: { id: child } })).datas.error.reason).toBe('reauth_required');
    const done = await t.call('POST', '/institution/reset_password', { key: a.key, body: { id: child, password: 'Reset-by-agent-1' } });
    expect(done.code, done.raw).toBe(200);
    await t.db
      .update(institutions)
      .set({ passwordHash: (await t.db.select({ h: institutions.passwordHash }).from(institutions).where(eq(institutions.username, 'agent1')))[0]!.h })
      .where(and(eq(institutions.id, child)));
  });

  it('with a second factor, a code re-authenticates too (a recovery code once); a wrong one is refused', async () => {
    const me = await t.login('agent1b', 'institution');
    const { secret } = (await t.call('POST', '/mfa/setup', { key: me.key, body: {} })).datas;
    const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
    const enabled = await t.call('POST', '/mfa/enable', { key: me.key, body: { code } });
    expect(enabled.code, enabled.raw).toBe(200);
    const [recovery] = enabled.datas.recovery_codes as string[];
    await stale(me.key);
    expect((await t.call('POST', '/auth/reauth', { key: me.key, body: { code: '000000' } })).code).toBe(400);
    const ok = await t.call('POST', '/auth/reauth', { key: me.key, body: { code: recovery } });
    expect(ok.code, ok.raw).toBe(200);
    await stale(me.key);
    expect((await t.call('POST', '/auth/reauth', { key: me.key, body: { code: recovery } })).code).toBe(400);
    expect((await t.call('POST', '/auth/reauth', { key: me.key, body: {} })).code).toBe(400);
  });

  it('20 concurrent approvals of one payout after one reauth decide it once', async () => {
    const admin = await t.login('admin');
    await stale(admin.key);
    expect((await t.call('POST', '/auth/reauth', { key: admin.key, body: { password: 'demo1234' } })).code).toBe(200);
    const [pending] = await t.db.select().from(payouts).where(eq(payouts.status, 'pending')).limit(1);
    const ledgerBefore = await t.db.$count(auditLog, and(eq(auditLog.endpoint, 'finance.payoutApprove'), eq(auditLog.outcome, 'ok')));
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.call('POST', '/payout/approve', { key: admin.key, body: { id: pending!.id } })));
    expect(answers.filter((a) => a.code === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.code === 400)).toHaveLength(19);
    expect(answers.every((a) => a.code === 200 || a.datas.error.reason === undefined)).toBe(true);
    const [after] = await t.db.select().from(payouts).where(eq(payouts.id, pending!.id));
    expect(after!.status).toBe('paid');
    expect(await t.db.$count(auditLog, and(eq(auditLog.endpoint, 'finance.payoutApprove'), eq(auditLog.outcome, 'ok')))).toBe(ledgerBefore + 1);
  });
});

import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARAM_KEYS } from '@app/contract';
import { adminUsers, auditLog, menus, roleMenus, roles, sessions } from '../../db/schema';
import { hashKey, hashPassword } from '../../lib/crypto';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
});
afterAll(async () => {
  await t?.close();
});

const save = (values: Record<string, unknown>, lang?: string, key = admin) => t.call('POST', '/params/save', { key, body: { values }, lang });
const current = async () => Object.fromEntries((await t.call('GET', '/params/list', { key: admin })).datas.map((p: any) => [p.key, p.value]));

describe('params: list and public', () => {
  it('answers every parameter with type, value, default, bounds and labels in four languages', async () => {
    const res = await t.call('GET', '/params/list', { key: admin });
    expect(res.code).toBe(200);
    expect(res.datas.map((p: any) => p.key)).toEqual(PARAM_KEYS);
    expect(res.datas.map((p: any) => p.key)).toEqual([
      'site_title',
      'default_language',
      'min_payout_cents',
      'password_min_length',
      'session_idle_minutes',
      'session_absolute_hours',
      'reauth_minutes',
      'report_disclaimer',
      'expiring_days',
      'share_days',
      'device_offline_hours',
      'device_online_minutes',
      'device_uses_low',
      'upload_daily_limit',
      'backup_daily',
      'backup_keep',
      'mfa_required_admins',
    ]);
    const byKey = Object.fromEntries(res.datas.map((p: any) => [p.key, p]));
    expect(byKey.password_min_length).toMatchObject({ type: 'integer', value: 8, default: 8, min: 3, max: 64 });
    expect(byKey.min_payout_cents).toMatchObject({ type: 'money_cents', value: 10000 });
    expect(byKey.default_language.type).toBe('enum');
    expect(byKey.default_language.options.map((o: any) => o.value)).toEqual(['zh', 'en', 'es', 'ja']);
    expect(byKey.report_disclaimer.type).toBe('text');
    expect(byKey.site_title).toMatchObject({ type: 'string', max_length: 60 });
    for (const p of res.datas) {
      for (const lang of ['zh', 'en', 'es', 'ja']) {
        expect(p.label[lang], `${p.key} ${lang}`).toBeTruthy();
        expect(p.help[lang], `${p.key} ${lang}`).toBeTruthy();
      }
    }
  });

  it('GET /params/public needs no session and answers only the login page values', async () => {
    const res = await t.call('GET', '/params/public');
    expect(res.code).toBe(200);
    // An empty title (the default): the pages show the product's name in the reader's language.
    expect(res.datas).toEqual({ site_title: '', default_language: 'en' });
  });
});

describe('params: save', () => {
  it('validates every value and saves nothing when any is invalid', async () => {
    const before = await current();
    const res = await save({ site_title: 'Fine title', password_min_length: 2, session_idle_minutes: '15x', default_language: 'fr', expiring_days: 366 });
    expect(res.code).toBe(400);
    expect(Object.keys(res.datas.fields).sort()).toEqual(['values.default_language', 'values.expiring_days', 'values.password_min_length', 'values.session_idle_minutes']);
    expect(await current()).toEqual(before);
    expect((await save({ site_title: 'x'.repeat(61) })).datas.fields).toHaveProperty(['values.site_title']);
    expect((await save({ report_disclaimer: 'x'.repeat(2001) })).datas.fields).toHaveProperty(['values.report_disclaimer']);
    expect((await save({ min_payout_cents: 12.5 })).datas.fields).toHaveProperty(['values.min_payout_cents']);
    expect((await save({ min_payout_cents: -1 })).datas.fields).toHaveProperty(['values.min_payout_cents']);
    const unknown = await save({ site_title: 'Ok', theme: 'dark' });
    expect(unknown.code).toBe(400);
    expect(unknown.datas.error).toMatch(/theme/);
    expect((await save({})).datas.error).toMatch(/no parameter to save/);
    const bad = await t.call('POST', '/params/save', { key: admin, body: { values: 'all' } });
    expect(bad.code).toBe(400);
    expect(await current()).toEqual(before);
  });

  it('saves several values in one call and answers them in list and public', async () => {
    const res = await save({ site_title: '  Meridian Console  ', default_language: 'zh', min_payout_cents: '5000', report_disclaimer: '' });
    expect(res.code).toBe(200);
    const now = await current();
    expect(now).toMatchObject({ site_title: 'Meridian Console', default_language: 'zh', min_payout_cents: 5000, report_disclaimer: '' });
    expect((await t.call('GET', '/params/public')).datas).toEqual({ site_title: 'Meridian Console', default_language: 'zh' });
    // Saving again updates the stored row.
    expect((await save({ site_title: 'Meridian Console 2' })).code).toBe(200);
    expect((await current()).site_title).toBe('Meridian Console 2');
  });

  it('refuses an idle timeout longer than the session lifetime, on the values after the save', async () => {
    const res = await save({ session_absolute_hours: 1 });
    expect(res.code).toBe(400);
    expect(res.datas.fields['values.session_idle_minutes']).toMatch(/cannot be longer/);
    expect((await save({ session_absolute_hours: 1 }, 'zh')).datas.fields['values.session_idle_minutes']).toMatch(/空闲超时/);
    expect((await save({ session_absolute_hours: 1, session_idle_minutes: 60 })).code).toBe(200);
    expect((await save({ session_absolute_hours: 168, session_idle_minutes: 120 })).code).toBe(200);
  });
});

describe('params: take effect at once', () => {
  it('password_min_length: a 9-character password is refused with the new minimum of 10', async () => {
    expect((await save({ password_min_length: 10 })).code).toBe(200);
    const me = await t.login('agent1', 'institution');
    const short = await t.call('POST', '/member/modify_field', { key: me.key, body: { id: me.id, field: 'password', value: 'ninechars' } });
    expect(short.code).toBe(400);
    expect(short.datas.error).toBe('The password must have at least 10 characters');
    const okay = await t.call('POST', '/member/modify_field', { key: me.key, body: { id: me.id, field: 'password', value: 'tenchars10' } });
    expect(okay.code).toBe(200);
    expect((await save({ password_min_length: 8 })).code).toBe(200);
  });

  it('session_idle_minutes: a session idle for longer than the new timeout expires', async () => {
    const { key } = await t.login('auditor');
    await t.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 30 * 60_000) })
      .where(eq(sessions.keyHash, hashKey(key)));
    expect((await t.call('GET', '/member/get_member', { key })).code).toBe(200);
    expect((await save({ session_idle_minutes: 20 })).code).toBe(200);
    await t.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 30 * 60_000) })
      .where(eq(sessions.keyHash, hashKey(key)));
    expect((await t.call('GET', '/member/get_member', { key })).code).toBe(999);
    expect((await save({ session_idle_minutes: 120 })).code).toBe(200);
  });

  it('expiring_days: the device list flags devices by the new window', async () => {
    const count = async () => (await t.call('GET', '/equipment/list', { key: admin, query: { expiring: 1, limit: 1 } })).datas.total;
    const within30 = await count();
    expect((await save({ expiring_days: 365 })).code).toBe(200);
    expect(await count()).toBeGreaterThan(within30);
    expect((await save({ expiring_days: 30 })).code).toBe(200);
    expect(await count()).toBe(within30);
  });
});

describe('params: access', () => {
  it('refuses institutions; a role with the page but not params:edit reads and cannot save', async () => {
    const clinic = await t.login('clinic3', 'institution');
    expect((await t.call('GET', '/params/list', { key: clinic.key })).datas.error).toMatch(/permission/);
    expect((await save({ site_title: 'Hijack' }, undefined, clinic.key)).code).toBe(400);
    const auditor = await t.login('auditor');
    expect((await t.call('GET', '/params/list', { key: auditor.key })).code).toBe(400);

    const [role] = await t.db.insert(roles).values({ name: 'Params reader' }).returning();
    const nodes = await t.db
      .select({ id: menus.id })
      .from(menus)
      .where(inArray(menus.sign, ['ParamsSetting']));
    await t.db.insert(roleMenus).values(nodes.map((n) => ({ roleId: role!.id, menuId: n.id })));
    await t.db.insert(adminUsers).values({ username: 'paramsreader', passwordHash: await hashPassword(DEMO_PASSWORD), roleId: role!.id });
    const reader = (await t.login('paramsreader')).key;
    expect((await t.call('GET', '/params/list', { key: reader })).code).toBe(200);
    const refused = await save({ site_title: 'Nope' }, undefined, reader);
    expect(refused.code).toBe(400);
    expect(refused.datas.error).toMatch(/permission/);
    expect((await t.call('GET', '/params/public')).datas.site_title).not.toBe('Nope');
  });
});

describe('params: audit trail', () => {
  it('a save records the whole set before and after (record id null); a refused save records nothing', async () => {
    const was = await current();
    expect((await save({ expiring_days: 45, report_disclaimer: 'Audited text' })).code).toBe(200);
    const rows = await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'params.save')).orderBy(asc(auditLog.id));
    const row = rows.at(-1)!;
    expect(row).toMatchObject({ recordType: 'params', recordId: null, path: '/params/save', actorKind: 'admin' });
    expect(Object.keys(row.before as object).sort()).toEqual([...PARAM_KEYS].sort());
    expect(row.before).toMatchObject({ expiring_days: was.expiring_days, report_disclaimer: was.report_disclaimer });
    // (lib/audit's secret-key rule also catches password_min_length: its value shows as redacted.)
    const { password_min_length: _, ...others } = was;
    expect(row.after).toMatchObject({ ...others, expiring_days: 45, report_disclaimer: 'Audited text' });
    expect(row.input).toEqual({ values: { expiring_days: 45, report_disclaimer: 'Audited text' } });

    expect((await save({ expiring_days: 0 })).code).toBe(400);
    expect(await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'params.save'))).toHaveLength(rows.length);
    expect((await save({ expiring_days: was.expiring_days, report_disclaimer: was.report_disclaimer })).code).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { auditLog } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('sign-in', () => {
  it('admin login trims the username and answers key and id', async () => {
    const res = await t.call('POST', '/login/login', { body: { username: '  admin ', password: 'demo1234' } });
    expect(res.code).toBe(200);
    expect(res.datas.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.datas.id).toBeTypeOf('number');
  });

  it('answers one message for unknown user and wrong password', async () => {
    const unknown = await t.call('POST', '/login/login', { body: { username: 'nobody', password: 'demo1234' } });
    const wrong = await t.call('POST', '/login/login', { body: { username: 'auditor', password: 'wrong-pass' } });
    expect(unknown.code).toBe(400);
    expect(wrong.code).toBe(400);
    expect(unknown.datas.error).toBe(wrong.datas.error);
  });

  it('answers in the caller language', async () => {
    const res = await t.call('POST', '/login/login', { body: { username: 'nobody2', password: 'x' }, lang: 'zh-CN,zh;q=0.9' });
    expect(res.datas.error).toBe('用户名或密码错误');
  });

  it('refuses repeated failures for one username from one address, even with the right password', async () => {
    for (let i = 0; i < 5; i++) await t.call('POST', '/login/institution_login', { body: { username: 'agent1b', password: 'bad' } });
    const res = await t.call('POST', '/login/institution_login', { body: { username: 'agent1b', password: 'demo1234' } });
    expect(res.code).toBe(400);
    expect(res.datas.error).toMatch(/Too many failed sign-in attempts/);
  });

  it('institution login does not accept an admin account', async () => {
    const res = await t.call('POST', '/login/institution_login', { body: { username: 'admin', password: 'demo1234' } });
    expect(res.code).toBe(400);
  });

  it('rejects malformed bodies with 400 and no stack trace', async () => {
    const res = await t.call('POST', '/login/login', { body: '{not json', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.raw).not.toMatch(/at .*\.ts|node_modules/);
    const missing = await t.call('POST', '/login/login', { body: { username: ['a'], password: 5 } });
    expect(missing.code).toBe(400);
    expect(Object.keys(missing.datas.fields)).toEqual(expect.arrayContaining(['username', 'password']));
  });
});

describe('session keys', () => {
  it('missing, unknown and logged-out keys get 999', async () => {
    expect((await t.call('GET', '/member/get_member')).code).toBe(999);
    expect((await t.call('GET', '/member/get_member', { key: 'x'.repeat(43) })).code).toBe(999);
    const { key } = await t.login('admin');
    expect((await t.call('GET', '/member/get_member', { key })).code).toBe(200);
    expect((await t.call('POST', '/login/logout', { key })).code).toBe(200);
    expect((await t.call('GET', '/member/get_member', { key })).code).toBe(999);
  });

  it('accepts the key as a bearer token too', async () => {
    const { key } = await t.login('admin');
    const res = await t.call('GET', '/member/get_member', { headers: { authorization: `Bearer ${key}` } });
    expect(res.code).toBe(200);
    expect(res.datas.username).toBe('admin');
  });

  it('expires idle sessions', async () => {
    const { key } = await t.login('admin');
    const { sessions } = await import('../../db/schema');
    const { hashKey } = await import('../../lib/crypto');
    const { eq } = await import('drizzle-orm');
    await t.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 3 * 3600_000) })
      .where(eq(sessions.keyHash, hashKey(key)));
    expect((await t.call('GET', '/member/get_member', { key })).code).toBe(999);
  });

  it('expires sessions past their absolute lifetime', async () => {
    const { key } = await t.login('admin');
    const { sessions } = await import('../../db/schema');
    const { hashKey } = await import('../../lib/crypto');
    const { eq } = await import('drizzle-orm');
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.keyHash, hashKey(key)));
    expect((await t.call('GET', '/member/get_member', { key })).code).toBe(999);
  });
});

describe('user info', () => {
  it('get_member gives the super-admin every node and the auditor only its grants', async () => {
    const admin = await t.login('admin');
    const all = await t.call('GET', '/member/get_member', { key: admin.key, query: { id: admin.id } });
    const signs = (nodes: any[]): string[] => nodes.flatMap((n) => [n.sign, ...signs(n.children)]);
    expect(signs(all.datas.role_data)).toEqual(expect.arrayContaining(['DeviceList', 'AcupointManage', 'acupoint:delete']));

    const auditor = await t.login('auditor');
    const some = await t.call('GET', '/member/get_member', { key: auditor.key });
    expect(signs(some.datas.role_data).sort()).toEqual(
      ['Dashboard', 'DeviceList', 'device:export', 'Inspection', 'InspectionList', 'InspectionReport', 'InspectionResult', 'inspection:export'].sort(),
    );
  });

  it("get_institution_info gives the grade; admins and institutions cannot use each other's", async () => {
    const inst = await t.login('agent2', 'institution');
    const info = await t.call('GET', '/institution/get_institution_info', { key: inst.key });
    expect(info.datas).toMatchObject({ username: 'agent2', institution_grade: 2, overdue: false });
    expect((await t.call('GET', '/member/get_member', { key: inst.key })).code).toBe(400);
    const admin = await t.login('admin');
    expect((await t.call('GET', '/institution/get_institution_info', { key: admin.key })).code).toBe(400);
  });
});

describe('overdue institutions', () => {
  it('answers 998 with a new restricted key on business calls; the restricted key still gets info', async () => {
    const { key } = await t.login('overdue3', 'institution');
    const info = await t.call('GET', '/institution/get_institution_info', { key });
    expect(info.datas.overdue).toBe(true);
    const res = await t.call('GET', '/equipment/list', { key });
    expect(res.code).toBe(998);
    const restricted = res.datas.error.data.key;
    expect(restricted).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(restricted).not.toBe(key);
    // The old key stays usable (concurrent calls must not turn into 999): info works, business still
    // answers 998; the restricted key works for info and keeps answering 998.
    expect((await t.call('GET', '/institution/get_institution_info', { key })).code).toBe(200);
    expect((await t.call('GET', '/equipment/list', { key })).code).toBe(998);
    expect((await t.call('GET', '/institution/get_institution_info', { key: restricted })).code).toBe(200);
    const again = await t.call('GET', '/equipment/list', { key: restricted });
    expect(again.code).toBe(998);
    expect((await t.call('POST', '/login/logout', { key: again.datas.error.data.key })).code).toBe(200);
  });

  it('concurrent business calls all answer 998 with a usable key, never 999', async () => {
    const { key } = await t.login('overdue3', 'institution');
    const answers = await Promise.all(Array.from({ length: 4 }, () => t.call('GET', '/equipment/list', { key })));
    expect(answers.map((a) => a.code)).toEqual([998, 998, 998, 998]);
    for (const a of answers) expect((await t.call('GET', '/institution/get_institution_info', { key: a.datas.error.data.key })).code).toBe(200);
  });
});

describe('restricted sessions', () => {
  const sessionsOf = async (id: number) => {
    const { sessions } = await import('../../db/schema');
    return t.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.subjectKind, 'institution'), eq(sessions.subjectId, id)));
  };

  it('a sign-in gets one restricted session, answered again by every 998 until it expires', async () => {
    const { key, id } = await t.login('overdue3', 'institution');
    const before = new Set((await sessionsOf(id)).map((r) => r.id));
    const first = await t.call('GET', '/equipment/list', { key });
    expect(first.code).toBe(998);
    const restricted = first.datas.error.data.key as string;
    expect(restricted).not.toBe(key);
    // The calling key again, other business calls, and the restricted key itself: the same key each time.
    const answers = [
      await t.call('GET', '/equipment/list', { key }),
      await t.call('GET', '/package/list', { key }),
      await t.call('GET', '/equipment/list', { key: restricted }),
      await t.call('POST', '/package/add', { key: restricted, body: { name: 'x' } }),
    ];
    expect(answers.map((a) => [a.code, a.datas.error.data.key])).toEqual(answers.map(() => [998, restricted]));
    expect((await t.call('GET', '/institution/get_institution_info', { key: restricted })).code).toBe(200);
    // One row more than the sign-in's own: the restricted one.
    const added = (await sessionsOf(id)).filter((r) => !before.has(r.id));
    expect(added.map((r) => r.restricted)).toEqual([true]);
    const row = added[0]!;
    expect(row.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 3600_000);

    // Once it has expired, the next 998 creates it anew (the same derived key, a fresh hour).
    const { sessions } = await import('../../db/schema');
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, row.id));
    expect((await t.call('GET', '/institution/get_institution_info', { key: restricted })).code).toBe(999);
    const renewed = await t.call('GET', '/equipment/list', { key });
    expect(renewed.datas.error.data.key).toBe(restricted);
    expect((await t.call('GET', '/institution/get_institution_info', { key: restricted })).code).toBe(200);
    expect((await sessionsOf(id)).filter((r) => !before.has(r.id)).map((r) => r.restricted)).toEqual([true]);
  });

  it('another sign-in gets its own restricted key, and neither reveals the other', async () => {
    const a = await t.login('overdue3', 'institution');
    const b = await t.login('overdue3', 'institution');
    const ka = (await t.call('GET', '/equipment/list', { key: a.key })).datas.error.data.key;
    const kb = (await t.call('GET', '/equipment/list', { key: b.key })).datas.error.data.key;
    expect(ka).not.toBe(kb);
    expect([ka, kb]).not.toContain(a.key);
  });

  it('concurrent 998s of one sign-in share one restricted session, and every key answered works', async () => {
    const { key, id } = await t.login('overdue3', 'institution');
    const before = (await sessionsOf(id)).length;
    const answers = await Promise.all(Array.from({ length: 8 }, () => t.call('GET', '/equipment/list', { key })));
    expect(answers.map((a) => a.code)).toEqual(answers.map(() => 998));
    expect(new Set(answers.map((a) => a.datas.error.data.key)).size).toBe(1);
    expect((await t.call('GET', '/institution/get_institution_info', { key: answers[0]!.datas.error.data.key })).code).toBe(200);
    expect((await t.call('GET', '/institution/get_institution_info', { key })).code).toBe(200);
    expect(await sessionsOf(id)).toHaveLength(before + 1);
  });
});

describe('password change', () => {
  it('validates with the system minimum, answers the server message, and ends other sessions', async () => {
    const first = await t.login('agent1', 'institution');
    const second = await t.login('agent1', 'institution');
    const short = await t.call('POST', '/member/modify_field', { key: first.key, body: { id: first.id, field: 'password', value: 'abc' } });
    expect(short.code).toBe(400);
    expect(short.datas.error).toMatch(/at least 8/);
    const empty = await t.call('POST', '/member/modify_field', { key: first.key, body: { id: first.id, field: 'password', value: '   ' } });
    expect(empty.datas.error).toMatch(/cannot be empty/);
    // A commonly used password is refused in the caller's language, whatever its case, and nothing changes.
    for (const [value, lang, message] of [
      ['password123', 'en', /most commonly used/],
      ['PassWord123', 'zh', /过于常见/],
      ['iloveyou1', 'es', /más usadas/],
      ['qwerty123', 'ja', /よく使われて/],
    ] as const) {
      const common = await t.call('POST', '/member/modify_field', { key: first.key, lang, body: { id: first.id, field: 'password', value } });
      expect(common.code, value).toBe(400);
      expect(common.datas.error).toMatch(message);
    }
    expect((await t.call('GET', '/institution/get_institution_info', { key: second.key })).code).toBe(200);
    await t.login('agent1', 'institution');

    const done = await t.call('POST', '/member/modify_field', { key: first.key, body: { id: first.id, field: 'password', value: 'new-secret-1' } });
    expect(done.code).toBe(200);
    expect((await t.call('GET', '/institution/get_institution_info', { key: second.key })).code).toBe(999);
    expect((await t.call('GET', '/institution/get_institution_info', { key: first.key })).code).toBe(200);
    await t.login('agent1', 'institution', 'new-secret-1');
    await t.call('POST', '/member/modify_field', { key: first.key, body: { id: first.id, field: 'password', value: 'demo1234' } });
  });

  it('an institution cannot change another account, and a forged institution field is refused', async () => {
    const me = await t.login('clinic3', 'institution');
    const other = await t.login('agent2', 'institution');
    const res = await t.call('POST', '/member/modify_field', { key: me.key, body: { id: other.id, field: 'password', value: 'hijacked-123' } });
    expect(res.code).toBe(400);
    const forged = await t.call('GET', '/equipment/list', { key: me.key, query: { institution_id_3: other.id } });
    expect(forged.code).toBe(400);
    const wrongGrade = await t.call('GET', '/equipment/list', { key: me.key, query: { institution_id_1: me.id } });
    expect(wrongGrade.code).toBe(400);
    const honest = await t.call('GET', '/equipment/list', { key: me.key, query: { institution_id_3: me.id } });
    expect(honest.code).toBe(200);
  });

  it('admins cannot disable themselves', async () => {
    const me = await t.login('admin');
    const res = await t.call('POST', '/member/modify_field', { key: me.key, body: { id: me.id, field: 'status', value: 0 } });
    expect(res.code).toBe(400);
  });
});

describe('audit trail', () => {
  it('sign-in and sign-out leave access rows (modules/audit/access.test.ts) without the password; a password change leaves one without the password', async () => {
    const me = await t.login('admin');
    expect((await t.call('POST', '/login/login', { body: { username: 'nobody-audited', password: 'secret-typo-1' } })).code).toBe(400);
    const other = await t.login('auditor');
    expect((await t.call('POST', '/login/logout', { key: other.key })).code).toBe(200);
    const access = await t.db
      .select()
      .from(auditLog)
      .where(inArray(auditLog.endpoint, ['auth.login', 'auth.institutionLogin', 'auth.logout']));
    expect(access.filter((r) => r.actorName === 'nobody-audited')).toMatchObject([{ event: 'sign_in', outcome: 'refused', reason: 'bad_credentials', change: 'none' }]);
    expect(access.filter((r) => r.event === 'sign_out' && r.actorId === other.id)).toHaveLength(1);
    expect(JSON.stringify(access)).not.toContain('secret-typo-1');

    const changed = await t.call('POST', '/member/modify_field', { key: me.key, body: { id: me.id, field: 'password', value: 'my-new-secret-9' } });
    expect(changed.code).toBe(200);
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, 'auth.modifyField'), eq(auditLog.actorKind, 'admin'), eq(auditLog.actorId, me.id), eq(auditLog.outcome, 'ok')));
    // (The refused attempt to disable itself, above, has a refused row of its own.)
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorKind: 'admin', recordType: 'admin', recordId: me.id, path: '/member/modify_field' });
    expect(rows[0]!.before).toMatchObject({ id: me.id, username: 'admin' });
    expect(rows[0]!.input).toEqual({ id: me.id, field: 'password', password: '[redacted]' });
    const text = JSON.stringify(rows);
    expect(text).not.toContain('my-new-secret-9');
    expect(text).not.toMatch(/argon2|password_hash|passwordHash/);
    // Back to the demo password for the other tests of this file.
    await t.call('POST', '/member/modify_field', { key: me.key, body: { id: me.id, field: 'password', value: 'demo1234' } });
  });

  it('an institution changing its own password is recorded against its own record', async () => {
    const me = await t.login('clinic3b', 'institution');
    expect((await t.call('POST', '/member/modify_field', { key: me.key, body: { id: me.id, field: 'password', value: 'clinic-secret-7' } })).code).toBe(200);
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, 'auth.modifyField'), eq(auditLog.actorKind, 'institution'), eq(auditLog.actorId, me.id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ recordType: 'institution', recordId: me.id, actorName: 'clinic3b' });
    expect(rows[0]!.before).toMatchObject({ id: me.id, username: 'clinic3b', grade: 3 });
    expect(JSON.stringify(rows)).not.toMatch(/clinic-secret-7|argon2|password_hash|passwordHash/);
    await t.call('POST', '/member/modify_field', { key: me.key, body: { id: me.id, field: 'password', value: 'demo1234' } });
  });
});

import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@app/contract';
import { openPostgres } from '../../db/client';
import { auditLog, sessions } from '../../db/schema';
import { buildAppOn, createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/** A sign-in from a browser and an address of one's choosing. */
async function signIn(username: string, kind: 'admin' | 'institution', userAgent: string, address = '127.0.0.1') {
  const res = await t.app.inject({
    method: 'POST',
    url: `${API_BASE}/login/${kind === 'admin' ? 'login' : 'institution_login'}`,
    payload: { username, password: DEMO_PASSWORD },
    headers: { 'user-agent': userAgent },
    remoteAddress: address,
  });
  const body = res.json();
  expect(body.code, res.body).toBe(200);
  return body.datas as { key: string; id: number };
}
const info = (key: string) => t.call('GET', '/institution/get_institution_info', { key });
const list = async (key: string) => {
  const res = await t.call('GET', '/session/list', { key });
  expect(res.code, res.raw).toBe(200);
  return res.datas.list as { id: number; current: boolean; ip: string; user_agent: string; created_at: string; last_seen_at: string }[];
};

describe('one’s own sessions', () => {
  it('lists the caller’s sessions only, the current one first, with browser, address and times', async () => {
    const laptop = await signIn('agent2', 'institution', CHROME, '10.1.1.1');
    const phone = await signIn('agent2', 'institution', PHONE, '10.2.2.2');
    await signIn('clinic3', 'institution', CHROME);
    const mine = await list(phone.key);
    const ids = (
      await t.db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.subjectKind, 'institution'), eq(sessions.subjectId, await t.institutionId('agent2'))))
    ).map((r) => r.id);
    expect(mine.map((r) => r.id).sort()).toEqual(ids.sort());
    expect(mine[0]).toMatchObject({ current: true, ip: '10.2.2.2', user_agent: PHONE });
    expect(mine.filter((r) => r.current)).toHaveLength(1);
    const other = mine.find((r) => r.ip === '10.1.1.1')!;
    expect(other).toMatchObject({ current: false, user_agent: CHROME });
    expect(Date.parse(other.created_at)).toBeLessThanOrEqual(Date.parse(mine[0]!.created_at));
    expect(Number.isNaN(Date.parse(other.last_seen_at))).toBe(false);
    // The laptop's own list marks the laptop's session as current.
    expect((await list(laptop.key)).find((r) => r.current)?.ip).toBe('10.1.1.1');
  });

  it('a User-Agent is kept as printable text of at most 256 characters', async () => {
    const { key } = await signIn('agent1b', 'institution', `Evil\u0007Browser ${'x'.repeat(400)}`);
    const [me] = await list(key);
    expect(me!.user_agent.startsWith('EvilBrowser x')).toBe(true);
    expect(me!.user_agent).toHaveLength(256);
  });

  it('ends one of one’s own sessions: its key answers 999 at once; another account’s session is not found and stays', async () => {
    const a = await signIn('clinic3', 'institution', CHROME);
    const b = await signIn('clinic3', 'institution', PHONE);
    const stranger = await signIn('agent1', 'institution', CHROME);
    expect((await info(b.key)).code).toBe(200);
    const target = (await list(a.key)).find((r) => r.user_agent === PHONE && !r.current)!;
    const ended = await t.call('POST', '/session/end', { key: a.key, body: { id: target.id } });
    expect(ended.code, ended.raw).toBe(200);
    expect((await info(b.key)).code).toBe(999);
    expect((await info(a.key)).code).toBe(200);
    // Twice, or someone else's: the same refusal, and nothing ends.
    const again = await t.call('POST', '/session/end', { key: a.key, body: { id: target.id } });
    expect(again.code).toBe(400);
    expect(again.datas.error).toMatch(/not found|does not exist/i);
    const strangers = (await list(stranger.key)).find((r) => r.current)!;
    const refused = await t.call('POST', '/session/end', { key: a.key, lang: 'zh', body: { id: strangers.id } });
    expect(refused.code).toBe(400);
    expect(refused.datas.error).not.toMatch(/[a-z]{4}/);
    expect((await info(stranger.key)).code).toBe(200);
    // Junk ids: a clear 400, no crash.
    for (const id of ['abc', -1, 0, 2 ** 40, null]) expect((await t.call('POST', '/session/end', { key: a.key, body: { id } })).code).toBe(400);
  });

  it('ends every other session of the caller and keeps the current one', async () => {
    const keep = await signIn('agent1', 'institution', CHROME);
    const others = [await signIn('agent1', 'institution', PHONE), await signIn('agent1', 'institution', PHONE)];
    const bystander = await signIn('agent2', 'institution', CHROME);
    const before = (await list(keep.key)).length;
    const res = await t.call('POST', '/session/end_others', { key: keep.key, body: {} });
    expect(res.code, res.raw).toBe(200);
    expect(res.datas.ended).toBe(before - 1);
    for (const o of others) expect((await info(o.key)).code).toBe(999);
    expect((await info(keep.key)).code).toBe(200);
    expect((await info(bystander.key)).code).toBe(200);
    expect(await list(keep.key)).toHaveLength(1);
    // The access audit holds the end: a sign-out of the account, with how many sessions ended.
    const [row] = await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'sessions.endOthers')).orderBy(desc(auditLog.id)).limit(1);
    expect(row).toMatchObject({ event: 'sign_out', change: 'none', outcome: 'ok', actorKind: 'institution', recordType: 'institution', recordId: keep.id, rowCount: before - 1 });
    expect(JSON.stringify(row)).not.toContain(keep.key);
  });

  it('ending the current session signs it out', async () => {
    const me = await signIn('agent2b', 'institution', CHROME);
    const [current] = await list(me.key);
    expect((await t.call('POST', '/session/end', { key: me.key, body: { id: current!.id } })).code).toBe(200);
    expect((await info(me.key)).code).toBe(999);
  });
});

describe('ending another account’s sessions (grade 0)', () => {
  it('the platform ends every session of an institution or an admin; the status button is needed', async () => {
    const admin = await signIn('admin', 'admin', CHROME);
    const clinic = [await signIn('clinic3b', 'institution', CHROME), await signIn('clinic3b', 'institution', PHONE)];
    const auditor = await signIn('auditor', 'admin', CHROME);
    const res = await t.call('POST', '/session/end_account', { key: admin.key, body: { kind: 'institution', id: await t.institutionId('clinic3b') } });
    expect(res.code, res.raw).toBe(200);
    expect(res.datas.ended).toBeGreaterThanOrEqual(2);
    for (const c of clinic) expect((await info(c.key)).code).toBe(999);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'sessions.endAccount')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ event: 'sign_out', actorKind: 'admin', actorId: admin.id, recordType: 'institution', recordId: await t.institutionId('clinic3b'), rowCount: res.datas.ended });
    // The auditor's role holds no status button: refused, and its own sessions stay.
    const refused = await t.call('POST', '/session/end_account', { key: auditor.key, body: { kind: 'admin', id: admin.id } });
    expect(refused.code).toBe(400);
    expect(refused.datas.error).toMatch(/permission/i);
    expect((await t.call('GET', '/member/get_member', { key: admin.key })).code).toBe(200);
    // An admin's sessions, by the super-admin.
    const ended = await t.call('POST', '/session/end_account', { key: admin.key, body: { kind: 'admin', id: auditor.id } });
    expect(ended.datas.ended).toBeGreaterThanOrEqual(1);
    expect((await t.call('GET', '/member/get_member', { key: auditor.key })).code).toBe(999);
    // One's own account: refused (end the others from the Security page); an unknown account: not found.
    expect((await t.call('POST', '/session/end_account', { key: admin.key, body: { kind: 'admin', id: admin.id } })).code).toBe(400);
    expect((await t.call('GET', '/member/get_member', { key: admin.key })).code).toBe(200);
    const unknown = await t.call('POST', '/session/end_account', { key: admin.key, body: { kind: 'institution', id: 999_999 } });
    expect(unknown.datas.error).toMatch(/not found|does not exist/i);
    for (const body of [{ kind: 'robot', id: 1 }, { kind: 'admin' }, { kind: 'admin', id: 'x' }]) {
      expect((await t.call('POST', '/session/end_account', { key: admin.key, body })).code).toBe(400);
    }
  });

  it('an institution cannot end another account’s sessions', async () => {
    const agent = await signIn('agent1', 'institution', CHROME);
    const res = await t.call('POST', '/session/end_account', { key: agent.key, body: { kind: 'institution', id: await t.institutionId('clinic3') } });
    expect(res.code).toBe(400);
    expect(res.datas.error).toMatch(/permission/i);
  });
});

describe('across server processes', () => {
  it('a session ended through one process answers 999 in another that had it in memory', async () => {
    const url = (t.db as unknown as { $client: { options: { connectionString: string } } }).$client.options.connectionString;
    const second = await openPostgres(url, { sessionCache: true });
    const other = await buildAppOn(second.db);
    try {
      await other.ready();
      const a = await signIn('agent2', 'institution', CHROME);
      const b = await signIn('agent2', 'institution', PHONE);
      const onOther = async (key: string) => (await other.inject({ method: 'GET', url: `${API_BASE}/institution/get_institution_info`, query: { key } })).json().code;
      // Warm in the second process (its session cache now holds b).
      expect(await onOther(b.key)).toBe(200);
      expect(await onOther(b.key)).toBe(200);
      const target = (await list(a.key)).find((r) => r.user_agent === PHONE && !r.current)!;
      expect((await t.call('POST', '/session/end', { key: a.key, body: { id: target.id } })).code).toBe(200);
      // The notice reaches the other process a moment after the commit: polled, not slept on.
      await expect.poll(() => onOther(b.key), { timeout: 5_000, interval: 5 }).toBe(999);
      expect(await onOther(a.key)).toBe(200);
    } finally {
      await other.close();
      await second.close();
    }
  });
});

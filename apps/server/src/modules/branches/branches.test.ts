import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '@app/contract';
import { auditLog, branchApplications, institutions } from '../../db/schema';
import { hashPassword } from '../../lib/crypto';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let admin: string;
const inst: Record<string, number> = {};
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
  for (const u of ['agent1', 'agent2', 'clinic3', 'agent1b', 'agent2b', 'clinic3b']) inst[u] = await t.institutionId(u);
});
afterAll(async () => {
  await t?.close();
});

const FORBIDDEN = formatMessage('forbidden', 'en');
const as = async (username: string) => (await t.login(username, 'institution')).key;
let seq = 0;
const application = (extra: Record<string, unknown> = {}) => ({
  name: `Branch ${++seq}`,
  contact_name: 'Applicant',
  phone: '13700000000',
  region: ['320000', '320500', '320508'],
  address: 'Guanqian Street 1',
  username: `branch${seq}x`,
  ...extra,
});
const apply = (key: string, extra: Record<string, unknown> = {}) => t.call('POST', '/branch/apply', { key, body: application(extra) });
const listOf = async (key: string, query: Record<string, unknown> = {}) => (await t.call('GET', '/branch/list', { key, query: { limit: 200, ...query } })).datas;
const stored = async (id: number) => (await t.db.select().from(branchApplications).where(eq(branchApplications.id, id)))[0]!;

describe('branch applications: the list, scoped', () => {
  it('admins see every application; an institution those of its own subtree', async () => {
    const all = await listOf(admin);
    expect(all.list.map((a: any) => `${a.username}:${a.state}`).sort()).toEqual(['clinic3b:approved', 'shenzhen2:pending', 'suzhou2:rejected', 'xiaoshan3:pending']);
    const approved = all.list.find((a: any) => a.state === 'approved');
    expect(approved).toMatchObject({ applicant_name: 'Guangzhou Sub-agency', branch_grade: 3, institution_id: inst.clinic3b, reviewed_by: 'admin' });
    const rejected = all.list.find((a: any) => a.state === 'rejected');
    expect(rejected.reason).toMatch(/already covered/);
    const names = async (who: string) => (await listOf(await as(who))).list.map((a: any) => a.username).sort();
    expect(await names('agent1')).toEqual(['suzhou2', 'xiaoshan3']);
    expect(await names('agent2')).toEqual(['xiaoshan3']);
    expect(await names('clinic3')).toEqual([]);
    expect(await names('agent1b')).toEqual(['clinic3b', 'shenzhen2']);
  });

  it('filters by state, keyword, applicant and region; an applicant outside the subtree is refused', async () => {
    expect((await listOf(admin, { state: 'pending' })).list.map((a: any) => a.username).sort()).toEqual(['shenzhen2', 'xiaoshan3']);
    expect((await listOf(admin, { keyword: 'SUZHOU' })).list.map((a: any) => a.username)).toEqual(['suzhou2']);
    expect((await listOf(admin, { keyword: 'guangzhou' })).list.map((a: any) => a.username)).toEqual(['clinic3b']);
    expect((await listOf(admin, { applicant_id: inst.agent2 })).list.map((a: any) => a.username)).toEqual(['xiaoshan3']);
    expect((await listOf(admin, { region: '440000' })).list.map((a: any) => a.username).sort()).toEqual(['clinic3b', 'shenzhen2']);
    const agent1 = await as('agent1');
    expect((await t.call('GET', '/branch/list', { key: agent1, query: { applicant_id: inst.agent2b } })).datas.error).toBe(FORBIDDEN);
  });
});

describe('branch applications: filing', () => {
  it('an institution files one for itself; it shows as pending to it and its ancestors', async () => {
    const clinic3 = await as('clinic3');
    const res = await apply(clinic3, { username: 'lakeside3' });
    expect(res.code).toBe(200);
    expect(await stored(res.datas.id)).toMatchObject({ applicantId: inst.clinic3, state: 'pending', province: '320000', district: '320508', username: 'lakeside3' });
    expect((await listOf(clinic3)).list.map((a: any) => a.username)).toEqual(['lakeside3']);
    expect((await listOf(await as('agent1'))).list.map((a: any) => a.username)).toContain('lakeside3');
    expect((await listOf(await as('agent1b'))).list.map((a: any) => a.username)).not.toContain('lakeside3');
  });

  it('refuses account names already used by an institution or a pending application, and bad fields', async () => {
    const agent2 = await as('agent2');
    expect((await apply(agent2, { username: 'Clinic3' })).datas.fields.username).toMatch(/already taken/);
    expect((await apply(agent2, { username: 'XIAOSHAN3' })).datas.fields.username).toMatch(/pending application/);
    // A rejected application's name is free again.
    expect((await apply(agent2, { username: 'suzhou2' })).code).toBe(200);
    expect((await apply(agent2, { region: ['320000', '320500'] })).datas.fields.region).toBeTruthy();
    expect((await apply(agent2, { username: 'x' })).datas.fields.username).toBeTruthy();
    expect((await apply(agent2, { phone: '' })).datas.fields.phone).toBeTruthy();
    expect((await apply(agent2, { contact_name: '' })).datas.fields.contact_name).toBeTruthy();
  });

  it('only institutions file; admins approve and reject, institutions do not', async () => {
    expect((await apply(admin)).datas.error).toBe(FORBIDDEN);
    const pending = (await apply(await as('agent1b'))).datas.id as number;
    const agent1b = await as('agent1b');
    expect((await t.call('POST', '/branch/approve', { key: agent1b, body: { id: pending } })).datas.error).toBe(FORBIDDEN);
    expect((await t.call('POST', '/branch/reject', { key: agent1b, body: { id: pending, reason: 'no' } })).datas.error).toBe(FORBIDDEN);
    const auditor = await t.login('auditor');
    expect((await t.call('GET', '/branch/list', { key: auditor.key })).datas.error).toBe(FORBIDDEN);
  });
});

describe('branch applications: decisions', () => {
  it('approval creates the branch under the applicant by the grade rule, with its login, once', async () => {
    const id = (await apply(await as('agent1'), { username: 'wuxi2', name: 'Wuxi Sub-agency' })).datas.id as number;
    const res = await t.call('POST', '/branch/approve', { key: admin, body: { id } });
    expect(res.code).toBe(200);
    expect(res.datas).toMatchObject({ id, username: 'wuxi2' });
    expect(res.datas.password).toMatch(/^[A-Za-z2-9]{12}$/);
    const [branch] = await t.db.select().from(institutions).where(eq(institutions.id, res.datas.institution_id));
    const [agent1] = await t.db.select().from(institutions).where(eq(institutions.id, inst.agent1!));
    expect(branch).toMatchObject({
      name: 'Wuxi Sub-agency',
      grade: 2,
      parentId: inst.agent1,
      path: `${agent1!.path}${branch!.id}/`,
      province: '320000',
      city: '320500',
      district: '320508',
      status: 1,
    });
    expect(branch!.termExpiresAt?.getTime()).toBe(agent1!.termExpiresAt?.getTime());
    expect(await stored(id)).toMatchObject({ state: 'approved', institutionId: branch!.id });
    // The new branch signs in with the password shown once, and sees its own application's state.
    expect((await t.login('wuxi2', 'institution', res.datas.password)).key).toBeTruthy();
    const applicant = await listOf(await as('agent1'), { state: 'approved' });
    expect(applicant.list.map((a: any) => a.username)).toEqual(['wuxi2']);
    // Decided once.
    expect((await t.call('POST', '/branch/approve', { key: admin, body: { id } })).datas.error).toBe('This application has already been reviewed');
    expect((await t.call('POST', '/branch/reject', { key: admin, body: { id, reason: 'late' } })).datas.error).toMatch(/already been reviewed/);
    expect((await t.call('POST', '/branch/approve', { key: admin, body: { id: 2_000_000_000 } })).datas.error).toMatch(/does not exist/);
  });

  it('a grade-3 applicant gets a grade-3 branch; a chosen password is not answered', async () => {
    const id = (await apply(await as('clinic3'), { username: 'lakeside3b' })).datas.id as number;
    const res = await t.call('POST', '/branch/approve', { key: admin, body: { id, password: 'branch-pass-1' } });
    expect(res.datas.password).toBeNull();
    const [branch] = await t.db.select().from(institutions).where(eq(institutions.id, res.datas.institution_id));
    expect(branch).toMatchObject({ grade: 3, parentId: inst.clinic3 });
    expect((await t.login('lakeside3b', 'institution', 'branch-pass-1')).key).toBeTruthy();
    const short = (await apply(await as('clinic3'))).datas.id as number;
    expect((await t.call('POST', '/branch/approve', { key: admin, body: { id: short, password: 'abc' } })).datas.fields.password).toMatch(/at least/);
    expect((await stored(short)).state).toBe('pending');
  });

  it('refuses the approval when the account name was taken meanwhile, and changes nothing', async () => {
    const id = (await apply(await as('agent2'), { username: 'raced3' })).datas.id as number;
    // Taken behind the application's back (an operator's import, say).
    await t.db.insert(institutions).values({ name: 'Raced', grade: 1, username: 'RACED3', passwordHash: await hashPassword('irrelevant-1'), path: '' });
    const res = await t.call('POST', '/branch/approve', { key: admin, body: { id } });
    expect(res.datas.fields.username).toMatch(/already taken/);
    expect(await stored(id)).toMatchObject({ state: 'pending', institutionId: null, reviewedBy: null });
  });

  it('rejection keeps the reason for the applicant; it needs one', async () => {
    const id = (await apply(await as('agent2b'))).datas.id as number;
    expect((await t.call('POST', '/branch/reject', { key: admin, body: { id, reason: '  ' } })).datas.fields.reason).toBeTruthy();
    expect((await t.call('POST', '/branch/reject', { key: admin, body: { id, reason: 'Outside the sales region' } })).code).toBe(200);
    const mine = await listOf(await as('agent2b'), { state: 'rejected' });
    expect(mine.list.find((a: any) => a.id === id)).toMatchObject({ state: 'rejected', reason: 'Outside the sales region', reviewed_by: 'admin', institution_id: null });
    expect((await t.call('POST', '/branch/approve', { key: admin, body: { id } })).datas.error).toMatch(/already been reviewed/);
  });

  it('records decisions in the audit trail, without the password', async () => {
    const id = (await apply(await as('agent1'), { username: 'audited2' })).datas.id as number;
    await t.call('POST', '/branch/approve', { key: admin, body: { id, password: 'audited-pass-1' } });
    const [row] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, 'branches.approve'), eq(auditLog.recordId, id)));
    expect(row).toMatchObject({ recordType: 'branch_application', actorName: 'admin' });
    expect(row!.before).toMatchObject({ state: 'pending', institution_id: null });
    expect(row!.after).toMatchObject({ state: 'approved', username: 'audited2' });
    expect(JSON.stringify(row)).not.toMatch(/audited-pass|\$argon2/);
  });
});

describe('branch applications: exactly once under concurrency', () => {
  it('50 concurrent approvals of one application create one branch', async () => {
    const id = (await apply(await as('agent2'), { username: 'once3' })).datas.id as number;
    const results = await Promise.all(Array.from({ length: 50 }, () => t.call('POST', '/branch/approve', { key: admin, body: { id } })));
    const ok = results.filter((r) => r.code === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.code !== 200)) expect(r.datas.error).toBe('This application has already been reviewed');
    const created = await t.db
      .select()
      .from(institutions)
      .where(eq(sql`lower(${institutions.username})`, 'once3'));
    expect(created).toHaveLength(1);
    expect(created[0]!.id).toBe(ok[0]!.datas.institution_id);
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, 'branches.approve'), eq(auditLog.recordId, id)));
    expect(audits).toHaveLength(1);
  });

  it('concurrent applications for one account name: one is filed', async () => {
    // Signed in one after another: a sign-in is counted as an attempt until its password is checked, so five at
    // once from one address (with the file's earlier failed sign-ins) can meet the address throttle; the
    // concurrency under test is the applications'.
    const keys: string[] = [];
    for (const u of ['agent1', 'agent2', 'clinic3', 'agent1b', 'agent2b']) keys.push(await as(u));
    const results = await Promise.all(keys.flatMap((key) => [apply(key, { username: 'samename' }), apply(key, { username: 'SameName' })]));
    expect(results.filter((r) => r.code === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.code !== 200)) expect(r.datas.fields.username).toMatch(/pending application/);
  });
});

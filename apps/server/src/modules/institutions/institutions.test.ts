import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '@app/contract';
import { auditLog, institutions, sessions } from '../../db/schema';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';

let t: TestApp;
let admin: string;
const inst: Record<string, number> = {};
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
  for (const u of ['agent1', 'agent2', 'clinic3', 'overdue3', 'agent1b', 'agent2b', 'clinic3b']) inst[u] = await t.institutionId(u);
});
afterAll(async () => {
  await t?.close();
});

const as = async (username: string) => (await t.login(username, 'institution')).key;
const FORBIDDEN = formatMessage('forbidden', 'en');
let seq = 0;
/** A valid create body with a fresh account name. */
const body = (extra: Record<string, unknown> = {}) => ({
  username: `shop${++seq}x`,
  name: `Shop ${seq}`,
  contact_name: 'Contact',
  phone: '13800000000',
  region: ['330000', '330100', '330106'],
  address: 'Road 1',
  ...extra,
});
const add = (key: string, extra: Record<string, unknown> = {}, lang?: string) => t.call('POST', '/institution/add', { key, body: body(extra), lang });
const stored = async (id: number) => (await t.db.select().from(institutions).where(eq(institutions.id, id)))[0]!;
const names = (rows: { username: string }[]) => rows.map((r) => r.username).sort();

describe('regions', () => {
  it('answers the table to any session', async () => {
    const res = await t.call('GET', '/region/tree', { key: await as('clinic3') });
    expect(res.code).toBe(200);
    expect(res.datas.tree).toHaveLength(31);
    const zhejiang = res.datas.tree.find((p: any) => p[0] === '330000');
    expect(zhejiang.slice(0, 3)).toEqual(['330000', '浙江省', 'Zhejiang Sheng']);
    expect((await t.call('GET', '/region/tree')).code).toBe(999);
  });
});

describe('institutions: the tree list, scoped', () => {
  it('admins start at the grade-1 agents; an institution at itself', async () => {
    const top = await t.call('GET', '/institution/list', { key: admin });
    expect(names(top.datas.list)).toEqual(['agent1', 'agent1b']);
    expect(top.datas.list.find((r: any) => r.username === 'agent1')).toMatchObject({ grade: 1, parent_id: null, child_count: 1, region: ['310000', '310100', '310104'], status: 'enabled' });
    const mine = await t.call('GET', '/institution/list', { key: await as('agent2') });
    expect(names(mine.datas.list)).toEqual(['agent2']);
    expect(mine.datas.list[0]).toMatchObject({ child_count: 2, parent_name: 'East China Regional Agency' });
  });

  it('expands rows by level, and never outside the caller’s subtree', async () => {
    const one = await t.call('GET', '/institution/subtree', { key: admin, query: { ids: String(inst.agent1), depth: 1 } });
    expect(names(one.datas.list)).toEqual(['agent2']);
    const all = await t.call('GET', '/institution/subtree', { key: admin, query: { ids: `${inst.agent1},${inst.agent1b}`, depth: 3 } });
    expect(names(all.datas.list)).toEqual(['agent2', 'agent2b', 'clinic3', 'clinic3b', 'overdue3']);
    expect(all.datas.capped).toBe(false);
    const agent2 = await as('agent2');
    expect(names((await t.call('GET', '/institution/subtree', { key: agent2, query: { ids: String(inst.agent2), depth: 2 } })).datas.list)).toEqual(['clinic3', 'overdue3']);
    for (const ids of [String(inst.agent1), `${inst.agent2},${inst.agent1b}`, String(inst.clinic3b)]) {
      const res = await t.call('GET', '/institution/subtree', { key: agent2, query: { ids, depth: 1 } });
      expect(res.datas.error, ids).toBe(FORBIDDEN);
    }
  });

  it('filters by name, grade, region, status, expiring and overdue, inside the subtree only', async () => {
    const list = async (key: string, query: Record<string, unknown>) => names((await t.call('GET', '/institution/list', { key, query: { limit: 200, ...query } })).datas.list);
    expect(await list(admin, { name: 'CLINIC' })).toEqual(['clinic3', 'clinic3b']);
    expect(await list(admin, { name: 'regional' })).toEqual(['agent1', 'agent1b']);
    expect(await list(admin, { grade: 3 })).toEqual(['clinic3', 'clinic3b', 'overdue3']);
    expect(await list(admin, { region: '330000' })).toEqual(['agent2', 'clinic3', 'overdue3']);
    expect(await list(admin, { region: '330108' })).toEqual(['overdue3']);
    expect(await list(admin, { region: '440100' })).toEqual(['agent1b', 'agent2b', 'clinic3b']);
    expect(await list(admin, { overdue: 1 })).toEqual(['overdue3']);
    // Expiring: the term ends within the expiring_days window (30 days by default).
    await t.db
      .update(institutions)
      .set({ termExpiresAt: new Date(Date.now() + 10 * 86_400_000) })
      .where(eq(institutions.id, inst.clinic3b!));
    expect(await list(admin, { expiring: 1 })).toEqual(['clinic3b']);
    const agent1b = await as('agent1b');
    expect(await list(agent1b, { expiring: 'true' })).toEqual(['clinic3b']);
    expect(await list(await as('agent1'), { expiring: 1 })).toEqual([]);
    expect(await list(agent1b, { grade: 3 })).toEqual(['clinic3b']);
    expect(await list(await as('clinic3'), { name: 'a' })).toEqual(['clinic3']);
    expect(await list(admin, { status: 'disabled' })).toEqual([]);
    const refused = await t.call('GET', '/institution/list', { key: admin, query: { region: '33000' } });
    expect(refused.datas.fields).toHaveProperty('region');
  });

  it('shows the detail with subtree counts, only inside the subtree', async () => {
    const res = await t.call('GET', '/institution/detail', { key: await as('agent1'), query: { id: inst.agent2 } });
    expect(res.code).toBe(200);
    // Pending payouts of agent2's subtree (agent2, clinic3, overdue3), counted here from the table.
    const pending = await t.db.execute(
      sql`select count(*)::int as n from payouts p join institutions i on i.id = p.institution_id where p.status = 'pending' and i.path like (select path from institutions where id = ${inst.agent2}) || '%'`,
    );
    const open = Number((pending as unknown as { rows: { n: number }[] }).rows[0]!.n);
    expect(open).toBeGreaterThan(0);
    expect(res.datas).toMatchObject({ username: 'agent2', grade: 2, child_count: 2, counts: { children: 2, descendants: 2, open_payouts: open } });
    expect(res.datas.counts.devices).toBeGreaterThan(0);
    const root = await t.call('GET', '/institution/detail', { key: admin, query: { id: inst.agent1 } });
    expect(root.datas.counts).toMatchObject({ children: 1, descendants: 3 });
    expect(root.datas.counts.devices).toBeGreaterThan(res.datas.counts.devices);
    for (const [who, id] of [
      ['clinic3', inst.agent2],
      ['agent2', inst.agent1],
      ['agent1b', inst.clinic3],
      ['agent2', 2_000_000_000],
    ] as const) {
      expect((await t.call('GET', '/institution/detail', { key: await as(who), query: { id } })).datas.error, `${who} ${id}`).toBe(FORBIDDEN);
    }
    expect((await t.call('GET', '/institution/detail', { key: admin, query: { id: 2_000_000_000 } })).datas.error).toMatch(/does not exist/);
  });

  it('is closed to roles without the page', async () => {
    const auditor = await t.login('auditor');
    expect((await t.call('GET', '/institution/list', { key: auditor.key })).datas.error).toBe(FORBIDDEN);
    const lister = await t.adminWith('lister', ['InstitutionList']);
    expect((await t.call('GET', '/institution/list', { key: lister })).code).toBe(200);
    expect((await add(lister)).datas.error).toBe(FORBIDDEN);
  });
});

describe('institutions: create by the grade rule', () => {
  it('admins create grade-1 agents and children of any institution; the generated password signs in', async () => {
    const top = await add(admin, { term_expires_at: '2030-01-01T00:00:00Z' });
    expect(top.code).toBe(200);
    expect(top.datas.password).toMatch(/^[A-Za-z2-9]{12}$/);
    const row = await stored(top.datas.id);
    expect(row).toMatchObject({ grade: 1, parentId: null, path: `/${top.datas.id}/`, province: '330000', city: '330100', district: '330106', status: 1 });
    expect(row.termExpiresAt!.toISOString()).toBe('2030-01-01T00:00:00.000Z');
    expect((await t.login(row.username, 'institution', top.datas.password)).key).toBeTruthy();

    const under = await add(admin, { parent_id: inst.clinic3, password: 'chosen-pass-1' });
    expect(under.datas.password).toBeNull();
    const child = await stored(under.datas.id);
    const clinic3 = await stored(inst.clinic3!);
    // Grade 3 owns grade-3 branch stores; the term is the parent's when left out.
    expect(child).toMatchObject({ grade: 3, parentId: inst.clinic3, path: `${clinic3.path}${child.id}/` });
    expect(child.termExpiresAt?.getTime()).toBe(clinic3.termExpiresAt?.getTime());
    expect((await t.login(child.username, 'institution', 'chosen-pass-1')).key).toBeTruthy();

    const agent = await add(admin, { parent_id: inst.agent1, term_expires_at: null });
    expect(await stored(agent.datas.id)).toMatchObject({ grade: 2, termExpiresAt: null });
    expect((await add(admin, { parent_id: 2_000_000_000 })).datas.fields.parent_id).toMatch(/does not exist/);
  });

  it('an institution creates its own direct children, with its own term', async () => {
    const agent2 = await as('agent2');
    const res = await add(agent2, { status: 'disabled' });
    expect(res.code).toBe(200);
    const child = await stored(res.datas.id);
    const parent = await stored(inst.agent2!);
    expect(child).toMatchObject({ grade: 3, parentId: inst.agent2, status: 0, path: `${parent.path}${child.id}/` });
    expect(child.termExpiresAt?.getTime()).toBe(parent.termExpiresAt?.getTime());
    expect((await add(agent2, { parent_id: inst.agent2 })).code).toBe(200);
    // Not under another institution, its own child included, and no term of its choosing.
    expect((await add(agent2, { parent_id: inst.clinic3 })).datas.error).toBe(FORBIDDEN);
    expect((await add(agent2, { parent_id: inst.agent1b })).datas.error).toBe(FORBIDDEN);
    expect((await add(agent2, { term_expires_at: '2040-01-01T00:00:00Z' })).datas.fields.term_expires_at).toMatch(/Only the platform/);
    const grade1 = await add(await as('agent1'));
    expect((await stored(grade1.datas.id)).grade).toBe(2);
    const store = await add(await as('clinic3'));
    expect(await stored(store.datas.id)).toMatchObject({ grade: 3, parentId: inst.clinic3 });
  });

  it('refuses a taken account name (any case), a pending application’s name, a bad region, phone or password', async () => {
    const dup = await add(admin, { username: 'CLINIC3' });
    expect(dup.code).toBe(400);
    expect(dup.datas.fields.username).toBe('The account name "CLINIC3" is already taken');
    expect((await add(admin, { username: 'clinic3' }, 'zh')).datas.fields.username).toBe('账号“clinic3”已被使用');
    // The seeded pending application of agent2 asks for xiaoshan3.
    expect((await add(admin, { username: 'xiaoshan3' })).datas.fields.username).toMatch(/pending application/);
    expect((await add(admin, { username: 'ab' })).datas.fields.username).toMatch(/3-64/);
    expect((await add(admin, { username: 'bad name' })).datas.fields.username).toBeTruthy();
    expect((await add(admin, { region: ['330000', '330100'] })).datas.fields.region).toBe('Choose a valid province, city and district');
    expect((await add(admin, { region: ['330000', '330100', '330100'] })).datas.fields.region).toBeTruthy();
    expect((await add(admin, { region: ['330000', '330100', '330199'] }, 'es')).datas.fields.region).toBe('Elija una provincia, ciudad y distrito válidos');
    // 东莞 has no districts: province and city are the whole region.
    expect((await add(admin, { region: ['440000', '441900'] })).code).toBe(200);
    expect((await add(admin, { phone: '12ab' })).datas.fields.phone).toBeTruthy();
    expect((await add(admin, { name: '  ' })).datas.fields.name).toBeTruthy();
    expect((await add(admin, { password: 'short' })).datas.fields.password).toMatch(/at least 8/);
    expect((await add(admin, { password: 'Password123' })).datas.fields.password).toMatch(/most commonly used/);
    expect((await add(admin, { term_expires_at: 'tomorrow' })).datas.fields.term_expires_at).toBeTruthy();
    const count = (await t.db.select().from(institutions).where(eq(institutions.username, 'ab'))).length;
    expect(count).toBe(0);
  });

  it('records the creation in the audit trail without the password', async () => {
    const res = await add(admin, { password: 'audited-pass-1' });
    const [row] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, 'institutions.add'), eq(auditLog.recordId, res.datas.id)));
    expect(row).toMatchObject({ recordType: 'institution', actorKind: 'admin', before: null });
    expect(row!.after).toMatchObject({ id: res.datas.id, grade: 1, province: '330000' });
    expect(JSON.stringify(row)).not.toMatch(/audited-pass|password_hash|\$argon2/);
  });
});

describe('institutions: edit, status, password', () => {
  const editBody = (id: number, extra: Record<string, unknown> = {}) => ({
    id,
    name: 'Renamed',
    contact_name: 'New Contact',
    phone: '13900000000',
    region: ['440000', '440300', '440305'],
    address: 'Keyuan Road',
    ...extra,
  });

  it('institutions edit themselves and their subtree (not the term); admins edit the term', async () => {
    const agent2 = await as('agent2');
    const child = (await add(admin, { parent_id: inst.agent2 })).datas.id as number;
    expect((await t.call('POST', '/institution/edit', { key: agent2, body: editBody(child) })).code).toBe(200);
    expect(await stored(child)).toMatchObject({ name: 'Renamed', contactName: 'New Contact', province: '440000', city: '440300', district: '440305', address: 'Keyuan Road' });
    expect((await t.call('POST', '/institution/edit', { key: agent2, body: editBody(inst.agent2!, { name: 'Hangzhou Sub-agency' }) })).code).toBe(200);
    expect((await t.call('POST', '/institution/edit', { key: agent2, body: editBody(inst.agent1!) })).datas.error).toBe(FORBIDDEN);
    expect((await t.call('POST', '/institution/edit', { key: agent2, body: editBody(inst.clinic3b!) })).datas.error).toBe(FORBIDDEN);
    const term = await t.call('POST', '/institution/edit', { key: agent2, body: editBody(child, { term_expires_at: '2040-01-01T00:00:00Z' }) });
    expect(term.datas.fields.term_expires_at).toBeTruthy();
    expect((await t.call('POST', '/institution/edit', { key: admin, body: editBody(child, { term_expires_at: '2040-01-01T00:00:00Z' }) })).code).toBe(200);
    expect((await stored(child)).termExpiresAt!.toISOString()).toBe('2040-01-01T00:00:00.000Z');
    // Left out, the term stays.
    expect((await t.call('POST', '/institution/edit', { key: admin, body: editBody(child) })).code).toBe(200);
    expect((await stored(child)).termExpiresAt!.toISOString()).toBe('2040-01-01T00:00:00.000Z');
    expect((await t.call('POST', '/institution/edit', { key: admin, body: editBody(child, { region: ['440000', '440300', '330106'] }) })).datas.fields.region).toBeTruthy();
  });

  it('disabling ends the institution’s sessions at once and refuses its sign-in with a message; enabling lets it back', async () => {
    const child = await add(admin, { parent_id: inst.agent2, password: 'status-pass-1' });
    const id = child.datas.id as number;
    const username = (await stored(id)).username;
    const key = (await t.login(username, 'institution', 'status-pass-1')).key;
    expect((await t.call('GET', '/institution/list', { key })).code).toBe(200);

    const agent2 = await as('agent2');
    expect((await t.call('POST', '/institution/status', { key: agent2, body: { id, status: 'disabled' } })).code).toBe(200);
    expect(
      await t.db
        .select()
        .from(sessions)
        .where(and(eq(sessions.subjectKind, 'institution'), eq(sessions.subjectId, id))),
    ).toEqual([]);
    expect((await t.call('GET', '/institution/list', { key })).code).toBe(999);
    const refused = await t.call('POST', '/login/institution_login', { body: { username, password: 'status-pass-1' } });
    expect(refused.datas.error).toBe('This institution has been disabled and cannot sign in; contact its parent institution or the platform');
    const zh = await t.call('POST', '/login/institution_login', { body: { username, password: 'status-pass-1' }, lang: 'zh' });
    expect(zh.datas.error).toBe('该机构已被停用，无法登录，请联系上级机构或平台');
    // A wrong password still says only that.
    expect((await t.call('POST', '/login/institution_login', { body: { username, password: 'wrong-pass-1' } })).datas.error).toMatch(/Incorrect/);

    expect((await t.call('POST', '/institution/status', { key: agent2, body: { id, status: 'enabled' } })).code).toBe(200);
    expect((await t.login(username, 'institution', 'status-pass-1')).key).toBeTruthy();
  });

  it('nobody changes its own status or password, nor those outside its subtree', async () => {
    const agent2 = await as('agent2');
    for (const id of [inst.agent2, inst.agent1, inst.clinic3b]) {
      expect((await t.call('POST', '/institution/status', { key: agent2, body: { id, status: 'disabled' } })).datas.error, `status ${id}`).toBe(FORBIDDEN);
      expect((await t.call('POST', '/institution/reset_password', { key: agent2, body: { id } })).datas.error, `password ${id}`).toBe(FORBIDDEN);
    }
    expect((await stored(inst.agent2!)).status).toBe(1);
    expect((await t.call('POST', '/institution/status', { key: agent2, body: { id: inst.clinic3, status: 'off' } })).datas.fields.status).toBeTruthy();
  });

  it('a password reset ends the sessions; a generated password is answered once and signs in', async () => {
    const id = (await add(admin, { parent_id: inst.agent1b, password: 'before-pass-1' })).datas.id as number;
    const username = (await stored(id)).username;
    const key = (await t.login(username, 'institution', 'before-pass-1')).key;
    const res = await t.call('POST', '/institution/reset_password', { key: await as('agent1b'), body: { id } });
    expect(res.code).toBe(200);
    expect(res.datas.password).toMatch(/^[A-Za-z2-9]{12}$/);
    expect((await t.call('GET', '/institution/list', { key })).code).toBe(999);
    expect((await t.call('POST', '/login/institution_login', { body: { username, password: 'before-pass-1' } })).code).toBe(400);
    expect((await t.login(username, 'institution', res.datas.password)).key).toBeTruthy();

    const set = await t.call('POST', '/institution/reset_password', { key: admin, body: { id, password: 'chosen-pass-2' } });
    expect(set.datas).toEqual({ password: null });
    expect((await t.login(username, 'institution', 'chosen-pass-2')).key).toBeTruthy();
    expect((await t.call('POST', '/institution/reset_password', { key: admin, body: { id, password: 'abc' } })).datas.fields.password).toMatch(/at least/);
    expect((await t.call('POST', '/institution/reset_password', { key: admin, body: { id, password: 'football1' } })).datas.fields.password).toMatch(/most commonly used/);
    // Neither refusal changed the password.
    expect((await t.login(username, 'institution', 'chosen-pass-2')).key).toBeTruthy();
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, 'institutions.resetPassword'), eq(auditLog.recordId, id)));
    expect(JSON.stringify(audit)).not.toMatch(/chosen-pass|\$argon2/);
  });
});

describe('institutions: moves (admins only)', () => {
  /** A small tree of its own: g1 > g2 > g3 > g3b, and a second grade-1 agent with a grade-2 child. */
  async function tree() {
    const g1 = (await add(admin)).datas.id as number;
    const g2 = (await add(admin, { parent_id: g1 })).datas.id as number;
    const g3 = (await add(admin, { parent_id: g2 })).datas.id as number;
    const g3b = (await add(admin, { parent_id: g3 })).datas.id as number;
    const other1 = (await add(admin)).datas.id as number;
    const other2 = (await add(admin, { parent_id: other1 })).datas.id as number;
    return { g1, g2, g3, g3b, other1, other2 };
  }
  const move = (id: number, parent_id: number | null, key = admin) => t.call('POST', '/institution/move', { key, body: { id, parent_id } });

  it('moves an institution with its whole subtree under a parent the grade rule allows', async () => {
    const n = await tree();
    expect((await move(n.g2, n.other1)).code).toBe(200);
    const o1 = await stored(n.other1);
    expect(await stored(n.g2)).toMatchObject({ parentId: n.other1, path: `${o1.path}${n.g2}/` });
    expect((await stored(n.g3)).path).toBe(`${o1.path}${n.g2}/${n.g3}/`);
    expect((await stored(n.g3b)).path).toBe(`${o1.path}${n.g2}/${n.g3}/${n.g3b}/`);
    // A grade-3 store under another grade-3 clinic, or under a grade 2.
    expect((await move(n.g3b, n.other2)).code).toBe(200);
    expect((await stored(n.g3b)).path).toBe(`${o1.path}${n.other2}/${n.g3b}/`);
    expect((await move(n.g3b, inst.clinic3!)).code).toBe(200);
    // The old tree no longer sees it; the new one does.
    const agent2 = await as('agent2');
    expect((await t.call('GET', '/institution/detail', { key: agent2, query: { id: n.g3b } })).code).toBe(200);
    expect((await t.call('GET', '/institution/detail', { key: await as('agent1b'), query: { id: n.g3b } })).datas.error).toBe(FORBIDDEN);
    // Grade 1 stays at the top: moving it to no parent changes nothing.
    expect((await move(n.g1, null)).code).toBe(200);
  });

  it('refuses moves that break the grade rule, go under the institution itself or its descendant, or come from an institution', async () => {
    const n = await tree();
    const gradeRule = /grade rule/;
    expect((await move(n.g2, n.other2)).datas.fields.parent_id).toMatch(gradeRule);
    expect((await move(n.g2, null)).datas.fields.parent_id).toMatch(gradeRule);
    expect((await move(n.g1, n.other1)).datas.fields.parent_id).toMatch(gradeRule);
    expect((await move(n.g3, n.g1)).datas.fields.parent_id).toMatch(gradeRule);
    expect((await move(n.g3, n.g3b)).datas.fields.parent_id).toMatch(/under itself or one of its own descendants/);
    expect((await move(n.g3, n.g3)).datas.fields.parent_id).toMatch(/under itself/);
    expect((await move(n.g3, 2_000_000_000)).datas.fields.parent_id).toMatch(/does not exist/);
    expect((await move(2_000_000_000, null)).datas.error).toMatch(/does not exist/);
    expect((await move(n.g3b, n.other2, await as('agent1'))).datas.error).toBe(FORBIDDEN);
    expect((await stored(n.g3b)).parentId).toBe(n.g3);
  });

  it('records the move with the path before and after', async () => {
    const n = await tree();
    await move(n.g3, n.other2);
    const [row] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, 'institutions.move'), eq(auditLog.recordId, n.g3)));
    expect((row!.before as any).parent_id).toBe(n.g2);
    expect((row!.after as any).parent_id).toBe(n.other2);
  });

  it('two crossing moves at once cannot make a cycle', async () => {
    // Two grade-3 stores side by side; each moved under the other at the same time: one must lose.
    const parentId = (await add(admin, { parent_id: inst.agent1 })).datas.id as number;
    const a = (await add(admin, { parent_id: parentId })).datas.id as number;
    const b = (await add(admin, { parent_id: parentId })).datas.id as number;
    const [ra, rb] = await Promise.all([move(a, b), move(b, a)]);
    expect([ra.code, rb.code].sort()).toEqual([200, 400]);
    const [sa, sb] = [await stored(a), await stored(b)];
    expect(sa.parentId === b && sb.parentId === a).toBe(false);
    expect(sb.path.startsWith(sa.path) || sa.path.startsWith(sb.path)).toBe(true);
  });
});

it('the demo password still signs in a seeded institution', async () => {
  expect((await t.login('agent1b', 'institution', DEMO_PASSWORD)).key).toBeTruthy();
});

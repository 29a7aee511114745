import { and, count, eq, max } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, inspections } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let admin: string;
let clinic3: number;
let clinic3b: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
  const id = t.institutionId;
  clinic3 = await id('clinic3');
  clinic3b = await id('clinic3b');
});
afterAll(async () => {
  await t?.close();
});

/** A valid Chinese ID card number (the standard example) and one with a wrong check digit. */
const GOOD_ID = '11010519491231002X';
const BAD_ID = '110105194912310021';
const base = () => ({ name: 'Test Person', gender: 'female', birth_date: '1990-05-17', phone: '13800138001', id_number: GOOD_ID, height_cm: 165.5, weight_kg: 55.2, institution_id: clinic3 });
const add = (body: Record<string, unknown>, lang?: string) => t.call('POST', '/user/add', { key: admin, body, lang });

describe('users: happy path', () => {
  it('lists about 40 seeded users with masked numbers', async () => {
    const res = await t.call('GET', '/user/list', { key: admin, query: { limit: 100 } });
    expect(res.code).toBe(200);
    expect(res.datas.total).toBe(40);
    // The demo inspections (modules/inspections/seed.ts) count on their people.
    const seen = new Map(
      (
        await t.db
          .select({ id: inspections.endUserId, n: count(), last: max(inspections.measuredAt) })
          .from(inspections)
          .groupBy(inspections.endUserId)
      ).map((r) => [r.id, r]),
    );
    const withId = res.datas.list.filter((u: any) => u.id_number);
    expect(withId.length).toBeGreaterThan(25);
    for (const u of res.datas.list) {
      if (u.phone) expect(u.phone).toContain('****');
      if (u.id_number) expect(u.id_number).toContain('****');
      expect(u.inspection_count).toBe(seen.get(u.id)?.n ?? 0);
      expect(u.last_inspection_at).toBe(seen.get(u.id)?.last?.toISOString() ?? null);
    }
  });

  it('adds, filters, sorts, pages, reads in full, edits and deletes', async () => {
    const a = await add({ ...base(), name: 'Vera Ash' });
    expect(a.code).toBe(200);
    const b = await add({ ...base(), name: 'Vera Birch', gender: 'male', birth_date: '1970-01-02', phone: '+4915112345678', id_number: 'e 1234 5678', height_cm: '180.26', weight_kg: null });
    expect(b.code).toBe(200);
    const c = await add({ name: 'Vera Cedar', gender: 'male', institution_id: clinic3b });
    expect(c.code).toBe(200);

    // Masks: 138****8001 and 110105********002X.
    const list = await t.call('GET', '/user/list', { key: admin, query: { keyword: 'vera', institution_id: clinic3, sort: 'birth_date', order: 'ascend' } });
    expect(list.datas.list.map((u: any) => u.name)).toEqual(['Vera Birch', 'Vera Ash']);
    expect(list.datas.list[1]).toMatchObject({
      phone: '138****8001',
      id_number: '110105********002X',
      height_cm: 165.5,
      weight_kg: 55.2,
      birth_date: '1990-05-17',
      institution_name: 'West Lake Wellness Clinic',
    });
    expect(list.datas.list[0]).toMatchObject({ phone: '+49****5678', id_number: 'E1*****78', height_cm: 180.3, weight_kg: null });

    const males = await t.call('GET', '/user/list', { key: admin, query: { keyword: 'Vera', gender: 'male', sort: 'name', order: 'ascend', limit: 1, page: 2 } });
    expect(males.datas.total).toBe(2);
    expect(males.datas.list.map((u: any) => u.name)).toEqual(['Vera Cedar']);
    // Keyword by the end of the phone number.
    const bySuffix = await t.call('GET', '/user/list', { key: admin, query: { keyword: '12345678' } });
    expect(bySuffix.datas.list.map((u: any) => u.id)).toEqual([b.datas.id]);

    const detail = await t.call('GET', '/user/detail', { key: admin, query: { id: a.datas.id } });
    expect(detail.datas).toMatchObject({ name: 'Vera Ash', phone: '13800138001', id_number: GOOD_ID, gender: 'female', inspection_count: 0, last_inspection_at: null });
    const passport = await t.call('GET', '/user/detail', { key: admin, query: { id: b.datas.id } });
    expect(passport.datas.id_number).toBe('E12345678');
    const empty = await t.call('GET', '/user/detail', { key: admin, query: { id: c.datas.id } });
    expect(empty.datas).toMatchObject({ phone: null, id_number: null, birth_date: null, height_cm: null, weight_kg: null });

    // Edit without phone and id_number keeps them; null clears them.
    const keep = await t.call('POST', '/user/edit', {
      key: admin,
      body: { id: a.datas.id, name: 'Vera Ash-Li', gender: 'female', birth_date: '1991-06-01', height_cm: 166, weight_kg: 56, institution_id: clinic3b },
    });
    expect(keep.code).toBe(200);
    const kept = await t.call('GET', '/user/detail', { key: admin, query: { id: a.datas.id } });
    expect(kept.datas).toMatchObject({ name: 'Vera Ash-Li', phone: '13800138001', id_number: GOOD_ID, birth_date: '1991-06-01', height_cm: 166, institution_id: clinic3b });
    await t.call('POST', '/user/edit', { key: admin, body: { id: a.datas.id, name: 'Vera Ash-Li', gender: 'female', institution_id: clinic3b, phone: null, id_number: '' } });
    const cleared = await t.call('GET', '/user/detail', { key: admin, query: { id: a.datas.id } });
    expect(cleared.datas).toMatchObject({ phone: null, id_number: null, birth_date: null, height_cm: null });

    expect((await t.call('POST', '/user/del', { key: admin, body: { id: c.datas.id } })).code).toBe(200);
    expect((await t.call('GET', '/user/detail', { key: admin, query: { id: c.datas.id } })).datas.error).toMatch(/does not exist/);
    expect((await t.call('GET', '/user/list', { key: admin, query: { keyword: 'Vera' } })).datas.total).toBe(2);
  });
});

describe('users: validation', () => {
  it('refuses a birth date in the future, impossible dates and other formats', async () => {
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const res = await add({ ...base(), id_number: null, birth_date: future });
    expect(res.code).toBe(400);
    expect(res.datas.fields.birth_date).toMatch(/cannot be in the future/);
    for (const d of ['2023-02-29', '17/05/1990', '1899-12-31', 19900517]) {
      expect((await add({ ...base(), id_number: null, birth_date: d })).datas.fields, String(d)).toHaveProperty('birth_date');
    }
    const today = new Date().toISOString().slice(0, 10);
    expect((await add({ ...base(), name: 'Newborn', id_number: null, birth_date: today })).code).toBe(200);
  });

  it('checks the checksum of Chinese ID numbers only, and keeps ID numbers unique', async () => {
    const bad = await add({ ...base(), id_number: BAD_ID });
    expect(bad.code).toBe(400);
    expect(bad.datas.fields.id_number).toMatch(/wrong check digit/);
    expect((await add({ ...base(), id_number: BAD_ID }, 'es')).datas.fields.id_number).toMatch(/dígito de control/);
    expect((await add({ ...base(), id_number: 'AB#123' })).datas.fields.id_number).toMatch(/letters, digits and hyphens/);
    expect((await add({ ...base(), id_number: 'X'.repeat(33) })).datas.fields).toHaveProperty('id_number');
    // Passports and other documents are taken as they are (17 digits + a letter other than X too).
    expect((await add({ ...base(), name: 'Passport', id_number: 'G12345678' })).code).toBe(200);
    expect((await add({ ...base(), name: 'Other doc', id_number: '11010519491231002Y' })).code).toBe(200);
    // Unique among live users: lower-case x is the same number.
    const first = await add({ ...base(), name: 'Owner' });
    expect(first.code, first.raw).toBe(200);
    const dup = await add({ ...base(), name: 'Copycat', id_number: GOOD_ID.toLowerCase() });
    expect(dup.datas.fields.id_number).toMatch(/Another user already has/);
    expect((await t.call('POST', '/user/del', { key: admin, body: { id: first.datas.id } })).code).toBe(200);
    expect((await add({ ...base(), name: 'Second owner' })).code).toBe(200);
  });

  it('validates phone, height, weight, gender and institution', async () => {
    expect((await add({ ...base(), id_number: null, phone: '138-abc' })).datas.fields.phone).toMatch(/5 to 20 digits/);
    expect((await add({ ...base(), id_number: null, height_cm: 300 })).datas.fields).toHaveProperty('height_cm');
    expect((await add({ ...base(), id_number: null, weight_kg: 0 })).datas.fields).toHaveProperty('weight_kg');
    expect((await add({ ...base(), id_number: null, weight_kg: 'heavy' })).datas.fields).toHaveProperty('weight_kg');
    expect((await add({ ...base(), id_number: null, gender: 'x' })).datas.fields).toHaveProperty('gender');
    expect((await add({ ...base(), id_number: null, institution_id: 999999 })).datas.fields.institution_id).toMatch(/does not exist/);
    expect((await add({ ...base(), id_number: null, institution_id: 99999999999 })).datas.fields).toHaveProperty('institution_id');
    const garbage = await t.call('POST', '/user/add', { key: admin, body: { name: { $ne: 1 }, gender: ['male'], birth_date: { a: 1 } } });
    expect(garbage.code).toBe(400);
    expect(garbage.raw).not.toMatch(/at .*\.ts|node_modules/);
  });
});

describe('users: access', () => {
  it('refuses grade-3 institutions', async () => {
    const clinic = await t.login('clinic3', 'institution');
    expect((await t.call('GET', '/user/list', { key: clinic.key })).datas.error).toMatch(/permission/);
    expect((await t.call('GET', '/user/detail', { key: clinic.key, query: { id: 1 } })).code).toBe(400);
    expect((await t.call('POST', '/user/add', { key: clinic.key, body: base() })).code).toBe(400);
  });

  it('a role with the page but without user:detail lists masked rows and never gets full numbers', async () => {
    const key = await t.adminWith('usersreader', ['UserManage']);
    const list = await t.call('GET', '/user/list', { key, query: { limit: 5 } });
    expect(list.code).toBe(200);
    expect(list.datas.list.length).toBe(5);
    const id = list.datas.list[0].id;
    const detail = await t.call('GET', '/user/detail', { key, query: { id } });
    expect(detail.code).toBe(400);
    expect(detail.datas.error).toMatch(/permission/);
    expect((await t.call('POST', '/user/add', { key, body: base() })).code).toBe(400);
    expect((await t.call('POST', '/user/del', { key, body: { id } })).code).toBe(400);

    // Searching by phone cannot reveal more than the mask shows: up to 4 final digits, or a whole number.
    const u = (await add({ ...base(), name: 'Probe Target', phone: '13911112222', id_number: null })).datas.id;
    const find = async (k: string, keyword: string) => (await t.call('GET', '/user/list', { key: k, query: { keyword } })).datas.list.map((r: any) => r.id);
    expect(await find(key, '2222')).toContain(u);
    expect(await find(key, '12222')).not.toContain(u);
    expect(await find(key, '13911112222')).toContain(u);
    expect(await find(admin, '12222')).toContain(u);
  });

  it('a role with user:detail sees full numbers, and edits keep numbers it leaves out', async () => {
    const key = await t.adminWith('userseditor', ['UserManage', 'user:detail', 'user:edit']);
    const u = (await add({ ...base(), name: 'Edit Target', phone: '13922223333', id_number: null })).datas.id;
    expect((await t.call('GET', '/user/detail', { key, query: { id: u } })).datas.phone).toBe('13922223333');
    const reader = await t.adminWith('userseditor2', ['UserManage', 'user:edit']);
    expect((await t.call('POST', '/user/edit', { key: reader, body: { id: u, name: 'Edited', gender: 'male', institution_id: clinic3 } })).code).toBe(200);
    expect((await t.call('GET', '/user/detail', { key, query: { id: u } })).datas).toMatchObject({ name: 'Edited', phone: '13922223333' });
  });
});

describe('users: audit trail', () => {
  const rows = (endpoint: string, id: number) =>
    t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, endpoint), eq(auditLog.recordId, id)));

  it('records an edit with the full stored values before and after, even those the editor left out, and no secrets', async () => {
    const u = (await add({ ...base(), name: 'Audit Person', phone: '13955556666', id_number: 'P7654321' })).datas.id as number;
    const [added] = await rows('users.add', u);
    expect(added).toMatchObject({ recordType: 'user', path: '/user/add', actorKind: 'admin', before: null });
    expect(added!.after).toMatchObject({ id: u, name: 'Audit Person', phone: '13955556666', id_number: 'P7654321', deleted_at: null });

    // An editor without user:detail leaves the numbers out: the trail still shows them in full, unchanged.
    const editor = await t.adminWith('usersauditor', ['UserManage', 'user:edit']);
    const edit = await t.call('POST', '/user/edit', { key: editor, body: { id: u, name: 'Audit Person II', gender: 'male', height_cm: 170.4, institution_id: clinic3b } });
    expect(edit.code).toBe(200);
    const [edited] = await rows('users.edit', u);
    expect(edited).toMatchObject({ recordType: 'user', actorName: 'usersauditor' });
    expect(edited!.before).toMatchObject({ id: u, name: 'Audit Person', gender: 'female', phone: '13955556666', id_number: 'P7654321', height_cm: 165.5, institution_id: clinic3 });
    expect(edited!.after).toMatchObject({ id: u, name: 'Audit Person II', gender: 'male', phone: '13955556666', id_number: 'P7654321', height_cm: 170.4, institution_id: clinic3b });
    expect(JSON.stringify(edited)).not.toMatch(/password|secret|hash|\*\*\*\*/i);

    expect((await t.call('POST', '/user/del', { key: admin, body: { id: u } })).code).toBe(200);
    const [deleted] = await rows('users.remove', u);
    expect((deleted!.after as { deleted_at: string | null }).deleted_at).toBeTruthy();
  });
});

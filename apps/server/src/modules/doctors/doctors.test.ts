import { and, count, eq } from 'drizzle-orm';
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

const base = () => ({ name: 'Dr. Test', gender: 'female', phone: '13800138001', title: 'Physician', institution_id: clinic3 });
const add = (body: Record<string, unknown>, lang?: string) => t.call('POST', '/doctor/add', { key: admin, body, lang });

describe('doctors: happy path', () => {
  it('lists the seeded doctors with masked phones', async () => {
    const res = await t.call('GET', '/doctor/list', { key: admin, query: { limit: 50 } });
    expect(res.code).toBe(200);
    expect(res.datas.total).toBe(12);
    // The demo inspections (modules/inspections/seed.ts) count on their doctors.
    const performed = new Map((await t.db.select({ id: inspections.doctorId, n: count() }).from(inspections).groupBy(inspections.doctorId)).map((r) => [r.id, r.n]));
    for (const d of res.datas.list) {
      expect(d.phone).toContain('****');
      expect(d.inspection_count).toBe(performed.get(d.id) ?? 0);
      expect(d.institution_name).toBeTruthy();
    }
  });

  it('adds, filters, sorts, pages, reads in full, edits and deletes', async () => {
    const a = await add({ ...base(), name: 'Quinn Alpha', phone: '+86 138-0013-8001' });
    expect(a.code).toBe(200);
    const b = await add({ ...base(), name: 'Quinn Beta', phone: '13900139002', status: 'disabled', gender: 'male' });
    const c = await add({ ...base(), name: 'Quinn Gamma', phone: '13700137003', institution_id: clinic3b, title: '' });
    expect(c.code).toBe(200);

    const list = await t.call('GET', '/doctor/list', { key: admin, query: { keyword: 'quinn', institution_id: clinic3, sort: 'name', order: 'descend' } });
    expect(list.datas.list.map((d: any) => d.name)).toEqual(['Quinn Beta', 'Quinn Alpha']);
    const alpha = list.datas.list[1];
    expect(alpha.phone).toBe('+86****8001');
    expect(list.datas.list[0].phone).toBe('139****9002');
    expect(alpha).toMatchObject({ gender: 'female', title: 'Physician', status: 'enabled', institution_id: clinic3, institution_name: 'West Lake Wellness Clinic' });

    const enabled = await t.call('GET', '/doctor/list', { key: admin, query: { keyword: 'Quinn', status: 'enabled', sort: 'name', order: 'ascend', limit: 1, page: 2 } });
    expect(enabled.datas.total).toBe(2);
    expect(enabled.datas.list.map((d: any) => d.name)).toEqual(['Quinn Gamma']);
    // Keyword by phone digits.
    const byPhone = await t.call('GET', '/doctor/list', { key: admin, query: { keyword: '0013700' } });
    expect(byPhone.datas.list.map((d: any) => d.id)).toEqual([c.datas.id]);

    const detail = await t.call('GET', '/doctor/detail', { key: admin, query: { id: a.datas.id } });
    expect(detail.datas).toMatchObject({ name: 'Quinn Alpha', phone: '+8613800138001', institution_id: clinic3, status: 'enabled', inspection_count: 0 });

    const edit = await t.call('POST', '/doctor/edit', {
      key: admin,
      body: { id: a.datas.id, name: 'Quinn Alpha II', gender: 'other', phone: '021-5555 0000', institution_id: clinic3b, status: 'disabled', title: 'Head' },
    });
    expect(edit.code).toBe(200);
    const edited = await t.call('GET', '/doctor/detail', { key: admin, query: { id: a.datas.id } });
    expect(edited.datas).toMatchObject({
      name: 'Quinn Alpha II',
      gender: 'other',
      phone: '02155550000',
      institution_id: clinic3b,
      institution_name: 'Tianhe Recovery Clinic',
      status: 'disabled',
      title: 'Head',
    });

    expect((await t.call('POST', '/doctor/del', { key: admin, body: { id: b.datas.id } })).code).toBe(200);
    expect((await t.call('GET', '/doctor/detail', { key: admin, query: { id: b.datas.id } })).code).toBe(400);
    expect((await t.call('POST', '/doctor/del', { key: admin, body: { id: b.datas.id } })).code).toBe(400);
    expect((await t.call('GET', '/doctor/list', { key: admin, query: { keyword: 'Quinn' } })).datas.total).toBe(2);
  });
});

describe('doctors: validation', () => {
  it('validates the phone: 5-20 digits with an optional leading +', async () => {
    for (const phone of ['12ab', '1234', '+', '123456789012345678901', '++12345', '12+345', '']) {
      const res = await add({ ...base(), phone });
      expect(res.code, phone).toBe(400);
      expect(res.datas.fields.phone, phone).toBeTruthy();
    }
    expect((await add({ ...base(), phone: '12ab' })).datas.fields.phone).toMatch(/5 to 20 digits/);
    expect((await add({ ...base(), phone: '12ab' }, 'ja')).datas.fields.phone).toMatch(/5～20 桁/);
    expect((await add({ ...base(), phone: '12345' })).code).toBe(200);
    expect((await add({ ...base(), phone: '+12345678901234567890' })).code).toBe(200);
  });

  it('needs an existing institution, a known gender and status, and a name', async () => {
    const missing = await add({ ...base(), institution_id: 999999 });
    expect(missing.code).toBe(400);
    expect(missing.datas.fields.institution_id).toMatch(/does not exist/);
    expect((await add({ ...base(), gender: 'unknown' })).datas.fields).toHaveProperty('gender');
    expect((await add({ ...base(), status: 'retired' })).datas.fields).toHaveProperty('status');
    expect((await add({ ...base(), name: '   ' })).datas.fields).toHaveProperty('name');
    expect((await add({ ...base(), institution_id: 'x' })).datas.fields).toHaveProperty('institution_id');
    const editMissing = await t.call('POST', '/doctor/edit', { key: admin, body: { ...base(), id: 999999 } });
    expect(editMissing.datas.error).toMatch(/does not exist/);
  });
});

describe('doctors: access', () => {
  it('refuses institutions and roles without the page', async () => {
    const clinic = await t.login('clinic3', 'institution');
    expect((await t.call('GET', '/doctor/list', { key: clinic.key })).datas.error).toMatch(/permission/);
    expect((await t.call('GET', '/doctor/detail', { key: clinic.key, query: { id: 1 } })).code).toBe(400);
    expect((await t.call('POST', '/doctor/add', { key: clinic.key, body: base() })).code).toBe(400);
    const auditor = await t.login('auditor');
    expect((await t.call('GET', '/doctor/list', { key: auditor.key })).code).toBe(400);
    expect((await t.call('POST', '/doctor/del', { key: auditor.key, body: { id: 1 } })).code).toBe(400);
  });
});

describe('doctors: audit trail', () => {
  const rows = (endpoint: string, id: number) =>
    t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, endpoint), eq(auditLog.recordId, id)));

  it('records add, edit and delete with the stored record before and after (phone in full), no secrets', async () => {
    const a = await add({ ...base(), name: 'Audit Doc', phone: '13812345678' });
    expect(a.code).toBe(200);
    const id = a.datas.id as number;
    const [added] = await rows('doctors.add', id);
    expect(added).toMatchObject({ recordType: 'doctor', path: '/doctor/add', actorKind: 'admin', actorName: 'admin', before: null });
    expect(added!.after).toMatchObject({ id, name: 'Audit Doc', phone: '13812345678', institution_id: clinic3, deleted_at: null });

    const edit = await t.call('POST', '/doctor/edit', { key: admin, body: { ...base(), id, name: 'Audit Doc II', phone: '13887654321', status: 'disabled' } });
    expect(edit.code).toBe(200);
    const [edited] = await rows('doctors.edit', id);
    expect(edited!.before).toMatchObject({ id, name: 'Audit Doc', phone: '13812345678', status: 'enabled' });
    expect(edited!.after).toMatchObject({ id, name: 'Audit Doc II', phone: '13887654321', status: 'disabled' });
    expect(JSON.stringify(edited)).not.toMatch(/password|secret|hash|\*\*\*\*/i);

    expect((await t.call('POST', '/doctor/del', { key: admin, body: { id } })).code).toBe(200);
    const [deleted] = await rows('doctors.remove', id);
    expect(deleted!.before).toMatchObject({ id, deleted_at: null });
    expect((deleted!.after as { deleted_at: string | null }).deleted_at).toBeTruthy();
  });

  it('a refused write leaves no audit row', async () => {
    const res = await t.call('POST', '/doctor/edit', { key: admin, body: { ...base(), id: 999998 } });
    expect(res.code).toBe(400);
    expect(await rows('doctors.edit', 999998)).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let admin: string;

const name = (en: string, zh = `${en}（中）`) => ({ zh, en, es: '', ja: '' });

const add = (body: Record<string, unknown>, key = admin) => t.call('POST', '/system/add', { key, body });

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
});
afterAll(async () => {
  await t?.close();
});

describe('system categories', () => {
  it('seeds about ten body systems with subsystems and meridian weights', async () => {
    const tree = await t.call('GET', '/system/tree', { key: admin });
    expect(tree.code).toBe(200);
    expect(tree.datas.length).toBeGreaterThanOrEqual(10);
    for (const s of tree.datas) {
      expect(s.children.length).toBeGreaterThanOrEqual(2);
      expect(Object.keys(s.weights).length).toBeGreaterThan(0);
      expect(s.name).toEqual({ zh: expect.any(String), en: expect.any(String), es: expect.any(String), ja: expect.any(String) });
    }
    expect(tree.datas[0].name.en).toBe('Respiratory system');
  });

  it('adds, lists with filters, sort and paging, reads, edits and deletes', async () => {
    const top = await add({ name: name('Sensory organs', '感官系统'), weights: { GB: 2, TE: 1.5 }, sort: 500 });
    expect(top.code, top.raw).toBe(200);
    const eye = await add({ parent_id: top.datas.id, name: name('Eyes', '眼'), weights: { LR: 3 }, sort: 2 });
    const ear = await add({ parent_id: top.datas.id, name: { zh: '耳', en: 'Ears', es: 'Oídos', ja: '耳' }, weights: { KI: 2, TE: 1 }, sort: 1 });
    expect(eye.code).toBe(200);
    expect(ear.code).toBe(200);

    const children = await t.call('GET', '/system/list', { key: admin, query: { parent_id: top.datas.id } });
    expect(children.datas.total).toBe(2);
    expect(children.datas.list.map((r: any) => r.name.en)).toEqual(['Ears', 'Eyes']); // editor's order by default
    expect(children.datas.list[0]).toMatchObject({ level: 2, parent_id: top.datas.id, parent_name: { en: 'Sensory organs' }, weights: { KI: 2, TE: 1 } });

    const byId = await t.call('GET', '/system/list', { key: admin, query: { parent_id: top.datas.id, sort: 'id', order: 'ascend', page: 2, limit: 1 } });
    expect(byId.datas).toMatchObject({ total: 2, capped: false });
    expect(byId.datas.list.map((r: any) => r.name.en)).toEqual(['Ears']);

    // keyword matches any language
    const kwEs = await t.call('GET', '/system/list', { key: admin, query: { keyword: 'oídos' } });
    expect(kwEs.datas.list.map((r: any) => r.id)).toEqual([ear.datas.id]);
    const kwZh = await t.call('GET', '/system/list', { key: admin, query: { keyword: '感官' } });
    expect(kwZh.datas.list.map((r: any) => r.id)).toEqual([top.datas.id]);
    const tops = await t.call('GET', '/system/list', { key: admin, query: { level: '1', limit: 200 } });
    expect(tops.datas.list.every((r: any) => r.level === 1 && r.parent_id === null)).toBe(true);
    expect(tops.datas.list.find((r: any) => r.id === top.datas.id).child_count).toBe(2);

    const detail = await t.call('GET', '/system/detail', { key: admin, query: { id: eye.datas.id } });
    expect(detail.datas).toMatchObject({ id: eye.datas.id, name: { en: 'Eyes', zh: '眼' }, weights: { LR: 3 }, sort: 2, level: 2 });

    const edit = await t.call('POST', '/system/edit', {
      key: admin,
      body: { id: eye.datas.id, parent_id: top.datas.id, name: name('Eyes and vision', '眼与视力'), weights: { LR: 3, GB: 1 }, sort: 3 },
    });
    expect(edit.code, edit.raw).toBe(200);
    const after = await t.call('GET', '/system/detail', { key: admin, query: { id: eye.datas.id } });
    expect(after.datas).toMatchObject({ name: { en: 'Eyes and vision' }, weights: { LR: 3, GB: 1 }, sort: 3 });

    expect((await t.call('POST', '/system/del', { key: admin, body: { id: eye.datas.id } })).code).toBe(200);
    expect((await t.call('GET', '/system/detail', { key: admin, query: { id: eye.datas.id } })).code).toBe(400);
    expect((await t.call('POST', '/system/del', { key: admin, body: { id: eye.datas.id } })).code).toBe(400);
  });

  it('validates names, weights and the two-level rule with per-field messages', async () => {
    const noEn = await add({ name: { zh: '只有中文', en: ' ' } });
    expect(noEn.code).toBe(400);
    expect(Object.keys(noEn.datas.fields)).toEqual(['name.en']);
    const noName = await add({ weights: {} });
    expect(noName.datas.fields).toHaveProperty('name');
    const badWeights = await add({ name: name('X'), weights: { XX: 1, LU: -1, HT: 'a' } });
    expect(badWeights.code).toBe(400);
    expect(Object.keys(badWeights.datas.fields).join(' ')).toMatch(/weights/);
    const zero = await add({ name: name('X'), weights: { LU: 0 } });
    expect(zero.datas.fields).toHaveProperty('weights.LU');

    const tree = (await t.call('GET', '/system/tree', { key: admin })).datas;
    const sub = tree[0].children[0];
    const deep = await add({ parent_id: sub.id, name: name('Too deep') });
    expect(deep.code).toBe(400);
    expect(deep.datas.fields.parent_id).toMatch(/top-level/);
    const missing = await add({ parent_id: 999999, name: name('Orphan') });
    expect(missing.datas.fields.parent_id).toMatch(/no such record/);
    // a body system with subsystems cannot become a subsystem; nor its own parent
    const moveTop = await t.call('POST', '/system/edit', { key: admin, body: { id: tree[0].id, parent_id: tree[1].id, name: tree[0].name, weights: {} } });
    expect(moveTop.datas.fields.parent_id).toMatch(/has subsystems/);
    const self = await t.call('POST', '/system/edit', { key: admin, body: { id: tree[0].id, parent_id: tree[0].id, name: tree[0].name } });
    expect(self.code).toBe(400);
    // answers in the caller's language
    const zh = await t.call('POST', '/system/add', { key: admin, body: { parent_id: sub.id, name: name('Too deep') }, lang: 'zh-CN' });
    expect(zh.datas.error).toBe('上级必须是一级身体系统');
    // ids out of range or of the wrong type never reach the database
    expect((await t.call('GET', '/system/detail', { key: admin, query: { id: '99999999999' } })).code).toBe(400);
    expect((await t.call('GET', '/system/detail', { key: admin, query: { id: 'abc' } })).code).toBe(400);
    expect((await t.call('GET', '/system/list', { key: admin, query: { sort: 'name; drop table systems' } })).code).toBe(400);
  });

  it('refuses to delete a system that has subsystems or that a disease names', async () => {
    const tree = (await t.call('GET', '/system/tree', { key: admin })).datas;
    const withChildren = await t.call('POST', '/system/del', { key: admin, body: { id: tree[0].id } });
    expect(withChildren.code).toBe(400);
    expect(withChildren.datas.error).toMatch(/Cannot delete: still used by 2 subsystems \(Upper airways/);

    const lungs = tree[0].children.find((c: any) => c.name.en === 'Lungs and bronchi');
    const held = await t.call('POST', '/system/del', { key: admin, body: { id: lungs.id } });
    expect(held.code).toBe(400);
    expect(held.datas.error).toMatch(/2 diseases \(.*Chronic bronchitis/);
    const zh = await t.call('POST', '/system/del', { key: admin, body: { id: lungs.id }, lang: 'zh' });
    expect(zh.datas.error).toMatch(/^无法删除：仍被 \d+ 个疾病（慢性支气管炎/);
  });

  it('refuses institutions and roles without the page or the button', async () => {
    const clinic = (await t.login('clinic3', 'institution')).key;
    expect((await t.call('GET', '/system/list', { key: clinic })).datas.error).toMatch(/permission/);
    expect((await t.call('GET', '/system/options', { key: clinic })).code).toBe(400);
    expect((await add({ name: name('Nope') }, clinic)).code).toBe(400);

    const reader = await t.adminWith('sysreader', ['Disease', 'SystemManage']);
    expect((await t.call('GET', '/system/tree', { key: reader })).code).toBe(200);
    expect((await t.call('GET', '/system/list', { key: reader })).code).toBe(200);
    const refused = await add({ name: name('Nope') }, reader);
    expect(refused.code).toBe(400);
    expect(refused.datas.error).toMatch(/permission/);
    const tree = (await t.call('GET', '/system/tree', { key: admin })).datas;
    expect((await t.call('POST', '/system/del', { key: reader, body: { id: tree[0].children[0].id } })).datas.error).toMatch(/permission/);

    // the picker tree is open to the page that shows the picker (diseases), not to the system page alone
    const other = await t.adminWith('diseaseonly', ['Disease', 'DiseaseManage']);
    expect((await t.call('GET', '/system/options', { key: other })).code).toBe(200);
    expect((await t.call('GET', '/system/options', { key: reader })).datas.error).toMatch(/permission/);
    expect((await t.call('GET', '/system/tree', { key: other })).code).toBe(400);
    expect((await t.call('GET', '/system/list')).code).toBe(999);
  });

  it('audits a write: the record before and after, no session key', async () => {
    const added = await add({ name: name('Audited system', '审计系统'), weights: { LU: 1 }, sort: 700 });
    expect(added.code, added.raw).toBe(200);
    const id = added.datas.id;
    const edit = await t.call('POST', '/system/edit', { key: admin, body: { id, name: name('Audited system 2', '审计系统二'), weights: { LU: 2 }, sort: 701 } });
    expect(edit.code, edit.raw).toBe(200);
    const rows = await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'systems.edit'));
    const row = rows.find((r) => r.recordId === id)!;
    expect(row).toMatchObject({ recordType: 'system', path: '/system/edit', actorKind: 'admin', actorName: 'admin' });
    expect(row.before).toMatchObject({ id, name: { en: 'Audited system' }, weights: { LU: 1 }, sort: 700, parent_id: null });
    expect(row.after).toMatchObject({ id, name: { en: 'Audited system 2' }, weights: { LU: 2 }, sort: 701 });
    expect(JSON.stringify(row)).not.toContain(admin);
    // a delete leaves the record as it was, and nothing after
    expect((await t.call('POST', '/system/del', { key: admin, body: { id } })).code).toBe(200);
    const [del] = (await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'systems.remove'))).filter((r) => r.recordId === id);
    expect(del).toMatchObject({ recordType: 'system', before: { name: { en: 'Audited system 2' } }, after: null });
  });
});

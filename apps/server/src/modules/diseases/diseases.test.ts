import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let admin: string;
let acupointIds: Map<string, number>;
let systemIds: Map<string, number>;

const l10n = (en: string, zh: string) => ({ zh, en, es: '', ja: '' });
const disease = (categoryId: number, extra: Record<string, unknown> = {}) => ({
  category_id: categoryId,
  name: { zh: '鼻窦炎', en: 'Sinusitis', es: 'Sinusitis', ja: '副鼻腔炎' },
  description: { en: 'Inflamed sinuses with a blocked nose and facial pressure.', zh: '鼻窦黏膜炎症，鼻塞、面部胀痛。' },
  advice: { en: 'Rinse the nose with saline; see a doctor if it lasts over ten days.' },
  system_ids: [systemIds.get('Upper airways (nose, throat)')],
  acupoint_ids: [acupointIds.get('LI4'), acupointIds.get('LU7')],
  pattern: [
    { meridian: 'LU', status: 'excess' },
    { meridian: 'LI', status: 'imbalanced' },
  ],
  sort: 5,
  ...extra,
});
const addCategory = (body: Record<string, unknown>, key = admin) => t.call('POST', '/disease/category_add', { key, body });
const add = (body: Record<string, unknown>, key = admin) => t.call('POST', '/disease/add', { key, body });

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
  const options = await t.call('GET', '/acupoint/options', { key: admin });
  acupointIds = new Map(options.datas.map((a: any) => [a.code, a.id]));
  const tree = await t.call('GET', '/system/options', { key: admin });
  systemIds = new Map(tree.datas.flatMap((s: any) => [[s.name.en, s.id], ...s.children.map((c: any) => [c.name.en, c.id])]));
});
afterAll(async () => {
  await t?.close();
});

describe('disease categories and diseases', () => {
  it('seeds a few dozen diseases in categories, with patterns, systems and acupoints', async () => {
    const tree = await t.call('GET', '/disease/tree', { key: admin });
    expect(tree.code).toBe(200);
    expect(tree.datas.length).toBeGreaterThanOrEqual(6);
    const count = tree.datas.reduce((n: number, c: any) => n + c.children.length, 0);
    expect(count).toBeGreaterThanOrEqual(30);
    const all = await t.call('GET', '/disease/list', { key: admin, query: { limit: 200 } });
    expect(all.datas.total).toBe(count);
    for (const d of all.datas.list) {
      expect(d.pattern.length).toBeGreaterThan(0);
      expect(d.acupoint_ids.length).toBeGreaterThan(0);
      expect(d.system_ids.length).toBeGreaterThan(0);
      for (const lang of ['zh', 'en', 'es', 'ja']) {
        expect(d.name[lang], `${d.name.en} ${lang}`).not.toBe('');
        expect(d.description[lang]).not.toBe('');
        expect(d.advice[lang]).not.toBe('');
      }
    }
  });

  it('adds, lists, reads, edits and deletes a category', async () => {
    const res = await addCategory({ name: l10n('Eye and ear', '五官科'), sort: 999 });
    expect(res.code, res.raw).toBe(200);
    const id = res.datas.id;
    const list = await t.call('GET', '/disease/category_list', { key: admin, query: { keyword: '五官', page: 1, limit: 5 } });
    expect(list.datas).toMatchObject({ total: 1, capped: false });
    expect(list.datas.list[0]).toMatchObject({ id, name: { en: 'Eye and ear', es: '' }, sort: 999, disease_count: 0 });
    const sorted = await t.call('GET', '/disease/category_list', { key: admin, query: { sort: 'sort', order: 'descend', limit: 1 } });
    expect(sorted.datas.list[0].id).toBe(id);
    const edit = await t.call('POST', '/disease/category_edit', { key: admin, body: { id, name: l10n('ENT', '耳鼻喉科'), sort: 1 } });
    expect(edit.code).toBe(200);
    expect((await t.call('GET', '/disease/category_detail', { key: admin, query: { id } })).datas).toMatchObject({ name: { en: 'ENT' }, sort: 1 });
    expect((await t.call('POST', '/disease/category_edit', { key: admin, body: { id: 999999, name: l10n('x', 'x') } })).code).toBe(400);
    expect((await t.call('POST', '/disease/category_del', { key: admin, body: { id } })).code).toBe(200);
    expect((await t.call('GET', '/disease/category_detail', { key: admin, query: { id } })).code).toBe(400);
  });

  it('adds, lists with filters, sort and paging, reads, edits and deletes a disease', async () => {
    const cat = (await addCategory({ name: l10n('ENT', '耳鼻喉') })).datas.id;
    const res = await add(disease(cat));
    expect(res.code, res.raw).toBe(200);
    const id = res.datas.id;
    const second = await add(
      disease(cat, { name: l10n('Otitis media', '中耳炎'), sort: 1, status: 0, pattern: [{ meridian: 'TE', status: 'excess' }], acupoint_ids: [acupointIds.get('TE5')], system_ids: [] }),
    );
    expect(second.code, second.raw).toBe(200);

    const inCat = await t.call('GET', '/disease/list', { key: admin, query: { category_id: cat } });
    expect(inCat.datas.list.map((d: any) => d.name.en)).toEqual(['Otitis media', 'Sinusitis']);
    expect(inCat.datas.list[1]).toMatchObject({
      category_id: cat,
      category_name: { en: 'ENT' },
      status: 1,
      sort: 5,
      acupoint_ids: [acupointIds.get('LI4'), acupointIds.get('LU7')],
      system_ids: [systemIds.get('Upper airways (nose, throat)')],
      pattern: [
        { meridian: 'LU', status: 'excess' },
        { meridian: 'LI', status: 'imbalanced' },
      ],
      description: { zh: '鼻窦黏膜炎症，鼻塞、面部胀痛。', es: '', ja: '' },
    });
    const paged = await t.call('GET', '/disease/list', { key: admin, query: { category_id: cat, sort: 'id', order: 'descend', page: 2, limit: 1 } });
    expect(paged.datas.total).toBe(2);
    expect(paged.datas.list.map((d: any) => d.id)).toEqual([id]);
    expect((await t.call('GET', '/disease/list', { key: admin, query: { category_id: cat, status: '0' } })).datas.list.map((d: any) => d.id)).toEqual([second.datas.id]);
    expect((await t.call('GET', '/disease/list', { key: admin, query: { category_id: cat, meridian: 'TE' } })).datas.total).toBe(1);
    expect((await t.call('GET', '/disease/list', { key: admin, query: { acupoint_id: acupointIds.get('LU7'), keyword: 'sinus' } })).datas.list.map((d: any) => d.id)).toEqual([id]);
    expect((await t.call('GET', '/disease/list', { key: admin, query: { system_id: systemIds.get('Upper airways (nose, throat)'), keyword: '副鼻腔' } })).datas.total).toBe(1);
    // the keyword searches every language of the disease name, not the category's
    expect((await t.call('GET', '/disease/list', { key: admin, query: { keyword: '耳鼻喉' } })).datas.total).toBe(0);

    const detail = await t.call('GET', '/disease/detail', { key: admin, query: { id } });
    expect(detail.datas.acupoints.map((a: any) => a.code)).toEqual(['LI4', 'LU7']);
    expect(detail.datas.systems[0].name.en).toBe('Upper airways (nose, throat)');

    const edit = await t.call('POST', '/disease/edit', {
      key: admin,
      body: { ...disease(cat), id, acupoint_ids: [acupointIds.get('LU7'), acupointIds.get('GB20')], system_ids: [], pattern: [{ meridian: 'LU', status: 'deficient' }] },
    });
    expect(edit.code, edit.raw).toBe(200);
    const after = await t.call('GET', '/disease/detail', { key: admin, query: { id } });
    expect(after.datas.acupoints.map((a: any) => a.code)).toEqual(['LU7', 'GB20']);
    expect(after.datas).toMatchObject({ system_ids: [], pattern: [{ meridian: 'LU', status: 'deficient' }] });

    const tree = await t.call('GET', '/disease/tree', { key: admin });
    expect(tree.datas.find((c: any) => c.id === cat).children.map((d: any) => d.name.en)).toEqual(['Otitis media', 'Sinusitis']);

    expect((await t.call('POST', '/disease/del', { key: admin, body: { id } })).code).toBe(200);
    expect((await t.call('GET', '/disease/detail', { key: admin, query: { id } })).code).toBe(400);
    expect((await t.call('POST', '/disease/del', { key: admin, body: { id } })).code).toBe(400);
  });

  it('validates names, pattern, references and ranges with per-field messages', async () => {
    const cat = (await t.call('GET', '/disease/tree', { key: admin })).datas[0].id;
    const noZh = await add(disease(cat, { name: { en: 'Only English' } }));
    expect(noZh.datas.fields).toHaveProperty('name.zh');
    const emptyPattern = await add(disease(cat, { pattern: [] }));
    expect(emptyPattern.datas.fields).toHaveProperty('pattern');
    const badPattern = await add(
      disease(cat, {
        pattern: [
          { meridian: 'XX', status: 'excess' },
          { meridian: 'LU', status: 'hot' },
        ],
      }),
    );
    expect(Object.keys(badPattern.datas.fields).sort()).toEqual(['pattern.0.meridian', 'pattern.1.status']);
    const conflict = await add(
      disease(cat, {
        pattern: [
          { meridian: 'LU', status: 'excess' },
          { meridian: 'LU', status: 'deficient' },
        ],
      }),
    );
    expect(conflict.datas.fields['pattern.1']).toBe('Meridian LU cannot be both excess and deficient');
    const twice = await t.call('POST', '/disease/add', {
      key: admin,
      lang: 'es',
      body: disease(cat, {
        pattern: [
          { meridian: 'HT', status: 'imbalanced' },
          { meridian: 'HT', status: 'imbalanced' },
        ],
      }),
    });
    expect(twice.datas.fields['pattern.1']).toBe('Condición de meridiano repetida: HT imbalanced');
    const missing = await add(disease(cat, { acupoint_ids: [acupointIds.get('LU9'), 999998, 999999] }));
    expect(missing.code).toBe(400);
    expect(missing.datas.fields.acupoint_ids).toBe('acupoint_ids: no such record: 999998, 999999');
    const noSystem = await add(disease(cat, { system_ids: [999999] }));
    expect(noSystem.datas.fields.system_ids).toMatch(/999999/);
    const noCategory = await add(disease(999999));
    expect(noCategory.datas.fields.category_id).toMatch(/no such record/);
    const badIds = await add(disease(cat, { acupoint_ids: ['1; drop table x', -1] }));
    expect(badIds.code).toBe(400);
    const badStatus = await add(disease(cat, { status: 2, sort: -1 }));
    expect(Object.keys(badStatus.datas.fields).sort()).toEqual(['sort', 'status']);
    const notArray = await add(disease(cat, { pattern: 'LU+' }));
    expect(notArray.datas.fields).toHaveProperty('pattern');
    // duplicate ids are kept once, in order
    const dupIds = await add(disease(cat, { acupoint_ids: [acupointIds.get('LU9'), acupointIds.get('LU9'), acupointIds.get('KI3')] }));
    expect(dupIds.code, dupIds.raw).toBe(200);
    expect((await t.call('GET', '/disease/detail', { key: admin, query: { id: dupIds.datas.id } })).datas.acupoint_ids).toEqual([acupointIds.get('LU9'), acupointIds.get('KI3')]);
    await t.call('POST', '/disease/del', { key: admin, body: { id: dupIds.datas.id } });
  });

  it('refuses to delete a category that still has diseases', async () => {
    const first = (await t.call('GET', '/disease/tree', { key: admin })).datas.find((c: any) => c.name.en === 'Respiratory diseases');
    const res = await t.call('POST', '/disease/category_del', { key: admin, body: { id: first.id } });
    expect(res.code).toBe(400);
    expect(res.datas.error).toBe(`Cannot delete: still used by ${first.children.length} diseases (Common cold, Chronic bronchitis, Asthma, …)`);
  });

  it('refuses institutions and a role without the delete button; the read still works', async () => {
    const clinic = (await t.login('clinic3', 'institution')).key;
    expect((await t.call('GET', '/disease/tree', { key: clinic })).datas.error).toMatch(/permission/);
    expect((await addCategory({ name: l10n('x', 'x') }, clinic)).code).toBe(400);

    const editor = await t.adminWith('diseaseeditor', ['Disease', 'DiseaseManage', 'disease:add', 'disease:edit']);
    expect((await t.call('GET', '/disease/list', { key: editor })).code).toBe(200);
    const cat = await addCategory({ name: l10n('Temporary', '临时') }, editor);
    expect(cat.code).toBe(200);
    const del = await t.call('POST', '/disease/category_del', { key: editor, body: { id: cat.datas.id } });
    expect(del.datas.error).toBe('You do not have permission for this action');
    const d = await add(disease(cat.datas.id), editor);
    expect(d.code, d.raw).toBe(200);
    expect((await t.call('POST', '/disease/del', { key: editor, body: { id: d.datas.id } })).code).toBe(400);
    expect((await t.call('GET', '/disease/detail', { key: editor, query: { id: d.datas.id } })).code).toBe(200);
    // the system and acupoint pickers are open to the disease page, which shows them
    expect((await t.call('GET', '/acupoint/options', { key: editor })).code).toBe(200);
    expect((await t.call('GET', '/system/options', { key: editor })).code).toBe(200);
  });

  it('audits writes of categories and diseases: the record before and after, no session key', async () => {
    const cat = await addCategory({ name: l10n('Audited category', '审计分类'), sort: 90 });
    expect(cat.code, cat.raw).toBe(200);
    const renamed = await t.call('POST', '/disease/category_edit', { key: admin, body: { id: cat.datas.id, name: l10n('Audited category 2', '审计分类二'), sort: 91 } });
    expect(renamed.code, renamed.raw).toBe(200);
    const [catRow] = (await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'diseases.categoryEdit'))).filter((r) => r.recordId === cat.datas.id);
    expect(catRow).toMatchObject({ recordType: 'disease_category', before: { name: { en: 'Audited category' }, sort: 90 }, after: { name: { en: 'Audited category 2' }, sort: 91 } });

    const d = await add(disease(cat.datas.id));
    expect(d.code, d.raw).toBe(200);
    const edit = await t.call('POST', '/disease/edit', { key: admin, body: { ...disease(cat.datas.id), id: d.datas.id, acupoint_ids: [acupointIds.get('LU7')], status: 0 } });
    expect(edit.code, edit.raw).toBe(200);
    const [row] = (await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'diseases.edit'))).filter((r) => r.recordId === d.datas.id);
    expect(row).toMatchObject({ recordType: 'disease', path: '/disease/edit', actorName: 'admin' });
    expect(row!.before).toMatchObject({ id: d.datas.id, status: 1, acupoint_ids: [acupointIds.get('LI4'), acupointIds.get('LU7')] });
    expect(row!.after).toMatchObject({ id: d.datas.id, status: 0, acupoint_ids: [acupointIds.get('LU7')] });
    expect(JSON.stringify(row)).not.toContain(admin);
  });
});

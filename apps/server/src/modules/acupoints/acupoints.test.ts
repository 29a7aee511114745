import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog } from '../../db/schema';
import { SOURCE_POINTS } from '@app/contract';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let admin: string;

const point = (code: string, extra: Record<string, unknown> = {}) => ({
  code,
  meridian: 'SP',
  name: { zh: '阴陵泉', en: 'Yinlingquan (Yin Mound Spring)', es: 'Yinlingquan (Manantial de la Colina Yin)', ja: '陰陵泉' },
  location: { en: 'Below the medial condyle of the tibia' },
  indications: { zh: '水肿', en: 'Oedema' },
  is_treatment_point: true,
  is_measurement_point: false,
  sort: 900,
  ...extra,
});
const add = (body: Record<string, unknown>, key = admin) => t.call('POST', '/acupoint/add', { key, body });
const idOf = async (code: string) => (await t.call('GET', '/acupoint/list', { key: admin, query: { keyword: code, limit: 200 } })).datas.list.find((r: any) => r.code === code).id;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
});
afterAll(async () => {
  await t?.close();
});

describe('acupoints', () => {
  it('seeds the 12 source points as measurement points and common treatment points', async () => {
    const measure = await t.call('GET', '/acupoint/list', { key: admin, query: { is_measurement_point: '1', limit: 50 } });
    expect(measure.datas.list.map((r: any) => r.code).sort()).toEqual(Object.values(SOURCE_POINTS).sort());
    const lu9 = measure.datas.list.find((r: any) => r.code === 'LU9');
    expect(lu9.name).toEqual({ zh: '太渊', en: 'Taiyuan (Great Abyss)', es: 'Taiyuan (Gran Abismo)', ja: '太淵（たいえん）' });
    expect(lu9.meridian).toBe('LU');
    const treat = await t.call('GET', '/acupoint/list', { key: admin, query: { is_treatment_point: 'true', is_measurement_point: '0', limit: 50 } });
    expect(treat.datas.list.map((r: any) => r.code)).toEqual(expect.arrayContaining(['ST36', 'LI11', 'SP6', 'PC6', 'GB20']));
  });

  it('adds, lists with filters, sort and paging, reads, edits and deletes', async () => {
    const res = await add(point(' sp9 '));
    expect(res.code, res.raw).toBe(200);
    const id = res.datas.id;
    const detail = await t.call('GET', '/acupoint/detail', { key: admin, query: { id } });
    expect(detail.datas).toMatchObject({
      code: 'SP9',
      meridian: 'SP',
      status: 1,
      is_treatment_point: true,
      is_measurement_point: false,
      image: '',
      location: { zh: '', en: 'Below the medial condyle of the tibia', es: '', ja: '' },
      actions: [],
      schematics: [],
      diseases: [],
    });

    const sp = await t.call('GET', '/acupoint/list', { key: admin, query: { meridian: 'SP', sort: 'code', order: 'ascend' } });
    expect(sp.datas.list.map((r: any) => r.code)).toEqual(['SP10', 'SP3', 'SP6', 'SP9']);
    const page = await t.call('GET', '/acupoint/list', { key: admin, query: { meridian: 'SP', sort: 'code', order: 'descend', page: 2, limit: 3 } });
    expect(page.datas).toMatchObject({ total: 4, capped: false });
    expect(page.datas.list.map((r: any) => r.code)).toEqual(['SP10']);
    // keyword: code or a name in any language
    for (const kw of ['sp9', '阴陵', 'Mound Spring', 'colina yin']) {
      const found = await t.call('GET', '/acupoint/list', { key: admin, query: { keyword: kw } });
      expect(
        found.datas.list.map((r: any) => r.code),
        kw,
      ).toContain('SP9');
    }
    // LIKE wildcards in the keyword are literal
    expect((await t.call('GET', '/acupoint/list', { key: admin, query: { keyword: '%' } })).datas.total).toBe(0);

    const edit = await t.call('POST', '/acupoint/edit', {
      key: admin,
      body: { ...point('SP9', { status: 0, is_treatment_point: false }), id, image: '/adminapi/uploads/0123456789abcdef0123456789abcdef.png' },
    });
    expect(edit.code, edit.raw).toBe(200);
    const after = await t.call('GET', '/acupoint/detail', { key: admin, query: { id } });
    expect(after.datas).toMatchObject({ status: 0, is_treatment_point: false, image: '/adminapi/uploads/0123456789abcdef0123456789abcdef.png' });
    const off = await t.call('GET', '/acupoint/list', { key: admin, query: { status: '0' } });
    expect(off.datas.list.map((r: any) => r.code)).toEqual(['SP9']);

    expect((await t.call('POST', '/acupoint/del', { key: admin, body: { id } })).code).toBe(200);
    expect((await t.call('GET', '/acupoint/detail', { key: admin, query: { id } })).code).toBe(400);
  });

  it('validates: required zh and en names, code format and uniqueness, meridian, image URL', async () => {
    const dup = await add(point('lu9'));
    expect(dup.code).toBe(400);
    expect(dup.datas.error).toBe('LU9 already exists');
    expect(dup.datas.fields.code).toBe('LU9 already exists');
    const dupJa = await t.call('POST', '/acupoint/add', { key: admin, body: point('LU9'), lang: 'ja' });
    expect(dupJa.datas.error).toBe('LU9 は既に存在します');

    const noZh = await add(point('SP8', { name: { en: 'Diji (Earth Pivot)' } }));
    expect(noZh.datas.fields).toHaveProperty('name.zh');
    const badCode = await add(point('1 or 1=1'));
    expect(badCode.datas.fields).toHaveProperty('code');
    const badMeridian = await add(point('SP8', { meridian: 'XX' }));
    expect(badMeridian.datas.fields).toHaveProperty('meridian');
    const badImage = await add(point('SP8', { image: 'javascript:alert(1)' }));
    expect(badImage.datas.fields).toHaveProperty('image');
    const traversal = await add(point('SP8', { image: '/adminapi/uploads/../../etc/passwd' }));
    expect(traversal.datas.fields).toHaveProperty('image');
    const longName = await add(point('SP8', { name: { zh: '地', en: 'x'.repeat(101) } }));
    expect(longName.datas.fields).toHaveProperty('name.en');

    // editing another point onto an existing code
    const sp6 = await idOf('SP6');
    const clash = await t.call('POST', '/acupoint/edit', { key: admin, body: { ...point('SP3'), id: sp6 } });
    expect(clash.datas.fields.code).toBe('SP3 already exists');
    // keeping its own code is fine
    const same = await t.call('GET', '/acupoint/detail', { key: admin, query: { id: sp6 } });
    const keep = await t.call('POST', '/acupoint/edit', { key: admin, body: { ...same.datas, id: sp6 } });
    expect(keep.code, keep.raw).toBe(200);
    expect((await t.call('POST', '/acupoint/edit', { key: admin, body: { ...point('SP8'), id: 999999 } })).code).toBe(400);
  });

  it('edits the treatment actions of an acupoint', async () => {
    const id = await idOf('ST36');
    const seeded = await t.call('GET', '/acupoint/actions', { key: admin, query: { id } });
    expect(seeded.datas.acupoint).toMatchObject({ code: 'ST36', is_treatment_point: true });
    expect(seeded.datas.list.length).toBeGreaterThan(0);

    const actions = [
      { waveform: 'intermittent', frequency_hz: 15.5, intensity_min: 20, intensity_max: 20, minutes: 1 },
      { waveform: 'dense-sparse', frequency_hz: 2, intensity_min: 0, intensity_max: 100, minutes: 60 },
    ];
    const save = await t.call('POST', '/acupoint/save_actions', { key: admin, body: { id, actions } });
    expect(save.code, save.raw).toBe(200);
    expect((await t.call('GET', '/acupoint/actions', { key: admin, query: { id } })).datas.list).toEqual(actions);
    const row = (await t.call('GET', '/acupoint/list', { key: admin, query: { keyword: 'ST36' } })).datas.list[0];
    expect(row.action_count).toBe(2);

    const minMax = await t.call('POST', '/acupoint/save_actions', { key: admin, body: { id, actions: [{ ...actions[0], intensity_min: 50, intensity_max: 40 }] } });
    expect(minMax.code).toBe(400);
    expect(minMax.datas.fields['actions.0.intensity_max']).toBe('The minimum intensity cannot exceed the maximum intensity');
    const ranges = await t.call('POST', '/acupoint/save_actions', { key: admin, body: { id, actions: [{ waveform: 'square', frequency_hz: 0, intensity_min: -1, intensity_max: 101, minutes: 61 }] } });
    expect(Object.keys(ranges.datas.fields).sort()).toEqual(['actions.0.frequency_hz', 'actions.0.intensity_max', 'actions.0.intensity_min', 'actions.0.minutes', 'actions.0.waveform']);
    const fraction = await t.call('POST', '/acupoint/save_actions', { key: admin, body: { id, actions: [{ ...actions[0], minutes: 1.5 }] } });
    expect(fraction.datas.fields).toHaveProperty('actions.0.minutes');
    expect((await t.call('POST', '/acupoint/save_actions', { key: admin, body: { id: 999999, actions: [] } })).code).toBe(400);
    // unchanged after the refusals
    expect((await t.call('GET', '/acupoint/actions', { key: admin, query: { id } })).datas.list).toEqual(actions);
    // an empty list clears them
    expect((await t.call('POST', '/acupoint/save_actions', { key: admin, body: { id, actions: [] } })).code).toBe(200);
    expect((await t.call('GET', '/acupoint/actions', { key: admin, query: { id } })).datas.list).toEqual([]);
  });

  it('refuses to delete an acupoint shown on a schematic diagram or named by a disease', async () => {
    const lu9 = await idOf('LU9');
    const res = await t.call('POST', '/acupoint/del', { key: admin, body: { id: lu9 } });
    expect(res.code).toBe(400);
    expect(res.datas.error).toMatch(/^Cannot delete: still used by 1 schematic diagram \(Measurement map: the 12 source points\); \d+ diseases? \(.*Chronic bronchitis/);
    const detail = await t.call('GET', '/acupoint/detail', { key: admin, query: { id: lu9 } });
    expect(detail.datas.schematics).toHaveLength(1);
    expect(detail.datas.diseases.length).toBeGreaterThan(0);
    // only on diagrams
    const si4 = await t.call('POST', '/acupoint/del', { key: admin, body: { id: await idOf('SI4') } });
    expect(si4.datas.error).toMatch(/schematic diagram/);
    expect(si4.datas.error).not.toMatch(/disease/);
  });

  it('refuses institutions and a role without the button; the read still works', async () => {
    const clinic = (await t.login('clinic3', 'institution')).key;
    expect((await t.call('GET', '/acupoint/list', { key: clinic })).datas.error).toMatch(/permission/);
    expect((await t.call('GET', '/acupoint/options', { key: clinic })).code).toBe(400);
    expect((await add(point('SP8'), clinic)).code).toBe(400);

    const reader = await t.adminWith('acureader', ['Acupoint', 'AcupointManage', 'acupoint:add']);
    expect((await t.call('GET', '/acupoint/list', { key: reader })).code).toBe(200);
    // the picker list is for the pages that show the picker (diseases, schematics), not the acupoint page
    expect((await t.call('GET', '/acupoint/options', { key: reader })).datas.error).toMatch(/permission/);
    for (const page of ['DiseaseManage', 'SchematicManage']) {
      const picker = await t.adminWith(`picker-${page}`, [page]);
      expect((await t.call('GET', '/acupoint/options', { key: picker })).datas.length).toBeGreaterThan(20);
    }
    const added = await add(point('SP8'), reader);
    expect(added.code, added.raw).toBe(200);
    const del = await t.call('POST', '/acupoint/del', { key: reader, body: { id: added.datas.id } });
    expect(del.code).toBe(400);
    expect(del.datas.error).toBe('You do not have permission for this action');
    expect((await t.call('GET', '/acupoint/detail', { key: admin, query: { id: added.datas.id } })).code).toBe(200);
    // the action page and its button are separate grants
    expect((await t.call('GET', '/acupoint/actions', { key: reader, query: { id: added.datas.id } })).code).toBe(400);
    expect((await t.call('POST', '/acupoint/save_actions', { key: reader, body: { id: added.datas.id, actions: [] } })).code).toBe(400);
    const actor = await t.adminWith('acuactor', ['Acupoint', 'AcupointAction', 'acupoint:action']);
    expect((await t.call('GET', '/acupoint/actions', { key: actor, query: { id: added.datas.id } })).code).toBe(200);
    expect((await t.call('POST', '/acupoint/save_actions', { key: actor, body: { id: added.datas.id, actions: [] } })).code).toBe(200);
  });

  it('audits writes, treatment actions included: the record before and after, no session key', async () => {
    const added = await add(point('SP99'));
    expect(added.code, added.raw).toBe(200);
    const id = added.datas.id;
    const action = { waveform: 'continuous', frequency_hz: 2, intensity_min: 10, intensity_max: 30, minutes: 15 };
    const saved = await t.call('POST', '/acupoint/save_actions', { key: admin, body: { id, actions: [action] } });
    expect(saved.code, saved.raw).toBe(200);
    const [row] = (await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'acupoints.saveActions'))).filter((r) => r.recordId === id);
    expect(row).toMatchObject({ recordType: 'acupoint', path: '/acupoint/save_actions', actorName: 'admin' });
    expect(row!.before).toMatchObject({ id, code: 'SP99', action_count: 0, actions: [] });
    expect(row!.after).toMatchObject({ id, code: 'SP99', action_count: 1, actions: [action] });
    expect(JSON.stringify(row)).not.toContain(admin);
    const [addRow] = (await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'acupoints.add'))).filter((r) => r.recordId === id);
    expect(addRow).toMatchObject({ recordType: 'acupoint', before: null, after: { code: 'SP99' } });
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { sniff } from '../uploads';
import { solidPng } from './drawing';

let t: TestApp;
let admin: string;
let acupointIds: Map<string, number>;
let dataDir: string;

/** Uploads a PNG through /base/upload_img and answers its upload answer. */
async function uploadPng(width: number, height: number) {
  const boundary = 'x-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="chart.png"\r\ncontent-type: image/png\r\n\r\n`),
    solidPng(width, height),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({ method: 'POST', url: `/adminapi/base/upload_img?key=${admin}`, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  expect(res.json().code, res.body).toBe(200);
  return res.json().datas;
}

const title = (en: string, zh: string) => ({ zh, en });
const add = (body: Record<string, unknown>, key = admin) => t.call('POST', '/schematic/add', { key, body });

beforeAll(async () => {
  t = await createTestApp();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'schematics-test-'));
  t.app.config.dataDir = dataDir;
  admin = (await t.login('admin')).key;
  const options = await t.call('GET', '/acupoint/options', { key: admin });
  acupointIds = new Map(options.datas.map((a: any) => [a.code, a.id]));
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('schematic diagrams', () => {
  it('seeds three diagrams of each kind whose images are served and whose markers fit the image', async () => {
    const list = await t.call('GET', '/schematic/list', { key: admin });
    expect(list.datas.total).toBe(3);
    expect(list.datas.list.map((s: any) => s.kind)).toEqual(['measurement_map', 'treatment_placement', 'meridian_chart']);
    for (const s of list.datas.list) {
      expect(s.marker_count).toBeGreaterThan(0);
      const img = await t.app.inject({ method: 'GET', url: s.image });
      expect(img.statusCode).toBe(200);
      expect(img.headers['content-type']).toBe('image/png');
      expect(sniff(img.rawPayload, '')).toMatchObject({ type: 'image/png', width: s.width, height: s.height });
    }
    const map = await t.call('GET', '/schematic/detail', { key: admin, query: { id: list.datas.list[0].id } });
    // the 12 source points on both sides
    expect(map.datas.markers).toHaveLength(24);
    expect(new Set(map.datas.markers.map((m: any) => m.code)).size).toBe(12);
    for (const m of map.datas.markers) {
      expect(m.x).toBeGreaterThanOrEqual(0);
      expect(m.x).toBeLessThanOrEqual(1);
      expect(m.y).toBeGreaterThanOrEqual(0);
      expect(m.y).toBeLessThanOrEqual(1);
    }
  });

  it('adds with an uploaded image and markers, lists with filters, sort and paging, edits, saves markers and deletes', async () => {
    const image = await uploadPng(320, 480);
    expect(image).toMatchObject({ width: 320, height: 480, type: 'image/png' });
    const res = await add({
      title: title('Knee points', '膝部穴位'),
      kind: 'treatment_placement',
      image: image.url,
      width: image.width,
      height: image.height,
      sort: 1,
      markers: [
        { acupoint_id: acupointIds.get('ST36'), x: 0.25, y: 0.5 },
        { acupoint_id: acupointIds.get('GB34'), x: 0.123456, y: 1 },
      ],
    });
    expect(res.code, res.raw).toBe(200);
    const id = res.datas.id;
    const detail = await t.call('GET', '/schematic/detail', { key: admin, query: { id } });
    expect(detail.datas).toMatchObject({ title: { en: 'Knee points', zh: '膝部穴位', es: '', ja: '' }, kind: 'treatment_placement', image: image.url, width: 320, height: 480, marker_count: 2 });
    expect(detail.datas.markers).toEqual([
      { acupoint_id: acupointIds.get('ST36'), code: 'ST36', name: expect.objectContaining({ en: 'Zusanli (Leg Three Miles)' }), x: 0.25, y: 0.5 },
      { acupoint_id: acupointIds.get('GB34'), code: 'GB34', name: expect.any(Object), x: 0.1235, y: 1 },
    ]);

    const kind = await t.call('GET', '/schematic/list', { key: admin, query: { kind: 'treatment_placement' } });
    expect(kind.datas.list.map((s: any) => s.id)).toEqual([id, expect.any(Number)]); // sort 1 before the seeded 20
    expect((await t.call('GET', '/schematic/list', { key: admin, query: { keyword: '膝部' } })).datas.list.map((s: any) => s.id)).toEqual([id]);
    const withGb34 = await t.call('GET', '/schematic/list', { key: admin, query: { acupoint_id: acupointIds.get('GB34') } });
    expect(withGb34.datas.total).toBe(2);
    const paged = await t.call('GET', '/schematic/list', { key: admin, query: { sort: 'id', order: 'descend', page: 1, limit: 2 } });
    expect(paged.datas).toMatchObject({ total: 4, capped: false });
    expect(paged.datas.list[0].id).toBe(id);

    // editing without markers keeps them
    const edit = await t.call('POST', '/schematic/edit', { key: admin, body: { id, title: title('Knee', '膝'), kind: 'meridian_chart', image: image.url, width: 320, height: 480, sort: 2 } });
    expect(edit.code, edit.raw).toBe(200);
    expect((await t.call('GET', '/schematic/detail', { key: admin, query: { id } })).datas).toMatchObject({ kind: 'meridian_chart', marker_count: 2, title: { en: 'Knee' } });
    // editing with markers replaces them
    await t.call('POST', '/schematic/edit', {
      key: admin,
      body: { id, title: title('Knee', '膝'), kind: 'meridian_chart', image: image.url, width: 320, height: 480, markers: [{ acupoint_id: acupointIds.get('SP10'), x: 0, y: 0 }] },
    });
    expect((await t.call('GET', '/schematic/detail', { key: admin, query: { id } })).datas.markers.map((m: any) => m.code)).toEqual(['SP10']);
    // markers alone
    const save = await t.call('POST', '/schematic/save_markers', {
      key: admin,
      body: {
        id,
        markers: [
          { acupoint_id: acupointIds.get('BL40'), x: 0.5, y: 0.5 },
          { acupoint_id: acupointIds.get('BL40'), x: 0.6, y: 0.5 },
        ],
      },
    });
    expect(save.code, save.raw).toBe(200);
    expect((await t.call('GET', '/schematic/detail', { key: admin, query: { id } })).datas.markers.map((m: any) => [m.code, m.x])).toEqual([
      ['BL40', 0.5],
      ['BL40', 0.6],
    ]);

    expect((await t.call('POST', '/schematic/del', { key: admin, body: { id } })).code).toBe(200);
    expect((await t.call('GET', '/schematic/detail', { key: admin, query: { id } })).code).toBe(400);
  });

  it('validates title, kind, image URL, size and markers', async () => {
    const image = await uploadPng(10, 10);
    const base = { title: title('T', '图'), kind: 'measurement_map', image: image.url, width: 10, height: 10 };
    expect((await add(base)).code).toBe(200);
    expect((await add({ ...base, title: { zh: '图' } })).datas.fields).toHaveProperty('title.en');
    expect((await add({ ...base, kind: 'poster' })).datas.fields).toHaveProperty('kind');
    for (const bad of ['https://evil.example/x.png', 'javascript:alert(1)', '/adminapi/uploads/../../etc/passwd', '/adminapi/uploads/0123456789abcdef0123456789abcdef.pdf', '']) {
      expect((await add({ ...base, image: bad })).datas.fields, bad).toHaveProperty('image');
    }
    const size = await add({ ...base, width: 0, height: 1.5 });
    expect(Object.keys(size.datas.fields).sort()).toEqual(['height', 'width']);
    const outside = await add({ ...base, markers: [{ acupoint_id: acupointIds.get('LU9'), x: 1.01, y: -0.1 }] });
    expect(Object.keys(outside.datas.fields).sort()).toEqual(['markers.0.x', 'markers.0.y']);
    const unknown = await add({ ...base, markers: [{ acupoint_id: 999999, x: 0.5, y: 0.5 }] });
    expect(unknown.datas.fields.markers).toBe('markers: no such record: 999999');
    const missing = await t.call('POST', '/schematic/save_markers', { key: admin, body: { id: 999999, markers: [] } });
    expect(missing.datas.error).toBe('The record does not exist');
    const notNumbers = await t.call('POST', '/schematic/save_markers', { key: admin, body: { id: 1, markers: [{ acupoint_id: '1', x: '0.5', y: null }] } });
    expect(notNumbers.code).toBe(400);
  });

  it('an acupoint on a diagram cannot be deleted until the diagram lets it go', async () => {
    const point = await t.call('POST', '/acupoint/add', { key: admin, body: { code: 'EX-HN3', meridian: 'EX', name: { zh: '印堂', en: 'Yintang (Hall of Impression)' } } });
    expect(point.code, point.raw).toBe(200);
    const image = await uploadPng(10, 10);
    const diagram = await add({ title: title('Face', '面部'), kind: 'treatment_placement', image: image.url, width: 10, height: 10, markers: [{ acupoint_id: point.datas.id, x: 0.5, y: 0.3 }] });
    const refused = await t.call('POST', '/acupoint/del', { key: admin, body: { id: point.datas.id } });
    expect(refused.datas.error).toBe('Cannot delete: still used by 1 schematic diagram (Face)');
    await t.call('POST', '/schematic/save_markers', { key: admin, body: { id: diagram.datas.id, markers: [] } });
    expect((await t.call('POST', '/acupoint/del', { key: admin, body: { id: point.datas.id } })).code).toBe(200);
  });

  it('refuses institutions and a role without the buttons; the read still works', async () => {
    const clinic = (await t.login('clinic3', 'institution')).key;
    expect((await t.call('GET', '/schematic/list', { key: clinic })).datas.error).toMatch(/permission/);
    const reader = await t.adminWith('schematicreader', ['Schematic', 'SchematicManage']);
    const list = await t.call('GET', '/schematic/list', { key: reader });
    expect(list.code).toBe(200);
    const id = list.datas.list.find((s: any) => s.title.en === 'Measurement map: the 12 source points').id;
    expect((await t.call('GET', '/schematic/detail', { key: reader, query: { id } })).code).toBe(200);
    for (const [p, body] of [
      ['/schematic/save_markers', { id, markers: [] }],
      ['/schematic/del', { id }],
      ['/schematic/add', {}],
    ] as const) {
      const res = await t.call('POST', p, { key: reader, body });
      expect(res.datas.error, p).toBe('You do not have permission for this action');
    }
    expect((await t.call('GET', '/schematic/detail', { key: admin, query: { id } })).datas.marker_count).toBe(24);
  });

  it('audits writes, markers included: the record before and after, no session key', async () => {
    const img = await uploadPng(40, 30);
    const created = await add({ title: title('Audited chart', '审计图'), kind: 'meridian_chart', image: img.url, width: 40, height: 30, markers: [] });
    expect(created.code, created.raw).toBe(200);
    const id = created.datas.id;
    const lu9 = acupointIds.get('LU9')!;
    const saved = await t.call('POST', '/schematic/save_markers', { key: admin, body: { id, markers: [{ acupoint_id: lu9, x: 0.25, y: 0.5 }] } });
    expect(saved.code, saved.raw).toBe(200);
    const [row] = (await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'schematics.saveMarkers'))).filter((r) => r.recordId === id);
    expect(row).toMatchObject({ recordType: 'schematic', path: '/schematic/save_markers', actorName: 'admin' });
    expect(row!.before).toMatchObject({ id, title: { en: 'Audited chart' }, marker_count: 0, markers: [] });
    expect(row!.after).toMatchObject({ id, marker_count: 1, markers: [{ acupoint_id: lu9, x: 0.25, y: 0.5 }] });
    expect(JSON.stringify(row)).not.toContain(admin);
  });
});

import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { auditLog, devices } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
});
afterAll(async () => {
  await t?.close();
});

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

describe('add, edit, disable, reset secret', () => {
  it('adds a device in stock, answers the secret once and stores only its SHA-256', async () => {
    const res = await t.call('POST', '/equipment/add', { key: admin, body: { serial: ' be-new-0001 ', model: 'BE-100', name: 'New unit' } });
    expect(res.code).toBe(200);
    expect(Object.keys(res.datas).sort()).toEqual(['id', 'secret']);
    expect(res.datas.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await t.db.select().from(devices).where(eq(devices.id, res.datas.id));
    expect(row).toMatchObject({ serial: 'BE-NEW-0001', status: 'inactive', institutionId: null });
    expect(row!.secretHash).toBe(sha256(res.datas.secret));
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.recordId, res.datas.id));
    expect(JSON.stringify(audit)).not.toContain(res.datas.secret);
    expect(JSON.stringify(audit)).not.toContain(row!.secretHash);

    const again = await t.call('POST', '/equipment/add', { key: admin, body: { serial: 'BE-NEW-0001', model: 'BE-100', name: 'Twice' } });
    expect(again.code).toBe(400);
    expect(again.datas.fields.serial).toContain('BE-NEW-0001');
    const dotted = await t.call('POST', '/equipment/add', { key: admin, body: { serial: 'BE.1', model: 'BE-100', name: 'Dot' } });
    expect(dotted.code).toBe(400);
    expect(dotted.datas.fields.serial).toBeTruthy();
  });

  it('edits name, model and remark; disables and enables; resets the secret', async () => {
    const { datas } = await t.call('POST', '/equipment/add', { key: admin, body: { serial: 'BE-NEW-0002', model: 'BE-100', name: 'Unit' } });
    const edit = await t.call('POST', '/equipment/edit', { key: admin, body: { id: datas.id, model: 'BE-300', name: 'Renamed', remark: 'r' } });
    expect(edit.code).toBe(200);
    const off = await t.call('POST', '/equipment/status', { key: admin, body: { id: datas.id, enabled: false } });
    expect(off.code).toBe(200);
    let [row] = await t.db.select().from(devices).where(eq(devices.id, datas.id));
    expect(row).toMatchObject({ model: 'BE-300', name: 'Renamed', remark: 'r', status: 'disabled', serial: 'BE-NEW-0002' });
    await t.call('POST', '/equipment/status', { key: admin, body: { id: datas.id, enabled: true } });
    [row] = await t.db.select().from(devices).where(eq(devices.id, datas.id));
    expect(row!.status).toBe('inactive');

    const reset = await t.call('POST', '/equipment/reset_secret', { key: admin, body: { id: datas.id } });
    expect(reset.code).toBe(200);
    expect(Object.keys(reset.datas)).toEqual(['secret']);
    expect(reset.datas.secret).not.toBe(datas.secret);
    [row] = await t.db.select().from(devices).where(eq(devices.id, datas.id));
    expect(row!.secretHash).toBe(sha256(reset.datas.secret));
  });

  it('institutions and the read-only auditor cannot use the lifecycle buttons', async () => {
    const [device] = await t.db.select().from(devices).limit(1);
    for (const [user, kind] of [
      ['clinic3', 'institution'],
      ['agent1', 'institution'],
      ['auditor', 'admin'],
    ] as const) {
      const { key } = await t.login(user, kind);
      const res = await t.call('POST', '/equipment/reset_secret', { key, body: { id: device!.id } });
      expect(res.code).toBe(400);
      expect(res.datas.error).toMatch(/permission/);
      const add = await t.call('POST', '/equipment/add', { key, body: { serial: 'BE-EVIL-1', model: 'x', name: 'x' } });
      expect(add.datas.error).toMatch(/permission/);
    }
    expect(await t.db.select().from(devices).where(eq(devices.serial, 'BE-EVIL-1'))).toEqual([]);
  });
});

describe('batch import', () => {
  it('imports a CSV of serials with a title row; every device gets its own secret', async () => {
    const csv = '\uFEFFserial,model,name\r\nbe-csv-001,BE-100,Room 1\r\n"BE-CSV-002",,\r\n\r\nBE-CSV-003,"BE-2,00",Q\r\n';
    const res = await t.call('POST', '/equipment/import', { key: admin, body: { format: 'csv', file: b64(csv), model: 'BE-DEF' } });
    expect(res.code).toBe(200);
    expect(res.datas.count).toBe(3);
    const rows = await t.db
      .select()
      .from(devices)
      .where(inArray(devices.serial, ['BE-CSV-001', 'BE-CSV-002', 'BE-CSV-003']));
    expect(rows.map((r) => [r.serial, r.model, r.name]).sort()).toEqual([
      ['BE-CSV-001', 'BE-100', 'Room 1'],
      ['BE-CSV-002', 'BE-DEF', 'BE-CSV-002'],
      ['BE-CSV-003', 'BE-2,00', 'Q'],
    ]);
    for (const d of res.datas.devices) expect(rows.find((r) => r.serial === d.serial)!.secretHash).toBe(sha256(d.secret));
  });

  it('refuses the whole file naming each bad row and its reason; nothing is stored', async () => {
    const csv = ['serial', 'BE-BAD-001', 'BE240001', 'x', 'BE-BAD-001', 'BE.DOT', 'BE-BAD-002'].join('\n');
    const res = await t.call('POST', '/equipment/import', { key: admin, body: { format: 'csv', file: b64(csv), model: 'BE-100' } });
    expect(res.code).toBe(400);
    expect(res.datas.error).toContain('4 rows');
    expect(Object.keys(res.datas.fields)).toEqual(['row.3', 'row.4', 'row.5', 'row.6']);
    expect(res.datas.fields['row.3']).toContain('already exists');
    expect(res.datas.fields['row.5']).toContain('row 2');
    expect(
      await t.db
        .select()
        .from(devices)
        .where(inArray(devices.serial, ['BE-BAD-001', 'BE-BAD-002'])),
    ).toEqual([]);
    const zh = await t.call('POST', '/equipment/import', { key: admin, lang: 'zh', body: { format: 'csv', file: b64(csv), model: 'BE-100' } });
    expect(zh.datas.fields['row.3']).toContain('已存在');
  });

  it('reads XLSX (first sheet), and refuses empty, unreadable and oversized files', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Devices');
    ws.addRow(['序列号', '型号', '名称']);
    ws.addRow(['BE-XLS-001', 'BE-100', 'A']);
    ws.addRow(['BE-XLS-002', 'BE-100', 'B']);
    const buffer = Buffer.from(await wb.xlsx.writeBuffer());
    const res = await t.call('POST', '/equipment/import', { key: admin, body: { format: 'xlsx', file: buffer.toString('base64') } });
    expect(res.code).toBe(200);
    expect(res.datas.devices.map((d: { serial: string }) => d.serial)).toEqual(['BE-XLS-001', 'BE-XLS-002']);

    expect((await t.call('POST', '/equipment/import', { key: admin, body: { format: 'xlsx', file: b64('not a zip') } })).datas.error).toMatch(/cannot be read/);
    expect((await t.call('POST', '/equipment/import', { key: admin, body: { format: 'csv', file: b64('serial\n\n') } })).datas.error).toMatch(/no serial/);
    const many = Array.from({ length: 5001 }, (_, i) => `BE-MANY-${i}`).join('\n');
    expect((await t.call('POST', '/equipment/import', { key: admin, body: { format: 'csv', file: b64(many), model: 'M' } })).datas.error).toMatch(/5000/);
  });

  it('imports 5,000 rows in one call', async () => {
    const csv = Array.from({ length: 5000 }, (_, i) => `BE-BIG-${String(i).padStart(4, '0')}`).join('\n');
    const res = await t.call('POST', '/equipment/import', { key: admin, body: { format: 'csv', file: b64(csv), model: 'BE-100' } });
    expect(res.code).toBe(200);
    expect(res.datas.count).toBe(5000);
  });
});

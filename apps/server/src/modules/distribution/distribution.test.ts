import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, gte, inArray, isNull } from 'drizzle-orm';
import { auditLog, devices, distributionLines, distributionRecords } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let admin: string;
let inst: Record<string, number>;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
  inst = {};
  for (const u of ['agent1', 'agent2', 'clinic3', 'agent1b', 'agent2b', 'clinic3b', 'overdue3']) inst[u] = await t.institutionId(u);
});
afterAll(async () => {
  await t?.close();
});

async function newDevices(n: number, prefix: string) {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await t.call('POST', '/equipment/add', { key: admin, body: { serial: `${prefix}-${i}`, model: 'BE-100', name: `${prefix} ${i}` } });
    ids.push(res.datas.id);
  }
  return ids;
}
const distribute = (body: Record<string, unknown>, key = admin) => t.call('POST', '/distribution/distribute', { key, body });

describe('moving devices', () => {
  it('stock -> institution -> another -> stock, one record and one line per device each time', async () => {
    const ids = await newDevices(3, 'DIST-A');
    const first = await distribute({ ids, from: null, to: inst.clinic3, remark: 'First delivery' });
    expect(first.code).toBe(200);
    expect(first.datas.count).toBe(3);
    expect((await t.db.select().from(devices).where(inArray(devices.id, ids))).every((d) => d.institutionId === inst.clinic3)).toBe(true);
    expect((await distribute({ ids: ids.slice(0, 2), from: inst.clinic3, to: inst.clinic3b })).code).toBe(200);
    expect((await distribute({ ids: [ids[0]], from: inst.clinic3b, to: null, remark: 'Back' })).code).toBe(200);
    const [d0] = await t.db.select().from(devices).where(eq(devices.id, ids[0]!));
    expect(d0!.institutionId).toBeNull();
    const lines = await t.db.select().from(distributionLines).where(eq(distributionLines.deviceId, ids[0]!)).orderBy(asc(distributionLines.id));
    expect(lines.map((l) => [l.fromInstitutionId, l.toInstitutionId])).toEqual([
      [null, inst.clinic3],
      [inst.clinic3, inst.clinic3b],
      [inst.clinic3b, null],
    ]);
    const [record] = await t.db.select().from(distributionRecords).where(eq(distributionRecords.id, first.datas.id));
    expect(record).toMatchObject({ fromInstitutionId: null, toInstitutionId: inst.clinic3, deviceCount: 3, operatorName: 'admin', remark: 'First delivery' });
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.recordType, 'distribution'));
    expect(audits.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses, naming the serials, devices whose owner is no longer the one the operator saw; nothing moves', async () => {
    const ids = await newDevices(3, 'DIST-B');
    await distribute({ ids: [ids[1]], from: null, to: inst.agent1 });
    const res = await distribute({ ids, from: null, to: inst.clinic3 });
    expect(res.code).toBe(400);
    expect(res.datas.error).toContain('DIST-B-1');
    expect(res.datas.error).not.toContain('DIST-B-0');
    const rows = await t.db.select().from(devices).where(inArray(devices.id, ids));
    expect(rows.filter((d) => d.institutionId === inst.clinic3)).toEqual([]);
  });

  it('refuses a missing or disabled destination, the same source and destination, and an empty selection', async () => {
    const [id] = await newDevices(1, 'DIST-C');
    expect((await distribute({ ids: [id], from: null, to: 2_000_000_000 })).datas.fields.to).toBeTruthy();
    expect((await distribute({ ids: [id], from: null, to: null })).code).toBe(400);
    expect((await distribute({ ids: [], from: null, to: inst.clinic3 })).code).toBe(400);
    expect((await distribute({ ids: [2_000_000_000], from: null, to: inst.clinic3 })).code).toBe(400);
  });

  it('is for the platform only: institutions cannot move devices', async () => {
    const [id] = await newDevices(1, 'DIST-D');
    for (const user of ['agent1', 'agent2', 'clinic3', 'agent1b']) {
      const { key } = await t.login(user, 'institution');
      const res = await distribute({ ids: [id], from: null, to: inst[user] }, key);
      expect(res.datas.error).toMatch(/permission/);
      expect((await t.call('GET', '/distribution/list', { key })).datas.error).toMatch(/permission/);
    }
    const [row] = await t.db.select().from(devices).where(eq(devices.id, id!));
    expect(row!.institutionId).toBeNull();
  });

  it('20 concurrent moves of one device to different institutions: exactly one wins, one owner, consistent lines', async () => {
    const [id] = await newDevices(1, 'DIST-RACE');
    const targets = Object.values(inst);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => distribute({ ids: [id], from: null, to: targets[i % targets.length] })));
    const won = results.filter((r) => r.code === 200);
    expect(won).toHaveLength(1);
    for (const r of results.filter((r) => r.code !== 200)) expect(r.datas.error).toContain('DIST-RACE-0');
    const [row] = await t.db.select().from(devices).where(eq(devices.id, id!));
    const lines = await t.db.select().from(distributionLines).where(eq(distributionLines.deviceId, id!));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.fromInstitutionId).toBeNull();
    expect(row!.institutionId).toBe(lines[0]!.toInstitutionId);
  });

  it('concurrent moves along a chain keep each line starting where the previous one ended', async () => {
    const [id] = await newDevices(1, 'DIST-CHAIN');
    const hops: [number | null, number | null][] = [
      [null, inst.agent1!],
      [inst.agent1!, inst.agent2!],
      [inst.agent2!, inst.clinic3!],
      [inst.clinic3!, null],
    ];
    // Sent all at once, in any order: each succeeds only when its `from` is the owner at that moment.
    for (let round = 0; round < 4; round++) await Promise.all(hops.map(([from, to]) => distribute({ ids: [id], from, to })));
    const lines = await t.db.select().from(distributionLines).where(eq(distributionLines.deviceId, id!)).orderBy(asc(distributionLines.id));
    for (let i = 1; i < lines.length; i++) expect(lines[i]!.fromInstitutionId).toBe(lines[i - 1]!.toInstitutionId);
    const [row] = await t.db.select().from(devices).where(eq(devices.id, id!));
    expect(row!.institutionId).toBe(lines.at(-1)!.toInstitutionId);
  });
});

describe('records list and export', () => {
  it('lists devices, from, to, operator, time and remark, filtered by institution, serial and dates', async () => {
    const ids = await newDevices(2, 'DIST-LIST');
    await distribute({ ids, from: null, to: inst.agent2b, remark: 'For agent2b' });
    const all = await t.call('GET', '/distribution/list', { key: admin, query: { limit: 100 } });
    expect(all.code).toBe(200);
    const row = all.datas.list.find((r: { remark: string }) => r.remark === 'For agent2b');
    expect(row).toMatchObject({
      from_institution_id: null,
      from_institution_name: null,
      to_institution_id: inst.agent2b,
      device_count: 2,
      serials: ['DIST-LIST-0', 'DIST-LIST-1'],
      operator_name: 'admin',
    });
    const bySerial = await t.call('GET', '/distribution/list', { key: admin, query: { serial: 'dist-list-1' } });
    expect(bySerial.datas.list.map((r: { id: number }) => r.id)).toEqual([row.id]);
    const byInst = await t.call('GET', '/distribution/list', { key: admin, query: { institution_id: inst.agent2b, limit: 100 } });
    expect(byInst.datas.list.every((r: { from_institution_id: number; to_institution_id: number }) => r.from_institution_id === inst.agent2b || r.to_institution_id === inst.agent2b)).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    // The demo data's records are dated in the past (modules/distribution/seed.ts); this test's are today's.
    const ofToday = await t.db.$count(distributionRecords, gte(distributionRecords.createdAt, new Date(`${today}T00:00:00Z`)));
    expect((await t.call('GET', '/distribution/list', { key: admin, query: { date_from: today, date_to: today } })).datas.total).toBe(ofToday);
    expect((await t.call('GET', '/distribution/list', { key: admin, query: { date_to: '2020-01-01' } })).datas.total).toBe(0);
  });

  it('exports CSV and XLSX with titles in the reader language', async () => {
    const csv = await t.call('GET', '/distribution/export', { key: admin, query: { format: 'csv', serial: 'DIST-LIST' }, lang: 'zh' });
    expect(csv.status).toBe(200);
    expect(csv.raw).toContain('来源');
    expect(csv.raw).toContain('DIST-LIST-0 DIST-LIST-1');
    expect(csv.raw).toContain('平台库存');
    const xlsx = await t.app.inject({ method: 'GET', url: '/adminapi/distribution/export', query: { key: admin, format: 'xlsx' } });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
  });

  it('stock devices stay in stock unless moved', async () => {
    const stock = await t.db.select().from(devices).where(isNull(devices.institutionId));
    expect(stock.length).toBeGreaterThan(0);
  });
});

import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INT_MAX } from '@app/contract';
import { activationCodes, auditLog, codeBatches, devices } from '../db/schema';
import { createTestApp, type TestApp } from '../test/harness';

/*
 * Bulk actions (contract api/bulk.ts): devices enable/disable and codes void, each row by its single action's
 * own function, per row, refused rows named with the reason.
 */

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
});
afterAll(() => t?.close());

const bulkStatus = (key: string, ids: unknown, enabled: boolean, lang?: string) => t.call('POST', '/equipment/bulk_status', { key, body: { ids, enabled }, lang });
const bulkVoid = (key: string, ids: unknown, lang?: string) => t.call('POST', '/activation_code/bulk_void', { key, body: { ids }, lang });

async function someDevices(n: number) {
  return t.db.select({ id: devices.id, serial: devices.serial, status: devices.status }).from(devices).orderBy(devices.id).limit(n);
}

async function newBatch(count: number) {
  const res = await t.call('POST', '/activation_code/generate', { key: admin, body: { scope: 'institution', days: 30, count } });
  expect(res.code, res.raw).toBe(200);
  const [batch] = await t.db.select().from(codeBatches).where(eq(codeBatches.batchNo, res.datas.batch_no));
  const codes = await t.db.select({ id: activationCodes.id }).from(activationCodes).where(eq(activationCodes.batchId, batch!.id)).orderBy(activationCodes.id);
  return { id: batch!.id, codes: res.datas.codes as string[], ids: codes.map((c) => c.id) };
}
const mask = (code: string) => `${code.slice(0, 4)}-****-****-${code.slice(-4)}`;

describe('devices: bulk enable and disable', () => {
  it('disables each device by the single action, per row; an id naming nothing is refused by id; each done row has its audit row', async () => {
    const picked = await someDevices(3);
    const ids = picked.map((d) => d.id);
    const res = await bulkStatus(admin, [...ids, INT_MAX, ids[0]], false);
    expect(res.code, res.raw).toBe(200);
    expect(res.datas.mode).toBe('per_row');
    expect(res.datas.done).toEqual(picked.map((d) => ({ id: d.id, name: d.serial })));
    expect(res.datas.refused).toEqual([{ id: INT_MAX, name: `#${INT_MAX}`, reason: 'The record does not exist' }]);
    const now = await t.db.select({ status: devices.status }).from(devices).where(inArray(devices.id, ids)).orderBy(devices.id);
    expect(now.map((d) => d.status)).toEqual(['disabled', 'disabled', 'disabled']);
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, 'equipment.bulkStatus'), eq(auditLog.recordType, 'device')));
    // One row per device (before and after), and the call's own row with its input.
    expect(
      rows
        .filter((r) => r.recordId != null)
        .map((r) => r.recordId)
        .sort(),
    ).toEqual([...ids].sort());
    expect(rows.find((r) => r.recordId === ids[0])).toMatchObject({ before: { status: picked[0]!.status }, after: { status: 'disabled' } });
    expect(rows.filter((r) => r.recordId == null)).toHaveLength(1);
    // And back on.
    const on = await bulkStatus(admin, ids, true);
    expect(on.datas.done.map((d: { id: number }) => d.id)).toEqual(ids);
    const back = await t.db.select({ status: devices.status }).from(devices).where(inArray(devices.id, ids)).orderBy(devices.id);
    expect(back.map((d) => d.status)).toEqual(picked.map((d) => d.status));
  });

  it('the same rule and button as the single action: without device:status refused whole, nothing changed', async () => {
    const [d] = await someDevices(1);
    const viewer = await t.adminWith('bulk_viewer', ['DeviceList']);
    const res = await bulkStatus(viewer, [d!.id], false);
    expect(res.code).toBe(400);
    expect(res.datas.error).toMatch(/permission|forbidden|not allowed/i);
    const clinic = (await t.login('clinic3', 'institution')).key;
    expect((await bulkStatus(clinic, [d!.id], false)).datas.error).toMatch(/permission|forbidden|not allowed/i);
    const [still] = await t.db.select({ status: devices.status }).from(devices).where(eq(devices.id, d!.id));
    expect(still!.status).toBe(d!.status);
  });

  it('refuses an empty, oversized or malformed selection: 400, nothing changed', async () => {
    const before = JSON.stringify(await t.db.select({ id: devices.id, status: devices.status }).from(devices).orderBy(devices.id));
    for (const ids of [[], Array.from({ length: 201 }, (_, i) => i + 1), '1,2', [0], ['x'], [1.5]]) {
      const res = await bulkStatus(admin, ids, false);
      expect(res.code, JSON.stringify(ids).slice(0, 40)).toBe(400);
    }
    expect((await bulkStatus(admin, [], false, 'zh')).datas.error).toContain('请至少选择一行');
    expect(JSON.stringify(await t.db.select({ id: devices.id, status: devices.status }).from(devices).orderBy(devices.id))).toBe(before);
  });
});

describe('codes: bulk void', () => {
  it('voids unused codes of several batches; used, void and unknown codes are refused by name with the reason', async () => {
    const one = await newBatch(3);
    const two = await newBatch(2);
    // One code of the first batch is already void, one is used by an institution.
    await t.db.update(activationCodes).set({ status: 'void', voidedAt: new Date() }).where(eq(activationCodes.id, one.ids[0]!));
    await t.db.update(activationCodes).set({ status: 'used', usedAt: new Date() }).where(eq(activationCodes.id, one.ids[1]!));
    const res = await bulkVoid(admin, [...two.ids, ...one.ids, INT_MAX], 'en');
    expect(res.code, res.raw).toBe(200);
    expect(res.datas.mode).toBe('per_row');
    expect(res.datas.done).toEqual([
      { id: one.ids[2], name: mask(one.codes[2]!) },
      { id: two.ids[0], name: mask(two.codes[0]!) },
      { id: two.ids[1], name: mask(two.codes[1]!) },
    ]);
    expect(res.datas.refused).toEqual([
      { id: one.ids[0], name: mask(one.codes[0]!), reason: 'There is no unused code to void' },
      { id: one.ids[1], name: mask(one.codes[1]!), reason: 'There is no unused code to void' },
      { id: INT_MAX, name: `#${INT_MAX}`, reason: 'The record does not exist' },
    ]);
    const states = await t.db
      .select({ id: activationCodes.id, status: activationCodes.status })
      .from(activationCodes)
      .where(inArray(activationCodes.id, [...one.ids, ...two.ids]))
      .orderBy(activationCodes.id);
    expect(states.map((s) => s.status)).toEqual(['void', 'used', 'void', 'void', 'void']);
    // The reasons in the caller's language.
    const zh = await bulkVoid(admin, [one.ids[1]], 'zh');
    expect(zh.datas.refused[0].reason).toBe('没有可作废的未使用激活码');
  });

  it('two bulk voids of the same codes at once: each code voided once, the other call reports it refused', async () => {
    const batch = await newBatch(6);
    const [a, b] = await Promise.all([bulkVoid(admin, batch.ids), bulkVoid(admin, [...batch.ids].reverse())]);
    expect(a.code, a.raw).toBe(200);
    expect(b.code, b.raw).toBe(200);
    const doneA = a.datas.done.map((r: { id: number }) => r.id);
    const doneB = b.datas.done.map((r: { id: number }) => r.id);
    expect([...doneA, ...doneB].sort((x, y) => x - y)).toEqual(batch.ids);
    expect(a.datas.refused.length + b.datas.refused.length).toBe(batch.ids.length);
    const voided = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, 'codes.bulkVoid'), eq(auditLog.recordType, 'activation_code'), inArray(auditLog.recordId, batch.ids)));
    expect(voided).toHaveLength(batch.ids.length);
  });
});

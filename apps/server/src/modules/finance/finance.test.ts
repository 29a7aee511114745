import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, devicePayments, devices, financeAccounts, institutions, ledgerEntries, packages, payouts, uploads } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { solidPng } from '../schematics';
import { recordDevicePayment } from './index';
import { DAY } from '../../lib/time';

/*
 * Money (issue 11 items 5-9): device payments (idempotent, commissions half-up per line, the remainder
 * the platform's), refunds, the append-only ledger and its summary, payouts (hold, approve, reject,
 * cancel, exactly once), the device payments list with totals and export, scoping, and the concurrency
 * rules on real PostgreSQL: 50 deliveries of one order credit once, 50 applications never overdraw.
 */

let t: TestApp;
let admin: string;
let inst: Record<string, number>;
let keys: Record<string, string>;
let clinicDevice: number;
let clinicbDevice: number;
let oddPackage: number;
let timePackage: number;
let tiePackage: number;
let seq = 0;
const orderNo = () => `T${Date.now()}-${++seq}`;

const pay = (deviceId: number, packageId: number, amountCents: number, extra: Partial<{ orderNo: string; channel: string; paidAt: Date; endUserId: number | null }> = {}) =>
  t.db.transaction((tx) =>
    recordDevicePayment(tx, {
      deviceId,
      packageId,
      amountCents,
      orderNo: extra.orderNo ?? orderNo(),
      channel: extra.channel ?? 'wechat',
      paidAt: extra.paidAt ?? new Date('2026-11-01T08:00:00Z'),
      endUserId: extra.endUserId,
    }),
  );
const balance = async (id: number) => Number((await t.db.select().from(financeAccounts).where(eq(financeAccounts.institutionId, id)))[0]?.balanceCents ?? 0);
const ledgerSum = async (id: number) =>
  Number(((await t.db.execute(sql`select coalesce(sum(amount_cents), 0)::bigint as s from ledger_entries where institution_id = ${id}`)) as unknown as { rows: { s: number }[] }).rows[0]!.s);
const summaryOf = async (key: string, query: Record<string, unknown> = {}) => (await t.call('GET', '/finance/summary', { key, query })).datas;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
  const rows = await t.db.select({ id: institutions.id, username: institutions.username }).from(institutions);
  inst = Object.fromEntries(rows.map((r) => [r.username, r.id]));
  keys = {};
  for (const u of ['agent1', 'agent2', 'clinic3', 'agent1b', 'agent2b']) keys[u] = (await t.login(u, 'institution')).key;
  const [d] = await t.db.insert(devices).values({ serial: 'FIN-TEST-1', institutionId: inst.clinic3!, status: 'active', remainingUses: 5 }).returning();
  clinicDevice = d!.id;
  const [db2] = await t.db
    .insert(devices)
    .values({ serial: 'FIN-TEST-2', institutionId: inst.clinic3b!, status: 'active', expiresAt: new Date(Date.now() + 10 * DAY) })
    .returning();
  clinicbDevice = db2!.id;
  const [p1] = await t.db.insert(packages).values({ name: 'Odd 999', kind: 'count', uses: 3, priceCents: 999, commissionRateL1Bp: 1500, commissionRateL2Bp: 750, status: 'on_sale' }).returning();
  oddPackage = p1!.id;
  const [p2] = await t.db.insert(packages).values({ name: 'Week', kind: 'time', days: 7, priceCents: 5_000, commissionRateL1Bp: 2000, commissionRateL2Bp: 1000, status: 'on_sale' }).returning();
  timePackage = p2!.id;
  const [p3] = await t.db.insert(packages).values({ name: 'Tie', kind: 'count', uses: 1, priceCents: 1, commissionRateL1Bp: 5000, commissionRateL2Bp: 5000, status: 'on_sale' }).returning();
  tiePackage = p3!.id;
});
afterAll(async () => {
  await t?.close();
});

describe('device payments', () => {
  it('adds the uses and credits grade 1 and grade 2 half-up per line; the remainder is the platform s (999 at 15% and 7.5%)', async () => {
    const [b1, b2] = [await balance(inst.agent1!), await balance(inst.agent2!)];
    const r = await pay(clinicDevice, oddPackage, 999);
    expect(r).toMatchObject({ remainingUses: 8, expiresAt: null, repeated: false });
    const [row] = await t.db.select().from(devicePayments).where(eq(devicePayments.id, r.recordId));
    // 999 x 0.15 = 149.85 -> 150; 999 x 0.075 = 74.925 -> 75; the platform keeps 774.
    expect(row).toMatchObject({ l1InstitutionId: inst.agent1, l1Cents: 150, l2InstitutionId: inst.agent2, l2Cents: 75, platformCents: 774, status: 'paid', institutionId: inst.clinic3 });
    expect(await balance(inst.agent1!)).toBe(b1 + 150);
    expect(await balance(inst.agent2!)).toBe(b2 + 75);
    const lines = await t.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.refType, 'payment'), eq(ledgerEntries.refId, r.recordId)));
    expect(lines.map((l) => [l.institutionId, l.kind, Number(l.amountCents)]).sort()).toEqual(
      [
        [inst.agent1, 'commission', 150],
        [inst.agent2, 'commission', 75],
      ].sort(),
    );
    const [dev] = await t.db.select().from(devices).where(eq(devices.id, clinicDevice));
    expect(dev!.remainingUses).toBe(8);
  });

  it('rounds a half cent up and never lets two lines exceed the amount (1 cent at 50% + 50%)', async () => {
    const r = await pay(clinicDevice, tiePackage, 1);
    const [row] = await t.db.select().from(devicePayments).where(eq(devicePayments.id, r.recordId));
    expect(row).toMatchObject({ l1Cents: 1, l2Cents: 0, platformCents: 0 });
  });

  it('extends a time package from max(now, expiry), whatever paid_at says', async () => {
    const [before] = await t.db.select().from(devices).where(eq(devices.id, clinicbDevice));
    const r = await pay(clinicbDevice, timePackage, 5_000, { paidAt: new Date(Date.now() - 100 * DAY) });
    expect(r.expiresAt!.getTime()).toBe(before!.expiresAt!.getTime() + 7 * DAY);
    // The second tree: agent1b and agent2b earn 20% and 10%.
    const [row] = await t.db.select().from(devicePayments).where(eq(devicePayments.id, r.recordId));
    expect(row).toMatchObject({ l1InstitutionId: inst.agent1b, l1Cents: 1000, l2InstitutionId: inst.agent2b, l2Cents: 500, platformCents: 3500 });
    // An expired device renews from now.
    await t.db
      .update(devices)
      .set({ expiresAt: new Date(Date.now() - 30 * DAY) })
      .where(eq(devices.id, clinicbDevice));
    const t0 = Date.now();
    const r2 = await pay(clinicbDevice, timePackage, 5_000);
    expect(r2.expiresAt!.getTime()).toBeGreaterThanOrEqual(t0 + 7 * DAY - 5_000);
    expect(r2.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 7 * DAY);
  });

  it('is idempotent by (device, order_no): the same content answers the first result, other content is refused with reason duplicate', async () => {
    const no = orderNo();
    const first = await pay(clinicDevice, oddPackage, 999, { orderNo: no });
    const b1 = await balance(inst.agent1!);
    const again = await pay(clinicDevice, oddPackage, 999, { orderNo: no });
    expect(again).toEqual({ ...first, repeated: true });
    expect(await balance(inst.agent1!)).toBe(b1);
    const [dev] = await t.db.select().from(devices).where(eq(devices.id, clinicDevice));
    expect(dev!.remainingUses).toBe(first.remainingUses);
    const error = await pay(clinicDevice, oddPackage, 999, { orderNo: no, channel: 'alipay' }).catch((e) => e);
    expect(error.messageKey).toBe('paymentDuplicate');
    expect(error.extra.reason).toBe('duplicate');
    // The same order number on another device is another payment.
    await t.db.update(devices).set({ institutionId: inst.clinic3b! }).where(eq(devices.id, clinicbDevice));
    expect((await pay(clinicbDevice, oddPackage, 999, { orderNo: no })).repeated).toBe(false);
  });

  it('refuses a wrong amount, a missing package and a device in stock', async () => {
    expect((await pay(clinicDevice, oddPackage, 998).catch((e) => e)).messageKey).toBe('deviceApiAmount');
    expect((await pay(clinicDevice, 2_000_000, 998).catch((e) => e)).messageKey).toBe('deviceApiPackage');
    const [stock] = await t.db.insert(devices).values({ serial: 'FIN-STOCK', status: 'inactive' }).returning();
    expect((await pay(stock!.id, oddPackage, 999).catch((e) => e)).messageKey).toBe('paymentDeviceMissing');
  });

  it('credits once for 50 concurrent deliveries of one order (50 transactions)', async () => {
    const no = orderNo();
    const [b1, b2] = [await balance(inst.agent1!), await balance(inst.agent2!)];
    const results = await Promise.all(Array.from({ length: 50 }, () => pay(clinicDevice, oddPackage, 999, { orderNo: no })));
    expect(results.filter((r) => !r.repeated)).toHaveLength(1);
    expect(new Set(results.map((r) => r.recordId)).size).toBe(1);
    expect(await balance(inst.agent1!)).toBe(b1 + 150);
    expect(await balance(inst.agent2!)).toBe(b2 + 75);
    expect(await t.db.$count(devicePayments, eq(devicePayments.orderNo, no))).toBe(1);
  });
});

describe('ledger', () => {
  it('is append-only: UPDATE and DELETE of a ledger row are refused by the database', async () => {
    const [row] = await t.db.select().from(ledgerEntries).limit(1);
    await expect(t.db.update(ledgerEntries).set({ amountCents: 1 }).where(eq(ledgerEntries.id, row!.id))).rejects.toThrow();
    await expect(t.db.delete(ledgerEntries).where(eq(ledgerEntries.id, row!.id))).rejects.toThrow();
    await expect(t.db.execute(sql`truncate ledger_entries cascade`)).rejects.toThrow();
  });

  it('refuses a negative balance in the database too (CHECK)', async () => {
    await expect(t.db.update(financeAccounts).set({ balanceCents: -1 }).where(eq(financeAccounts.institutionId, inst.agent1!))).rejects.toThrow();
  });

  it('summary: balance equals the ledger sum; grades 1-2 see their own, grade 0 any or the total', async () => {
    for (const u of ['agent1', 'agent2', 'agent1b']) {
      const s = await summaryOf(keys[u]!, { institution_id: inst.agent1b });
      expect(s.balance_cents).toBe(s.ledger_sum_cents);
      expect(s.balance_cents).toBe(await balance(inst[u]!));
      expect(s.balance_cents).toBe(await ledgerSum(inst[u]!));
    }
    const one = await summaryOf(admin, { institution_id: inst.agent2 });
    expect(one.balance_cents).toBe(await balance(inst.agent2!));
    const all = await summaryOf(admin);
    expect(all.balance_cents).toBe(all.ledger_sum_cents);
    expect(all.balance_cents).toBeGreaterThan(one.balance_cents);
    const pending = await t.db
      .select()
      .from(payouts)
      .where(and(eq(payouts.institutionId, inst.agent2!), eq(payouts.status, 'pending')));
    expect(one.pending_payout_cents).toBe(pending.reduce((s, p) => s + Number(p.amountCents), 0));
  });

  it('GET /finance/list answers the fixed shape, scoped to the subtree', async () => {
    const res = await t.call('GET', '/finance/list', { key: keys.agent2, query: { limit: 100 } });
    expect(res.code).toBe(200);
    expect(Object.keys(res.datas.list[0]).sort()).toEqual(['amount_cents', 'balance_after_cents', 'created_at', 'id', 'institution_id', 'institution_name', 'kind', 'ref_id', 'ref_type']);
    const allowed = [inst.agent2, inst.clinic3, inst.overdue3];
    expect(res.datas.list.every((r: any) => allowed.includes(r.institution_id))).toBe(true);
    expect(typeof res.datas.total).toBe('number');
    // Another tree's institution as a filter is refused; the own subtree's works.
    expect((await t.call('GET', '/finance/list', { key: keys.agent2, query: { institution_id: inst.agent1b } })).datas.error).toMatch(/permission/);
    const filtered = await t.call('GET', '/finance/list', { key: admin, query: { institution_id: inst.agent1, kind: 'commission', limit: 5 } });
    expect(filtered.datas.list.every((r: any) => r.institution_id === inst.agent1 && r.kind === 'commission')).toBe(true);
  });
});

describe('payouts', () => {
  const body = (amount: number) => ({ amount_cents: amount, bank: 'ICBC', account_name: 'Li Na', account_no: '6222 0210 0000 1234' });

  it('applies (grades 1-2, own institution): the hold is posted at once, the account number masked in lists; audited', async () => {
    const before = await balance(inst.agent2!);
    const res = await t.call('POST', '/payout/apply', { key: keys.agent2, body: body(10_000) });
    expect(res.code, res.raw).toBe(200);
    expect(await balance(inst.agent2!)).toBe(before - 10_000);
    const [hold] = await t.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.refType, 'payout'), eq(ledgerEntries.refId, res.datas.id)));
    expect(hold).toMatchObject({ kind: 'payout_hold', amountCents: -10_000, balanceAfterCents: before - 10_000, institutionId: inst.agent2 });
    const list = await t.call('GET', '/payout/list', { key: keys.agent2, query: { status: 'pending' } });
    const row = list.datas.list.find((r: any) => r.id === res.datas.id);
    expect(row).toMatchObject({ account_no: '****1234', status: 'pending', amount_cents: 10_000, institution_name: 'Hangzhou Sub-agency' });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'finance.payoutApply')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ recordType: 'payout', recordId: res.datas.id, actorName: 'agent2' });
    expect(JSON.stringify(audit!.after)).not.toContain('62220210000');
  });

  it('refuses below the minimum, above the balance, bad bank details and grade 3 or the platform, changing nothing', async () => {
    const before = await balance(inst.agent2!);
    const low = await t.call('POST', '/payout/apply', { key: keys.agent2, body: body(9_999), lang: 'zh' });
    expect(low.datas.error).toBe('提现金额不能低于 100.00');
    const high = await t.call('POST', '/payout/apply', { key: keys.agent2, body: body(before + 1) });
    expect(high.datas.error).toMatch(/cannot exceed the available balance/);
    const bad = await t.call('POST', '/payout/apply', { key: keys.agent2, body: { ...body(10_000), account_no: 'x' } });
    expect(bad.datas.fields).toHaveProperty('account_no');
    expect((await t.call('POST', '/payout/apply', { key: keys.clinic3, body: body(10_000) })).datas.error).toMatch(/permission/);
    expect((await t.call('POST', '/payout/apply', { key: admin, body: body(10_000) })).datas.error).toMatch(/grade 1 and grade 2/);
    expect(await balance(inst.agent2!)).toBe(before);
    expect(await ledgerSum(inst.agent2!)).toBe(before);
  });

  it('approves exactly once; rejects with the hold released; the applicant cancels its own (not another s)', async () => {
    const a = (await t.call('POST', '/payout/apply', { key: keys.agent1, body: body(10_000) })).datas.id;
    const b = (await t.call('POST', '/payout/apply', { key: keys.agent1, body: body(12_345) })).datas.id;
    const c = (await t.call('POST', '/payout/apply', { key: keys.agent1, body: body(11_111) })).datas.id;
    const afterHolds = await balance(inst.agent1!);
    const approvals = await Promise.all(Array.from({ length: 5 }, () => t.call('POST', '/payout/approve', { key: admin, body: { id: a, voucher: '/adminapi/uploads/x.png' } })));
    expect(approvals.filter((r) => r.code === 200)).toHaveLength(1);
    expect(approvals.filter((r) => r.code !== 200).every((r) => r.datas.error === 'This payout has already been decided')).toBe(true);
    expect(await balance(inst.agent1!)).toBe(afterHolds);
    expect((await t.call('POST', '/payout/reject', { key: admin, body: { id: b } })).datas.fields).toHaveProperty('reason');
    expect((await t.call('POST', '/payout/reject', { key: admin, body: { id: b, reason: 'Wrong account' } })).code).toBe(200);
    expect(await balance(inst.agent1!)).toBe(afterHolds + 12_345);
    expect((await t.call('POST', '/payout/reject', { key: admin, body: { id: a, reason: 'late' } })).datas.error).toMatch(/already been decided/);
    // agent2 may not cancel agent1's; agent1 cancels its own, once.
    expect((await t.call('POST', '/payout/cancel', { key: keys.agent2, body: { id: c } })).datas.error).toMatch(/does not exist|not found|No such/i);
    expect((await t.call('POST', '/payout/cancel', { key: keys.agent1, body: { id: c } })).code).toBe(200);
    expect((await t.call('POST', '/payout/cancel', { key: keys.agent1, body: { id: c } })).datas.error).toMatch(/already been decided/);
    expect(await balance(inst.agent1!)).toBe(afterHolds + 12_345 + 11_111);
    expect(await balance(inst.agent1!)).toBe(await ledgerSum(inst.agent1!));
    const rows = await t.db.select().from(payouts).where(sql`${payouts.id} in (${a}, ${b}, ${c})`);
    expect(rows.map((r) => [r.id, r.status]).sort()).toEqual(
      [
        [a, 'paid'],
        [b, 'rejected'],
        [c, 'cancelled'],
      ].sort(),
    );
    expect(rows.find((r) => r.id === a)).toMatchObject({ voucher: '/adminapi/uploads/x.png', decidedBy: 'admin' });
  });

  it('a reviewer uploads the voucher image and approves with its URL; an applicant cannot upload; a non-http(s) voucher is refused', async () => {
    t.app.config.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voucher-'));
    /** POST /payout/upload_voucher with one multipart file. */
    const upload = async (key: string, content: Buffer, filename = 'slip.png') => {
      const boundary = '----voucher-test';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${filename}"\r\ncontent-type: image/png\r\n\r\n`),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await t.app.inject({ method: 'POST', url: `/adminapi/payout/upload_voucher?key=${key}`, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
      return res.json() as { code: number; datas: any };
    };
    const stored = async () => (await t.db.select({ name: uploads.name }).from(uploads)).length;
    const up = await upload(admin, solidPng(40, 20));
    expect(up.code).toBe(200);
    expect(up.datas).toMatchObject({ type: 'image/png', width: 40, height: 20, original_name: 'slip.png' });
    expect(up.datas.url).toMatch(/^\/adminapi\/uploads\/[0-9a-f]{32}\.png$/);
    expect(await stored()).toBe(1);
    // The applicant (payout:apply, not payout:review) may not store files; an HTML page named .png is not an image.
    expect((await upload(keys.agent1!, solidPng(4, 4))).datas.error).toMatch(/permission/);
    expect((await upload(admin, Buffer.from('<html><script>alert(1)</script></html>'))).code).toBe(400);
    expect(await stored()).toBe(1);
    // The file is served back as an image.
    const served = await t.app.inject({ method: 'GET', url: up.datas.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(solidPng(40, 20))).toBe(true);
    // Stored in the database only: nothing under DATA_DIR.
    expect(fs.readdirSync(t.app.config.dataDir)).toEqual([]);
    fs.rmSync(t.app.config.dataDir, { recursive: true });

    const id = (await t.call('POST', '/payout/apply', { key: keys.agent1, body: body(10_000) })).datas.id;
    for (const voucher of ['javascript:alert(1)', '/etc/passwd', 'data:text/html,x', '/adminapi/uploads/../secret']) {
      const refused = await t.call('POST', '/payout/approve', { key: admin, body: { id, voucher } });
      expect(refused.code, voucher).toBe(400);
      expect(refused.datas.fields?.voucher, voucher).toMatch(/uploaded image or an http\(s\) link/);
    }
    expect((await t.db.select().from(payouts).where(eq(payouts.id, id)))[0]!.status).toBe('pending');
    expect((await t.call('POST', '/payout/approve', { key: admin, body: { id, voucher: up.datas.url } })).code).toBe(200);
    expect((await t.db.select().from(payouts).where(eq(payouts.id, id)))[0]).toMatchObject({ status: 'paid', voucher: up.datas.url });
    // The list shows the voucher to the applicant.
    const listed = (await t.call('GET', '/payout/list', { key: keys.agent1, query: { page: 1, limit: 50 } })).datas.list.find((r: { id: number }) => r.id === id);
    expect(listed.voucher).toBe(up.datas.url);
  });

  it('50 concurrent applications against one balance never overdraw', async () => {
    // agent2b: its balance is what the seed left; each application takes a tenth of it (at least the minimum).
    const start = await balance(inst.agent2b!);
    const amount = Math.max(10_000, Math.floor(start / 10));
    const results = await Promise.all(Array.from({ length: 50 }, () => t.call('POST', '/payout/apply', { key: keys.agent2b, body: body(amount) })));
    const ok = results.filter((r) => r.code === 200).length;
    expect(ok).toBe(Math.floor(start / amount));
    expect(results.filter((r) => r.code !== 200).every((r) => /cannot exceed/.test(r.datas.error))).toBe(true);
    const end = await balance(inst.agent2b!);
    expect(end).toBe(start - ok * amount);
    expect(end).toBeGreaterThanOrEqual(0);
    expect(end).toBe(await ledgerSum(inst.agent2b!));
  });
});

describe('refunds', () => {
  it('reverse the unspent uses and every commission line, exactly once', async () => {
    const r = await pay(clinicDevice, oddPackage, 999);
    const [b1, b2] = [await balance(inst.agent1!), await balance(inst.agent2!)];
    const [dev] = await t.db.select().from(devices).where(eq(devices.id, clinicDevice));
    const res = await t.call('POST', '/device_payment/refund', { key: admin, body: { id: r.recordId, reason: 'Charged twice' } });
    expect(res.code, res.raw).toBe(200);
    expect(await balance(inst.agent1!)).toBe(b1 - 150);
    expect(await balance(inst.agent2!)).toBe(b2 - 75);
    const [after] = await t.db.select().from(devices).where(eq(devices.id, clinicDevice));
    expect(after!.remainingUses).toBe(dev!.remainingUses! - 3);
    const lines = await t.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.refType, 'payment'), eq(ledgerEntries.refId, r.recordId), eq(ledgerEntries.kind, 'refund_reversal')));
    expect(lines.map((l) => Number(l.amountCents)).sort()).toEqual([-150, -75]);
    expect((await t.call('POST', '/device_payment/refund', { key: admin, body: { id: r.recordId, reason: 'again' } })).datas.error).toBe('This payment has already been refunded');
    expect((await t.call('POST', '/device_payment/refund', { key: keys.agent1, body: { id: r.recordId, reason: 'x' } })).datas.error).toMatch(/permission/);
  });

  it('takes back days not yet elapsed, never before now', async () => {
    const [before] = await t.db.select().from(devices).where(eq(devices.id, clinicbDevice));
    const r = await pay(clinicbDevice, timePackage, 5_000);
    expect((await t.call('POST', '/device_payment/refund', { key: admin, body: { id: r.recordId, reason: 'x' } })).code).toBe(200);
    const [after] = await t.db.select().from(devices).where(eq(devices.id, clinicbDevice));
    // The device had days left: it is back where it was before the refunded week.
    expect(before!.expiresAt!.getTime()).toBeGreaterThan(Date.now());
    expect(after!.expiresAt!.getTime()).toBe(before!.expiresAt!.getTime());
    // An expired device: the refunded week is taken back only down to now (elapsed days stay spent).
    await t.db
      .update(devices)
      .set({ expiresAt: new Date(Date.now() - DAY) })
      .where(eq(devices.id, clinicbDevice));
    const r2 = await pay(clinicbDevice, timePackage, 5_000);
    await t.db
      .update(devices)
      .set({ expiresAt: new Date(r2.expiresAt!.getTime() - 3 * DAY) })
      .where(eq(devices.id, clinicbDevice)); // as if 3 days had passed
    const t0 = Date.now();
    expect((await t.call('POST', '/device_payment/refund', { key: admin, body: { id: r2.recordId, reason: 'x' } })).code).toBe(200);
    const [last] = await t.db.select().from(devices).where(eq(devices.id, clinicbDevice));
    expect(last!.expiresAt!.getTime()).toBeGreaterThanOrEqual(t0);
    expect(last!.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('is refused with a message when a reversal would make a balance negative; nothing changes', async () => {
    const r = await pay(clinicDevice, oddPackage, 999);
    // agent2 withdraws everything it has (the minimum allows it only when at least 100.00).
    const all = await balance(inst.agent2!);
    await t.db.transaction(async (tx) => {
      const { post } = await import('./ledger');
      expect(await post(tx, inst.agent2!, -all, 'adjustment', { type: 'manual', id: 1 })).toBe(0);
    });
    const before = await balance(inst.agent1!);
    const res = await t.call('POST', '/device_payment/refund', { key: admin, body: { id: r.recordId, reason: 'x' } });
    expect(res.datas.error).toBe('Cannot refund: the balance of "Hangzhou Sub-agency" cannot cover the commission reversal (balance 0.00, reversal 0.75)');
    expect(await balance(inst.agent1!)).toBe(before);
    const [row] = await t.db.select().from(devicePayments).where(eq(devicePayments.id, r.recordId));
    expect(row!.status).toBe('paid');
  });
});

describe('device payments list', () => {
  it('filters, totals every matching row (not only the page), scopes by subtree', async () => {
    const res = await t.call('GET', '/device_payment/list', { key: admin, query: { device_id: clinicDevice, limit: 2 } });
    expect(res.code, res.raw).toBe(200);
    const all = await t.db.select().from(devicePayments).where(eq(devicePayments.deviceId, clinicDevice));
    expect(res.datas.list).toHaveLength(2);
    expect(res.datas.total).toBe(all.length);
    expect(res.datas.totals).toEqual({
      count: all.length,
      amount_cents: all.reduce((s, p) => s + Number(p.amountCents), 0),
      refunded_cents: all.filter((p) => p.status === 'refunded').reduce((s, p) => s + Number(p.amountCents), 0),
      commission_cents: all.filter((p) => p.status === 'paid').reduce((s, p) => s + Number(p.l1Cents) + Number(p.l2Cents), 0),
    });
    const refunded = await t.call('GET', '/device_payment/list', { key: admin, query: { device_id: clinicDevice, status: 'refunded' } });
    expect(refunded.datas.list.every((r: any) => r.status === 'refunded')).toBe(true);
    // agent1b sees nothing of clinic3's device; clinic3 sees it (the per-device page).
    expect((await t.call('GET', '/device_payment/list', { key: keys.agent1b, query: { device_id: clinicDevice } })).datas.total).toBe(0);
    expect((await t.call('GET', '/device_payment/list', { key: keys.clinic3, query: { device_id: clinicDevice } })).datas.total).toBe(all.length);
    const seen = await t.call('GET', '/device_payment/list', { key: keys.agent1b, query: { limit: 100 } });
    const tree = [inst.agent1b, inst.agent2b, inst.clinic3b];
    expect(seen.datas.list.every((r: any) => tree.includes(r.institution_id))).toBe(true);
    const dated = await t.call('GET', '/device_payment/list', { key: admin, query: { date_from: '2026-11-01', date_to: '2026-11-01', channel: 'wechat', package_id: oddPackage } });
    expect(dated.datas.list.every((r: any) => r.paid_at.startsWith('2026-11-01') && r.channel === 'wechat' && r.package_id === oddPackage)).toBe(true);
    expect(dated.datas.total).toBeGreaterThan(0);
  });

  it('shows a grade-2 institution its own commission line only, a clinic none; grade 1 and the platform see every line', async () => {
    const q = { device_id: clinicDevice, status: 'paid', limit: 5 };
    const two = await t.call('GET', '/device_payment/list', { key: keys.agent2, query: q });
    expect(two.datas.list.length).toBeGreaterThan(0);
    expect(two.datas.list.every((r: any) => r.l1_cents === null && r.l1_institution_id === null && r.platform_cents === null && typeof r.l2_cents === 'number')).toBe(true);
    expect(two.datas.list.every((r: any) => r.l2_institution_id === inst.agent2)).toBe(true);
    // A clinic sees the payments of its own devices, but not one of its ancestors' figures nor their ids.
    const three = await t.call('GET', '/device_payment/list', { key: keys.clinic3, query: q });
    expect(three.datas.list.length).toBe(two.datas.list.length);
    for (const r of three.datas.list) {
      expect([r.l1_institution_id, r.l1_cents, r.l2_institution_id, r.l2_cents, r.platform_cents]).toEqual([null, null, null, null, null]);
    }
    expect(three.datas.totals.commission_cents).toBeNull();
    expect(three.datas.totals.amount_cents).toBe(two.datas.totals.amount_cents);
    const one = await t.call('GET', '/device_payment/list', { key: keys.agent1, query: q });
    expect(one.datas.list.every((r: any) => typeof r.l1_cents === 'number' && typeof r.platform_cents === 'number')).toBe(true);
    const paid = await t.db
      .select()
      .from(devicePayments)
      .where(and(eq(devicePayments.deviceId, clinicDevice), eq(devicePayments.status, 'paid')));
    expect(two.datas.totals.commission_cents).toBe(paid.reduce((s, p) => s + Number(p.l2Cents), 0));
    expect(one.datas.totals.commission_cents).toBe(paid.reduce((s, p) => s + Number(p.l1Cents) + Number(p.l2Cents), 0));
  });

  it('exports the filtered rows as CSV with titles in the caller s language', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/adminapi/device_payment/export',
      query: { key: admin, format: 'csv', device_id: String(clinicDevice) },
      headers: { 'accept-language': 'zh' },
    });
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain('订单号');
    expect(lines).toHaveLength(1 + (await t.db.$count(devicePayments, eq(devicePayments.deviceId, clinicDevice))));
  });

  it("exports to a grade-2 institution its own commission column only, not its parent's nor the platform's", async () => {
    const csv = async (key: string) => {
      const res = await t.app.inject({ method: 'GET', url: '/adminapi/device_payment/export', query: { key, format: 'csv', device_id: String(clinicDevice) }, headers: { 'accept-language': 'en' } });
      expect(res.statusCode).toBe(200);
      return res.body.replace(/^\uFEFF/, '').split('\r\n')[0]!;
    };
    const one = await csv(keys.agent1!);
    expect(one).toContain('Grade-1 commission');
    expect(one).toContain('Platform share');
    const two = await csv(keys.agent2!);
    expect(two).toContain('Grade-2 commission');
    expect(two).not.toContain('Grade-1 commission');
    expect(two).not.toContain('Platform share');
  });
});

describe('demo data', () => {
  it('every balance equals its ledger sum; payouts exist in every state', async () => {
    const bad = await t.db.execute(sql`select a.institution_id from finance_accounts a
      left join (select institution_id, sum(amount_cents) s from ledger_entries group by institution_id) l on l.institution_id = a.institution_id
      where a.balance_cents <> coalesce(l.s, 0)`);
    expect((bad as unknown as { rows: unknown[] }).rows).toEqual([]);
    const states = await t.db.selectDistinct({ s: payouts.status }).from(payouts);
    expect(states.map((s) => s.s).sort()).toEqual(['cancelled', 'paid', 'pending', 'rejected']);
    expect(await t.db.$count(devicePayments, eq(devicePayments.status, 'refunded'))).toBeGreaterThan(0);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, asc, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, normalizeCode } from '@app/contract';
import { activationCodes, activationRecords, auditLog, codeBatches, devices, institutions, packages, sessions } from '../../db/schema';
import { PAIR } from '../../lib/throttle';
import { createTestApp, type TestApp } from '../../test/harness';
import { codeKeys } from './key';
import { DAY } from '../../lib/time';

/*
 * Activation codes (issue 10 items 4-8): generation, lists, void, assignment, export, redemption of
 * institution and device codes (exactly once, refusals that say why, throttling), the overdue
 * institution's way back in, and the activation records with their scope and export.
 */

const CODE_RE = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/;
const MASK_RE = /^[0-9A-HJKMNP-TV-Z]{4}-\*{4}-\*{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

let t: TestApp;
let admin: string;
let inst: Record<string, number>;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
  const rows = await t.db.select({ id: institutions.id, username: institutions.username }).from(institutions);
  inst = Object.fromEntries(rows.map((r) => [r.username, r.id]));
});
afterAll(async () => {
  await t?.close();
});

let ipSeq = 0;
/** A fresh client address: the redemption throttle counts per address, so each test decides what it shares. */
const freshIp = () => {
  ipSeq++;
  return `10.77.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
};

interface Answer {
  status: number;
  code: number;
  datas: any;
  raw: string;
  body: Buffer;
  headers: Record<string, unknown>;
}

async function send(method: 'GET' | 'POST', url: string, key: string | null, input: Record<string, unknown> = {}, opts: { ip?: string; lang?: string } = {}): Promise<Answer> {
  const payload = { ...input, ...(key ? { key } : {}) };
  const res = await t.app.inject({
    method,
    url: `${API_BASE}${url}`,
    ...(method === 'GET' ? { query: Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, String(v)])) } : { payload }),
    headers: { 'accept-language': opts.lang ?? 'en' },
    remoteAddress: opts.ip ?? freshIp(),
  });
  let json: any = {};
  try {
    json = res.json();
  } catch {
    /* a file */
  }
  return { status: res.statusCode, code: json.code, datas: json.datas, raw: res.body, body: res.rawPayload, headers: res.headers };
}

const generate = (body: Record<string, unknown>, lang?: string) => send('POST', '/activation_code/generate', admin, body, { lang });
const redeem = (key: string, code: string, opts: { ip?: string; lang?: string } = {}) => send('POST', '/base_index/use_activation_code_institution', key, { code }, opts);
const redeemDevice = (key: string, id: number, code: string, opts: { ip?: string; lang?: string } = {}) => send('POST', '/base_index/use_activation_code_device', key, { id, code }, opts);
const institutionKey = async (username: string) => (await t.login(username, 'institution')).key;

async function newBatch(body: Record<string, unknown>) {
  const res = await generate({ scope: 'institution', days: 30, count: 2, ...body });
  expect(res.code, res.raw).toBe(200);
  const [batch] = await t.db.select().from(codeBatches).where(eq(codeBatches.batchNo, res.datas.batch_no));
  return { ...res.datas, id: batch!.id } as { batch_no: string; codes: string[]; id: number };
}
/** A code's lookup value, as the server computes it with its key. */
const lookupOf = (code: string) => codeKeys({ dataDir: t.app.config.dataDir }).lookup(normalizeCode(code));
const termOf = async (username: string) => (await t.db.select({ term: institutions.termExpiresAt }).from(institutions).where(eq(institutions.id, inst[username]!)))[0]!.term;

describe('generate', () => {
  it('answers exactly { batch_no, codes } with 80-bit grouped codes, and stores none of them in clear', async () => {
    const res = await generate({ scope: 'institution', days: 365, count: 5, remark: 'First' });
    expect(res.code).toBe(200);
    expect(Object.keys(JSON.parse(res.raw).datas)).toEqual(['batch_no', 'codes']);
    expect(res.datas.batch_no).toMatch(/^AC\d{8}-\d{4}$/);
    expect(res.datas.codes).toHaveLength(5);
    for (const c of res.datas.codes) expect(c).toMatch(CODE_RE);
    expect(new Set(res.datas.codes).size).toBe(5);

    // A dump of the database holds no code: not in the codes table, the batch, or the audit trail.
    const dump = JSON.stringify([await t.db.select().from(activationCodes), await t.db.select().from(codeBatches), await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'codes.generate'))]);
    for (const c of res.datas.codes as string[]) {
      expect(dump).not.toContain(c);
      expect(dump).not.toContain(normalizeCode(c));
    }
    const [batch] = await t.db.select().from(codeBatches).where(eq(codeBatches.batchNo, res.datas.batch_no));
    expect(batch).toMatchObject({ scope: 'institution', days: 365, packageId: null, count: 5, remark: 'First', ownerInstitutionId: null });

    // The audit row names the batch and shows it after, with its counts.
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'codes.generate')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ recordType: 'code_batch', recordId: batch!.id, actorName: 'admin' });
    expect(audit!.after).toMatchObject({ batch_no: res.datas.batch_no, count: 5, unused: 5, used: 0 });
  });

  it('makes device batches of days or of a package, and up to 10 000 codes at once', async () => {
    const [pack] = await t.db.select().from(packages).where(eq(packages.name, '30 inspections'));
    const byPackage = await generate({ scope: 'device', package_id: pack!.id, count: 3, valid_until: new Date(Date.now() + 30 * DAY).toISOString() });
    expect(byPackage.code).toBe(200);
    expect((await generate({ scope: 'device', days: 90, count: 1 })).code).toBe(200);
    const big = await generate({ scope: 'device', days: 7, count: 10_000 });
    expect(big.code).toBe(200);
    expect(big.datas.codes).toHaveLength(10_000);
    expect(new Set(big.datas.codes).size).toBe(10_000);
  });

  it('refuses what a batch cannot be, field by field, in the caller’s language', async () => {
    const fields = async (body: Record<string, unknown>, lang?: string) => {
      const res = await generate(body, lang);
      expect(res.code, JSON.stringify(body)).toBe(400);
      return res.datas.fields ?? {};
    };
    expect((await fields({ scope: 'institution', count: 1 })).days).toMatch(/needs a number of days/);
    expect((await fields({ scope: 'institution', count: 1 }, 'zh-CN')).days).toMatch(/机构激活码必须填写天数/);
    expect((await fields({ scope: 'institution', days: 1, package_id: 1, count: 1 })).package_id).toMatch(/not packages/);
    expect((await fields({ scope: 'device', count: 1 })).days).toMatch(/either days or a package/);
    expect((await fields({ scope: 'device', days: 3, package_id: 1, count: 1 })).package_id).toMatch(/either days or a package/);
    expect(await fields({ scope: 'institution', days: 1, count: 0 })).toHaveProperty('count');
    expect(await fields({ scope: 'institution', days: 1, count: 10_001 })).toHaveProperty('count');
    expect(await fields({ scope: 'institution', days: 1, count: '5' })).toHaveProperty('count');
    expect(await fields({ scope: 'institution', days: 3651, count: 1 })).toHaveProperty('days');
    expect(await fields({ scope: 'forever', days: 1, count: 1 })).toHaveProperty('scope');
    expect((await fields({ scope: 'institution', days: 1, count: 1, valid_until: new Date(Date.now() - 1000).toISOString() })).valid_until).toMatch(/future/);
    expect((await fields({ scope: 'device', package_id: 2_000_000, count: 1 })).package_id).toMatch(/package does not exist/);
    expect(await fields({ scope: 'institution', days: 1, count: 1, remark: 'x'.repeat(201) })).toHaveProperty('remark');
  });
});

describe('lists, void and assignment', () => {
  it('lists codes masked, with status (expired computed), filtered by batch, scope, status and owner', async () => {
    const batch = await newBatch({ count: 4 });
    const res = await send('GET', '/activation_code/list', admin, { batch_id: batch.id, sort: 'created_at', order: 'ascend' });
    expect(res.code).toBe(200);
    expect(res.datas.total).toBe(4);
    const masks = new Set(batch.codes.map((c) => `${c.slice(0, 4)}-****-****-${c.slice(-4)}`));
    for (const row of res.datas.list) {
      expect(row.code).toMatch(MASK_RE);
      expect(masks.has(row.code)).toBe(true);
      expect(row).toMatchObject({ batch_no: batch.batch_no, scope: 'institution', days: 30, status: 'unused', owner_institution_id: null });
    }
    expect(res.raw).not.toContain(`${batch.codes[0]!.slice(5, 9)}-${batch.codes[0]!.slice(10, 14)}`);

    // Past its valid_until, an unused code reads as expired (and filters as such).
    await t.db
      .update(activationCodes)
      .set({ validUntil: new Date(Date.now() - 1000) })
      .where(eq(activationCodes.id, res.datas.list[0].id));
    const expired = await send('GET', '/activation_code/list', admin, { batch_id: batch.id, status: 'expired' });
    expect(expired.datas.list.map((r: any) => r.id)).toEqual([res.datas.list[0].id]);
    expect(expired.datas.list[0].status).toBe('expired');
    expect((await send('GET', '/activation_code/list', admin, { batch_id: batch.id, status: 'unused' })).datas.total).toBe(3);
    const device = await send('GET', '/activation_code/list', admin, { scope: 'device', limit: 100 });
    expect(device.datas.list.every((r: any) => r.scope === 'device')).toBe(true);

    const batches = await send('GET', '/activation_code/batches', admin, { keyword: batch.batch_no });
    expect(batches.datas.list).toHaveLength(1);
    expect(batches.datas.list[0]).toMatchObject({ id: batch.id, count: 4, unused: 3, expired: 1, used: 0, void: 0, created_by: 'admin' });
  });

  it('voids selected unused codes, then the rest of the batch; used codes stay used', async () => {
    const batch = await newBatch({ count: 4 });
    const clinic = await institutionKey('clinic3');
    expect((await redeem(clinic, batch.codes[0]!)).code).toBe(200);
    const rows = (await send('GET', '/activation_code/list', admin, { batch_id: batch.id, sort: 'created_at', order: 'ascend' })).datas.list;
    const unused = rows.filter((r: any) => r.status === 'unused');
    const one = await send('POST', '/activation_code/void', admin, { id: batch.id, code_ids: [unused[0].id] });
    expect(one.datas).toEqual({ count: 1 });
    const rest = await send('POST', '/activation_code/void', admin, { id: batch.id });
    expect(rest.datas).toEqual({ count: 2 });
    const again = await send('POST', '/activation_code/void', admin, { id: batch.id });
    expect(again.datas.error).toMatch(/no unused code to void/);
    // A code of another batch is not voided through this one.
    const other = await newBatch({ count: 1 });
    const otherRow = (await send('GET', '/activation_code/list', admin, { batch_id: other.id })).datas.list[0];
    expect((await send('POST', '/activation_code/void', admin, { id: batch.id, code_ids: [otherRow.id] })).code).toBe(400);
    const after = await send('GET', '/activation_code/batches', admin, { keyword: batch.batch_no });
    expect(after.datas.list[0]).toMatchObject({ used: 1, void: 3, unused: 0 });
    expect((await send('POST', '/activation_code/void', admin, { id: 2_000_000 })).datas.error).toMatch(/does not exist/);

    // A voided code is refused with a message that says so.
    const voided = await redeem(clinic, batch.codes[1]!);
    expect(voided.datas.error).toBe('This activation code has been voided');
  });

  it('assigns a batch’s unused codes to an institution: its subtree may redeem them, nobody else', async () => {
    const batch = await newBatch({ count: 3 });
    const res = await send('POST', '/activation_code/assign', admin, { id: batch.id, institution_id: inst.agent1 });
    expect(res.datas).toEqual({ count: 3 });
    const owned = await send('GET', '/activation_code/list', admin, { owner_institution_id: inst.agent1, batch_id: batch.id });
    expect(owned.datas.total).toBe(3);
    expect(owned.datas.list[0].owner_institution_name).toBe('East China Regional Agency');
    const byOwner = await send('GET', '/activation_code/batches', admin, { owner_institution_id: inst.agent1 });
    expect(byOwner.datas.list.some((b: any) => b.id === batch.id && b.owner_institution_id === inst.agent1)).toBe(true);

    const other = await redeem(await institutionKey('agent1b'), batch.codes[0]!);
    expect(other.datas.error).toBe('This activation code belongs to another institution');
    expect((await redeem(await institutionKey('clinic3'), batch.codes[0]!)).code).toBe(200);
    expect((await redeem(await institutionKey('agent1'), batch.codes[1]!)).code).toBe(200);

    // Back to the platform: only the unused code moves.
    expect((await send('POST', '/activation_code/assign', admin, { id: batch.id, institution_id: null })).datas).toEqual({ count: 1 });
    expect((await send('POST', '/activation_code/assign', admin, { id: batch.id, institution_id: 2_000_000 })).datas.fields.institution_id).toMatch(/does not exist/);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'codes.assign')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ recordType: 'code_batch', recordId: batch.id });
  });
});

describe('export', () => {
  it('exports a batch in full as CSV (BOM, titles in the reader’s language) and XLSX, audited', async () => {
    const batch = await newBatch({ count: 3, remark: '=cmd|" /C calc"!A0' });
    const csv = await send('POST', '/activation_code/export', admin, { id: batch.id, format: 'csv' }, { lang: 'zh-CN' });
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-type'])).toMatch(/^text\/csv/);
    expect(String(csv.headers['content-disposition'])).toContain(`activation-codes-${batch.batch_no}.csv`);
    expect(csv.body.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = csv.body.toString('utf8').slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('激活码,批次号,类型,内容,状态,所属机构,有效期至 (UTC),使用者,使用时间 (UTC)');
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual([...batch.codes].sort());
    expect(lines[1]).toContain('未使用');

    const xlsx = await send('POST', '/activation_code/export', admin, { id: batch.id, format: 'xlsx' });
    expect(String(xlsx.headers['content-type'])).toMatch(/spreadsheetml/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.body as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Code');
    const codes = [2, 3, 4].map((i) => sheet.getRow(i).getCell(1).value);
    expect(codes.sort()).toEqual([...batch.codes].sort());

    // The audit row commits with the export's transaction, which ends just after the file's last byte is
    // sent: the client can hold the whole file a moment before the row is visible (CI saw it once).
    const audited = () =>
      t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.endpoint, 'codes.exportBatch'), eq(auditLog.recordId, batch.id)));
    await expect.poll(async () => (await audited()).length).toBe(2);
    expect(JSON.stringify(await audited())).not.toContain(batch.codes[0]);
  });

  it('exports the demo batch held for overdue3 (seeded under the same key)', async () => {
    const [demo] = await t.db.select().from(codeBatches).where(sql`${codeBatches.remark} like 'Renewal for overdue3%'`);
    const csv = await send('POST', '/activation_code/export', admin, { id: demo!.id, format: 'csv' });
    const rows = csv.body.toString('utf8').trim().split('\r\n').slice(1);
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.split(',')[0]).toMatch(CODE_RE);
  });

  it('refuses to export (and lists unreadable masks) when the server’s code key is not the one that sealed them', async () => {
    const batch = await newBatch({ count: 1 });
    const saved = t.app.config.dataDir;
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'codes-key-'));
    try {
      t.app.config.dataDir = other;
      const res = await send('POST', '/activation_code/export', admin, { id: batch.id, format: 'csv' });
      expect(res.datas.error).toMatch(/cannot be read with this server’s code key/);
      const list = await send('GET', '/activation_code/list', admin, { batch_id: batch.id });
      expect(list.datas.list[0].code).toBe('????-****-****-????');
      expect((fs.statSync(path.join(other, 'code.key')).mode & 0o777).toString(8)).toBe('600');
    } finally {
      t.app.config.dataDir = saved;
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('redeeming an institution code', () => {
  it('extends the term from max(now, term), answers exactly { term_expires_at } and writes the record', async () => {
    const batch = await newBatch({ days: 365, count: 1 });
    const before = await termOf('clinic3');
    const res = await redeem(await institutionKey('clinic3'), batch.codes[0]!);
    expect(res.code).toBe(200);
    expect(Object.keys(JSON.parse(res.raw).datas)).toEqual(['term_expires_at']);
    const expected = before!.getTime() + 365 * DAY;
    expect(Date.parse(res.datas.term_expires_at)).toBe(expected);
    expect((await termOf('clinic3'))!.getTime()).toBe(expected);

    const [code] = await t.db.select().from(activationCodes).where(eq(activationCodes.batchId, batch.id));
    expect(code).toMatchObject({ status: 'used', usedByInstitutionId: inst.clinic3, usedByDeviceId: null });
    const [record] = await t.db.select().from(activationRecords).where(eq(activationRecords.codeId, code!.id));
    expect(record).toMatchObject({ scope: 'institution', institutionId: inst.clinic3, days: 365, operatorName: 'clinic3', operatorKind: 'institution' });
    expect(record!.codeMasked).toBe(`${batch.codes[0]!.slice(0, 4)}-****-****-${batch.codes[0]!.slice(-4)}`);
    expect(record!.termBefore!.getTime()).toBe(before!.getTime());
    expect(record!.termAfter!.getTime()).toBe(expected);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'codes.redeemInstitution')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ recordType: 'activation_record', recordId: record!.id, actorName: 'clinic3' });
    expect(audit!.after).toMatchObject({ institution_id: inst.clinic3, days: 365 });
  });

  it('reads codes as people type them: any case, spaces and dashes, I/L for 1 and O for 0', async () => {
    const batch = await newBatch({ count: 1 });
    const plain = normalizeCode(batch.codes[0]!);
    const typed = ` ${plain
      .toLowerCase()
      .replace(/1/g, 'l')
      .replace(/0/g, 'o')
      .replace(/(.{3})/g, '$1 ')} `;
    expect((await redeem(await institutionKey('agent2'), typed)).code).toBe(200);
  });

  it('refuses wrong, malformed, used, void, expired and device codes, each with its own message', async () => {
    const key = await institutionKey('agent2');
    const msg = async (code: string, lang?: string) => {
      const res = await redeem(key, code, { lang });
      expect(res.code, code).toBe(400);
      return res.datas.fields?.code ?? res.datas.error;
    };
    expect(await msg('0000-0000-0000-0000')).toBe('No such activation code: check what you typed');
    expect(await msg('0000-0000-0000-0000', 'zh-CN')).toBe('激活码不存在，请检查输入是否正确');
    expect(await msg('0000-0000-0000-0000', 'es')).toMatch(/no existe/);
    expect(await msg('0000-0000-0000-0000', 'ja')).toMatch(/存在しません/);
    expect(await msg('ABCD-EFGH')).toMatch(/16 letters and digits/);
    expect(await msg('UUUU-UUUU-UUUU-UUUU')).toMatch(/16 letters and digits/);

    const batch = await newBatch({ count: 3, valid_until: new Date(Date.now() + DAY).toISOString() });
    expect((await redeem(key, batch.codes[0]!)).code).toBe(200);
    expect(await msg(batch.codes[0]!)).toBe('This activation code has already been used');
    await t.db
      .update(activationCodes)
      .set({ validUntil: new Date('2026-01-02T00:00:00Z') })
      .where(eq(activationCodes.lookup, lookupOf(batch.codes[2]!)));
    expect(await msg(batch.codes[2]!)).toBe('This activation code expired on 2026-01-02');
    expect(await msg(batch.codes[2]!, 'zh-CN')).toBe('该激活码已于 2026-01-02 过期');
    await send('POST', '/activation_code/void', admin, { id: batch.id });
    expect(await msg(batch.codes[1]!, 'es')).toBe('Este código de activación ha sido anulado');

    const device = await generate({ scope: 'device', days: 30, count: 1 });
    expect(await msg(device.datas.codes[0])).toBe('This is a device code: redeem it from the device’s row in the device list');
  });

  it('is for institutions only', async () => {
    const batch = await newBatch({ count: 1 });
    expect((await redeem(admin, batch.codes[0]!)).datas.error).toMatch(/permission/);
    expect((await redeem('', batch.codes[0]!)).code).toBe(999);
  });

  it('brings an overdue institution back: its restricted key redeems, then works as a full session', async () => {
    const batch = await newBatch({ days: 30, count: 1 });
    const full = await institutionKey('overdue3');
    const locked = await send('GET', '/equipment/list', full);
    expect(locked.code).toBe(998);
    const restricted = locked.datas.error.data.key as string;
    expect((await send('GET', '/equipment/list', restricted)).code).toBe(998);

    const res = await redeem(restricted, batch.codes[0]!);
    expect(res.code, res.raw).toBe(200);
    const term = Date.parse(res.datas.term_expires_at);
    expect(term).toBeGreaterThan(Date.now() + 30 * DAY - 60_000);
    expect(term).toBeLessThanOrEqual(Date.now() + 30 * DAY);

    // The same key now reaches business calls; its session is a full one with the normal lifetime.
    expect((await send('GET', '/equipment/list', restricted)).code).toBe(200);
    const info = await send('GET', '/institution/get_institution_info', restricted);
    expect(info.datas).toMatchObject({ overdue: false, username: 'overdue3' });
    const [session] = await t.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.subjectId, inst.overdue3!), eq(sessions.subjectKind, 'institution'), isNotNull(sessions.createdAt)))
      .orderBy(desc(sessions.id))
      .limit(1);
    expect(session!.restricted).toBe(false);
    expect(session!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 100 * 3600_000);
    // The key of the sign-in works again too.
    expect((await send('GET', '/equipment/list', full)).code).toBe(200);

    // Put overdue3 back as the other tests and the demo expect it.
    await t.db
      .update(institutions)
      .set({ termExpiresAt: new Date(Date.now() - 10 * DAY) })
      .where(eq(institutions.id, inst.overdue3!));
  });
});

describe('redeeming a device code', () => {
  async function clinicDevice(where: 'count' | 'time') {
    const rows = await t.db
      .select()
      .from(devices)
      .where(and(eq(devices.institutionId, inst.clinic3!), eq(devices.status, 'active'), where === 'count' ? isNotNull(devices.remainingUses) : isNull(devices.remainingUses)))
      .orderBy(asc(devices.id))
      .limit(1);
    return rows[0]!;
  }

  it('a count package adds its uses; days extend the term from max(now, expiry); an inactive device becomes active', async () => {
    const key = await institutionKey('clinic3');
    const [pack] = await t.db.select().from(packages).where(eq(packages.name, '100 inspections'));
    const byPackage = await generate({ scope: 'device', package_id: pack!.id, count: 1 });
    const counted = await clinicDevice('count');
    const res = await redeemDevice(key, counted.id, byPackage.datas.codes[0]);
    expect(res.code, res.raw).toBe(200);
    expect(res.datas).toMatchObject({ status: 'active', remaining_uses: counted.remainingUses! + 100 });
    const [record] = await t.db.select().from(activationRecords).where(eq(activationRecords.deviceId, counted.id)).orderBy(desc(activationRecords.id)).limit(1);
    expect(record).toMatchObject({ scope: 'device', institutionId: inst.clinic3, packageId: pack!.id, usesAdded: 100, usesBefore: counted.remainingUses, usesAfter: counted.remainingUses! + 100 });

    // An expired time-based device: the term starts again from now.
    const timed = await clinicDevice('time');
    await t.db
      .update(devices)
      .set({ expiresAt: new Date(Date.now() - 5 * DAY) })
      .where(eq(devices.id, timed.id));
    const days = await generate({ scope: 'device', days: 30, count: 2 });
    const renewed = await redeemDevice(key, timed.id, days.datas.codes[0]);
    const at = Date.parse(renewed.datas.expires_at);
    expect(at).toBeGreaterThan(Date.now() + 30 * DAY - 60_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 30 * DAY);
    // A second code adds to the term that is now in the future.
    const again = await redeemDevice(key, timed.id, days.datas.codes[1]);
    expect(Date.parse(again.datas.expires_at)).toBe(at + 30 * DAY);

    // An inactive device is activated.
    await t.db.update(devices).set({ status: 'inactive', activatedAt: null, expiresAt: null }).where(eq(devices.id, timed.id));
    const fresh = await generate({ scope: 'device', days: 10, count: 1 });
    const activated = await redeemDevice(key, timed.id, fresh.datas.codes[0]);
    expect(activated.datas.status).toBe('active');
    const [device] = await t.db.select().from(devices).where(eq(devices.id, timed.id));
    expect(device!.activatedAt).not.toBeNull();
  });

  it('only the owner redeems, on a device that is not disabled, with a device code; overdue institutions get 998', async () => {
    const device = await clinicDevice('count');
    const codes = (await generate({ scope: 'device', days: 5, count: 3 })).datas.codes as string[];
    const agent2 = await redeemDevice(await institutionKey('agent2'), device.id, codes[0]!);
    expect(agent2.datas.error).toBe('Only the institution that owns this device can redeem a code on it');
    const outside = await redeemDevice(await institutionKey('clinic3b'), device.id, codes[0]!);
    expect(outside.datas.error).toMatch(/does not exist/);
    expect((await redeemDevice(await institutionKey('clinic3'), 2_000_000, codes[0]!)).datas.error).toMatch(/does not exist/);
    expect((await redeemDevice(admin, device.id, codes[0]!)).datas.error).toMatch(/permission/);

    const institutionCode = (await newBatch({ count: 1 })).codes[0]!;
    expect((await redeemDevice(await institutionKey('clinic3'), device.id, institutionCode)).datas.error).toBe('This is an institution code: it renews an institution’s term, not a device');

    const [overdueDevice] = await t.db.select().from(devices).where(eq(devices.institutionId, inst.overdue3!)).limit(1);
    expect((await redeemDevice(await institutionKey('overdue3'), overdueDevice!.id, codes[1]!)).code).toBe(998);

    await t.db.update(devices).set({ status: 'disabled' }).where(eq(devices.id, device.id));
    const disabled = await redeemDevice(await institutionKey('clinic3'), device.id, codes[2]!, { lang: 'ja' });
    expect(disabled.datas.error).toBe('この機器は無効化されているため、コードで有効化できません');
    await t.db.update(devices).set({ status: 'active' }).where(eq(devices.id, device.id));
    // None of the refused attempts spent a code.
    const spent = await t.db.select().from(activationCodes).where(eq(activationCodes.status, 'used'));
    expect(spent.some((r) => codes.map(lookupOf).includes(r.lookup))).toBe(false);
    expect((await redeemDevice(await institutionKey('clinic3'), device.id, codes[0]!)).code).toBe(200);
  });
});

describe('throttling failed redemptions', () => {
  it('slows one (institution, address) after a few wrong codes; another address or institution is not slowed', async () => {
    const key = await institutionKey('agent1');
    const ip = freshIp();
    for (let i = 0; i < PAIR.free; i++) expect((await redeem(key, `0000-0000-0000-000${i}`, { ip })).datas.error).toMatch(/No such activation code/);
    const good = (await newBatch({ count: 2 })).codes;
    const blocked = await redeem(key, good[0]!, { ip });
    expect(blocked.datas.error).toMatch(/Too many wrong activation codes; try again in \d+ (s|min)$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const zh = await redeem(key, good[0]!, { ip, lang: 'zh-CN' });
    expect(zh.datas.error).toMatch(/激活码错误次数过多/);
    // The code was not spent by the refused attempts; from another address it works, and so does another institution here.
    expect((await redeem(key, good[0]!, { ip: freshIp() })).code).toBe(200);
    expect((await redeem(await institutionKey('agent2'), good[1]!, { ip })).code).toBe(200);
    // Sign-in from that address is not slowed by code failures.
    const signIn = await t.app.inject({ method: 'POST', url: `${API_BASE}/login/institution_login`, payload: { username: 'agent1', password: 'demo1234' }, remoteAddress: ip });
    expect(signIn.json().code).toBe(200);
  });

  it('a success clears the failures of its (institution, address)', async () => {
    const key = await institutionKey('clinic3');
    const ip = freshIp();
    for (let i = 0; i < PAIR.free - 1; i++) await redeem(key, `0000-0000-0000-00${i}0`, { ip });
    const good = (await newBatch({ count: 1 })).codes;
    expect((await redeem(key, good[0]!, { ip })).code).toBe(200);
    for (let i = 0; i < PAIR.free - 1; i++) expect((await redeem(key, `0000-0000-0000-01${i}0`, { ip })).datas.error).toMatch(/No such activation code/);
  });
});

describe('activation records', () => {
  const list = async (username: string, kind: 'admin' | 'institution', query: Record<string, unknown> = {}) => {
    const key = kind === 'admin' ? admin : await institutionKey(username);
    return send('GET', '/activation_record/list', key, { limit: 100, ...query });
  };

  it('are scoped to the caller’s subtree and filtered by date, scope and institution', async () => {
    const all = await list('admin', 'admin');
    expect(all.code).toBe(200);
    expect(all.datas.total).toBeGreaterThan(3);
    const allIds = new Set((await t.db.select({ id: activationRecords.id }).from(activationRecords)).map((r) => r.id));
    expect(all.datas.total).toBe(allIds.size);

    const east = new Set([inst.agent1, inst.agent2, inst.clinic3, inst.overdue3]);
    const agent1 = await list('agent1', 'institution');
    expect(agent1.datas.list.length).toBeGreaterThan(0);
    expect(agent1.datas.list.every((r: any) => east.has(r.institution_id))).toBe(true);
    const clinic = await list('clinic3', 'institution');
    expect(clinic.datas.list.every((r: any) => r.institution_id === inst.clinic3)).toBe(true);
    expect(clinic.datas.list.some((r: any) => r.scope === 'device' && r.device_serial)).toBe(true);
    const south = await list('agent1b', 'institution');
    expect(south.datas.list.every((r: any) => !east.has(r.institution_id))).toBe(true);
    expect((await list('clinic3', 'institution', { institution_id: inst.agent2 })).datas.error).toMatch(/permission/);
    expect((await list('agent1b', 'institution', { institution_id: inst.clinic3 })).code).toBe(400);

    const devicesOnly = await list('admin', 'admin', { scope: 'device' });
    expect(devicesOnly.datas.list.every((r: any) => r.scope === 'device')).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    const recent = await list('admin', 'admin', { date_from: today, date_to: today });
    for (const r of recent.datas.list) expect(r.created_at.slice(0, 10)).toBe(today);
    const old = await list('admin', 'admin', { date_to: new Date(Date.now() - 15 * DAY).toISOString().slice(0, 10) });
    expect(old.datas.list.length).toBeGreaterThan(0);
    for (const r of old.datas.list) expect(Date.parse(r.created_at)).toBeLessThan(Date.now() - 14 * DAY);
    for (const r of all.datas.list) expect(r.code).toMatch(MASK_RE);
  });

  it('export as CSV and XLSX, scoped like the list', async () => {
    const key = await institutionKey('clinic3');
    const csv = await send('GET', '/activation_record/export', key, { format: 'csv' }, { lang: 'es' });
    expect(csv.status).toBe(200);
    const lines = csv.body.toString('utf8').slice(1).trim().split('\r\n');
    expect(lines[0]).toMatch(/^Fecha \(UTC\),Código \(oculto\),Lote/);
    const mine = await send('GET', '/activation_record/list', key, { limit: 100 });
    expect(lines.length - 1).toBe(mine.datas.total);
    expect(lines.slice(1).every((l) => l.includes('West Lake Wellness Clinic'))).toBe(true);

    const xlsx = await send('GET', '/activation_record/export', admin, { format: 'xlsx', scope: 'institution' });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.body as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const institutionRecords = await t.db.select({ id: activationRecords.id }).from(activationRecords).where(eq(activationRecords.scope, 'institution'));
    expect(sheet.rowCount).toBe(institutionRecords.length + 1);
    expect((await send('GET', '/activation_record/export', key, { format: 'pdf' })).code).toBe(400);
  });
});

describe('concurrency', () => {
  it('50 concurrent redemptions of one code: exactly one succeeds, the term moves once', async () => {
    const batch = await newBatch({ days: 10, count: 1 });
    const keys = await Promise.all(['clinic3', 'agent2', 'agent1'].map(institutionKey));
    const before = await termOf('clinic3');
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => redeem(keys[i % 3]!, batch.codes[0]!)));
    const ok = results.filter((r) => r.code === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.code !== 200)) expect(r.datas.error).toBe('This activation code has already been used');
    const records = await t.db.select().from(activationRecords).innerJoin(activationCodes, eq(activationCodes.id, activationRecords.codeId)).where(eq(activationCodes.batchId, batch.id));
    expect(records).toHaveLength(1);
    const winner = records[0]!.activation_records.institutionId;
    if (winner === inst.clinic3) expect((await termOf('clinic3'))!.getTime()).toBe(before!.getTime() + 10 * DAY);
  });

  it('50 concurrent redemptions of one device code on two devices: one device gains the uses', async () => {
    const [pack] = await t.db.select().from(packages).where(eq(packages.name, '10 inspections'));
    const code = (await generate({ scope: 'device', package_id: pack!.id, count: 1 })).datas.codes[0] as string;
    const owned = await t.db
      .select()
      .from(devices)
      .where(and(eq(devices.institutionId, inst.clinic3!), eq(devices.status, 'active')))
      .orderBy(asc(devices.id))
      .limit(2);
    const key = await institutionKey('clinic3');
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => redeemDevice(key, owned[i % 2]!.id, code)));
    expect(results.filter((r) => r.code === 200)).toHaveLength(1);
    const after = await t.db
      .select()
      .from(devices)
      .where(sql`${devices.id} in ${owned.map((d) => d.id)}`);
    const gained = after.filter((d) => (d.remainingUses ?? 0) - (owned.find((o) => o.id === d.id)!.remainingUses ?? 0) === 10);
    expect(gained).toHaveLength(1);
  });
});

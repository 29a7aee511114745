/**
 * Every list's export (docs/decisions.md "Exports"): the same filters and scope as its list, every page,
 * titles in the reader's language, a BOM, neutralised formula cells, an XLSX that opens, the export
 * button as the access rule (and the upgrade rule of menu sync), and the keyset walk across batches
 * (ties and empty values at batch edges).
 */
import ExcelJS from 'exceljs';
import { eq, isNull, sql } from 'drizzle-orm';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_BASE } from '@app/contract';
import { devices, menus, roleMenus, roles } from '../db/schema';
import { neutralise } from '../lib/export';
import { KEYSET_BATCH } from '../lib/list';
import { syncMenus } from '../seed';
import { createTestApp, type TestApp } from '../test/harness';
import { countQueries } from '../test/query-counter';

let t: TestApp;
let admin: string;
let agent2: string;

/** A minimal RFC 4180 reader (quotes, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

async function download(path: string, key: string, query: Record<string, string | number>, lang = 'en') {
  const res = await t.app.inject({
    method: 'GET',
    url: `${API_BASE}${path}`,
    query: Object.fromEntries(Object.entries({ ...query, key }).map(([k, v]) => [k, String(v)])),
    headers: { 'accept-language': lang },
  });
  return res;
}

async function csvOf(path: string, key: string, query: Record<string, string | number>, lang = 'en') {
  const res = await download(path, key, { ...query, format: 'csv' }, lang);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toContain('text/csv');
  const raw = res.rawPayload;
  expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [head, ...rows] = parseCsv(raw.toString('utf8').slice(1));
  return { head: head!, rows, total: res.headers['x-total-count'] };
}

/** Each list with a filter that narrows it: [list path, export path, filter]. */
const LISTS: [string, string, Record<string, string | number>][] = [
  ['/equipment/list', '/equipment/export', { status: 'active' }],
  ['/institution/list', '/institution/export', { grade: 3 }],
  ['/activation_code/list', '/activation_code/list_export', { scope: 'device' }],
  ['/activation_record/list', '/activation_record/export', { scope: 'institution' }],
  ['/distribution/list', '/distribution/export', {}],
  ['/finance/list', '/finance/export', { kind: 'commission' }],
  ['/payout/list', '/payout/export', { status: 'paid' }],
  ['/device_payment/list', '/device_payment/export', { status: 'paid' }],
  ['/inspection/list', '/inspection/export', { risk: 'high' }],
  ['/doctor/list', '/doctor/export', { status: 'enabled' }],
  ['/user/list', '/user/export', { gender: 'female' }],
];

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  admin = (await t.login('admin')).key;
  agent2 = (await t.login('agent2', 'institution')).key;
  // The demo data has no distribution yet: one record of two stock devices.
  const stock = await t.db.select({ id: devices.id }).from(devices).where(isNull(devices.institutionId)).limit(2);
  const moved = await t.call('POST', '/distribution/distribute', { key: admin, body: { ids: stock.map((d) => d.id), from: null, to: await t.institutionId('agent2b') } });
  expect(moved.code).toBe(200);
});
afterAll(() => t.close());

describe('every list exports what its list shows', () => {
  it.each(LISTS)('%s: the export holds every filtered row (CSV = XLSX = list total), titles in en, es and ja', async (list, path, filter) => {
    const listed = await t.call('GET', list, { key: admin, query: { ...filter, limit: 1 } });
    expect(listed.code).toBe(200);
    expect(listed.datas.capped).toBe(false);
    const total = listed.datas.total as number;
    expect(total).toBeGreaterThan(0);
    const unfiltered = (await t.call('GET', list, { key: admin, query: { limit: 1 } })).datas.total as number;

    const en = await csvOf(path, admin, filter);
    expect(en.rows).toHaveLength(total);
    expect(en.total).toBe(String(total));
    // (The institution list without a filter shows the top level only.)
    if (Object.keys(filter).length && path !== '/institution/export') expect(total).toBeLessThan(unfiltered);
    for (const row of en.rows) expect(row).toHaveLength(en.head.length);

    const es = await csvOf(path, admin, filter, 'es');
    const ja = await csvOf(path, admin, filter, 'ja');
    expect(es.head).not.toEqual(en.head);
    expect(ja.head.join('')).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    expect(es.rows).toHaveLength(total);

    const xlsx = await download(path, admin, { ...filter, format: 'xlsx' }, 'ja');
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.actualRowCount).toBe(total + 1);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(ja.head);
  });

  it('a grade-2 export holds its subtree only, exactly what its list shows', async () => {
    for (const [list, path] of [
      ['/equipment/list', '/equipment/export'],
      ['/inspection/list', '/inspection/export'],
      ['/device_payment/list', '/device_payment/export'],
      ['/activation_record/list', '/activation_record/export'],
      ['/finance/list', '/finance/export'],
    ] as const) {
      const mine = await t.call('GET', list, { key: agent2, query: { limit: 200 } });
      const all = await t.call('GET', list, { key: admin, query: { limit: 1 } });
      expect(mine.datas.total, list).toBeLessThan(all.datas.total);
      const csv = await csvOf(path, agent2, {});
      expect(csv.rows, path).toHaveLength(mine.datas.total);
    }
    const serials = (await t.call('GET', '/equipment/list', { key: agent2, query: { limit: 200 } })).datas.list.map((d: { serial: string }) => d.serial).sort();
    expect((await csvOf('/equipment/export', agent2, {})).rows.map((r) => r[0]).sort()).toEqual(serials);
    // A filter naming an institution outside the subtree is refused, as the list refuses it.
    const other = await t.institutionId('agent1b');
    const refused = await t.call('GET', '/equipment/export', { key: agent2, query: { format: 'csv', institution_id: other } });
    expect(refused.datas.error).toMatch(/permission/i);
  });

  it('masks phone and ID numbers as the lists do', async () => {
    const users = await csvOf('/user/export', admin, {});
    const [first] = (await t.call('GET', '/user/list', { key: admin, query: { limit: 1 } })).datas.list as { phone: string | null; id_number: string | null }[];
    // (An international number starts with +: neutralised like any text a spreadsheet would take for a formula.)
    expect(users.rows[0]!.slice(3, 5)).toEqual([neutralise(first!.phone ?? ''), neutralise(first!.id_number ?? '')]);
    for (const row of users.rows) {
      if (row[3]) expect(row[3]).toMatch(/\*/);
      if (row[4]) expect(row[4]).toMatch(/\*/);
    }
    const doctors = await csvOf('/doctor/export', admin, {});
    for (const row of doctors.rows) expect(row[2]).toMatch(/\*/);
  });

  it('neutralises a formula in a text cell (CSV and XLSX)', async () => {
    const [device] = await t.db.select({ id: devices.id, serial: devices.serial }).from(devices).limit(1);
    await t.db.update(devices).set({ remark: '=cmd|"/C calc"!A0' }).where(eq(devices.id, device!.id));
    const csv = await csvOf('/equipment/export', admin, { keyword: device!.serial });
    expect(csv.rows).toHaveLength(1);
    expect(csv.rows[0]!.at(-1)).toBe('\'=cmd|"/C calc"!A0');
    const xlsx = await download('/equipment/export', admin, { keyword: device!.serial, format: 'xlsx' });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const row = book.worksheets[0]!.getRow(2);
    expect(row.getCell(csv.head.length).value).toBe('\'=cmd|"/C calc"!A0');
  });

  it('refuses an export without the button, even to a role holding the page; a bad format is a 400 in the caller language', async () => {
    const pageOnly = await t.adminWith('export-page-only', ['Dashboard', 'DeviceList']);
    expect((await t.call('GET', '/equipment/list', { key: pageOnly })).code).toBe(200);
    const refused = await t.call('GET', '/equipment/export', { key: pageOnly, query: { format: 'csv' } });
    expect(refused.code).toBe(400);
    expect(refused.datas.error).toMatch(/permission/i);
    const withButton = await t.adminWith('export-button', ['Dashboard', 'DeviceList', 'device:export']);
    expect((await download('/equipment/export', withButton, { format: 'csv' })).statusCode).toBe(200);
    const bad = await t.call('GET', '/equipment/export', { key: admin, query: { format: 'pdf' }, lang: 'zh' });
    expect(bad.code).toBe(400);
    // The auditor role of the demo data exports its pages (devices, inspections), nothing else.
    const auditor = (await t.login('auditor')).key;
    expect((await download('/inspection/export', auditor, { format: 'csv' })).statusCode).toBe(200);
    expect((await t.call('GET', '/doctor/export', { key: auditor, query: { format: 'csv' } })).datas.error).toMatch(/permission/i);
  });
});

describe('menu sync: the upgrade rule', () => {
  it('grants a new export button to the roles holding its page, once', async () => {
    const holder = await t.adminWith('payout-holder', ['FinanceRecord', 'PayoutManage']);
    const outsider = await t.adminWith('payout-outsider', ['Dashboard', 'DeviceList']);
    // The database as it was before the button existed.
    await t.db.delete(menus).where(eq(menus.sign, 'payout:export'));
    await syncMenus(t.db);
    expect((await download('/payout/export', holder, { format: 'csv' })).statusCode).toBe(200);
    expect((await t.call('GET', '/payout/export', { key: outsider, query: { format: 'csv' } })).datas.error).toMatch(/permission/i);
    // Taken away in the role editor: the next start does not give it back.
    const [node] = await t.db.select({ id: menus.id }).from(menus).where(eq(menus.sign, 'payout:export'));
    const [role] = await t.db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'Role of payout-holder'));
    await t.db.delete(roleMenus).where(sql`${roleMenus.roleId} = ${role!.id} and ${roleMenus.menuId} = ${node!.id}`);
    await syncMenus(t.db);
    expect((await t.call('GET', '/payout/export', { key: holder, query: { format: 'csv' } })).datas.error).toMatch(/permission/i);
  });
});

describe('keyset walk', () => {
  it('exports every row once, in the list order, across batches with tied times and empty values', async () => {
    const n = KEYSET_BATCH * 2 + 321;
    // One statement: equal creation times (ties broken by id), every other device without an expiry.
    await t.db.execute(sql`insert into ${devices} (serial, model, name, created_at, expires_at)
      select 'KS-' || lpad(g::text, 5, '0'), 'KS', 'Keyset ' || g, timestamptz '2026-01-01 00:00:00.123456+00',
             case when g % 2 = 0 then timestamptz '2026-06-01 00:00:00.000001+00' + (g % 7) * interval '1 microsecond' end
      from generate_series(1, ${n}) g`);
    const listed = async (query: Record<string, string>) => {
      const out: string[] = [];
      for (let page = 1; ; page++) {
        const res = await t.call('GET', '/equipment/list', { key: admin, query: { keyword: 'KS-', limit: 200, page, ...query } });
        out.push(...res.datas.list.map((d: { serial: string }) => d.serial));
        if (res.datas.list.length < 200) return out;
      }
    };
    const sorts: Record<string, string>[] = [{}, { sort: 'expires_at', order: 'ascend' }, { sort: 'expires_at', order: 'descend' }, { sort: 'name', order: 'ascend' }];
    for (const query of sorts) {
      const csv = await csvOf('/equipment/export', admin, { keyword: 'KS-', ...query });
      const serials = csv.rows.map((r) => r[0]!);
      expect(new Set(serials).size).toBe(n);
      expect(serials).toEqual(await listed(query));
    }
  });
});

describe('a client that goes away', () => {
  it('stops the reading: no batch is read after the connection closed', async () => {
    const n = KEYSET_BATCH * 200;
    await t.db.execute(sql`insert into ${devices} (serial, model, name) select 'GONE-' || lpad(g::text, 6, '0'), 'GONE', 'Gone ' || g from generate_series(1, ${n}) g`);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const counter = countQueries(t.db);
    const openConnections = () => new Promise<number>((resolve) => t.app.server.getConnections((_e, count) => resolve(count)));
    const statements = await counter.during(async () => {
      await new Promise<void>((resolve) => {
        const req = http.get(`${address}${API_BASE}/equipment/export?format=csv&keyword=GONE-&key=${admin}`, (res) => {
          res.once('data', () => req.destroy());
          res.on('close', resolve);
        });
        req.on('error', () => resolve());
      });
      await vi.waitFor(async () => expect(await openConnections()).toBe(0), { timeout: 10_000 });
    });
    // A batch that had started finishes; none starts after: far fewer than the 201 reads of the whole list.
    const reads = statements.filter((q) => q.includes('"devices"') && /\blimit\b/i.test(q)).length;
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThan(n / KEYSET_BATCH / 2);
  });
});

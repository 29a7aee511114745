import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const base = { name: 'Pack', kind: 'count', uses: 5, price_cents: 5000, commission_rate_l1_bp: 2000, commission_rate_l2_bp: 1000 };
const add = (body: Record<string, unknown>, lang?: string) => t.call('POST', '/package/add', { key: admin, body, lang });

describe('packages: happy path', () => {
  it('lists the seeded packages in their sort order', async () => {
    const res = await t.call('GET', '/package/list', { key: admin });
    expect(res.code).toBe(200);
    expect(res.datas.total).toBe(6);
    expect(res.datas.capped).toBe(false);
    const orders = res.datas.list.map((p: any) => p.sort_order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    expect(res.datas.list[0]).toMatchObject({ name: '10 inspections', kind: 'count', uses: 10, days: null, price_cents: 9900, status: 'on_sale' });
  });

  it('adds, filters, sorts, pages, reads, edits, changes status and deletes', async () => {
    const a = await add({ ...base, name: 'Zeta 7 uses', uses: 7, price_cents: 700 });
    expect(a.code).toBe(200);
    const b = await add({ ...base, name: 'Zeta 8 uses', uses: 8, price_cents: 800, status: 'on_sale', description: 'eight' });
    const c = await add({ name: 'Zeta 90 days', kind: 'time', days: 90, price_cents: 900 });
    expect(c.code).toBe(200);
    expect(c.datas.id).toBeTypeOf('number');

    // Filter by keyword and kind, sort by price ascending, two per page.
    const page1 = await t.call('GET', '/package/list', { key: admin, query: { keyword: 'zeta', kind: 'count', sort: 'price', order: 'ascend', limit: 1, page: 1 } });
    expect(page1.datas.total).toBe(2);
    expect(page1.datas.list.map((p: any) => p.name)).toEqual(['Zeta 7 uses']);
    const page2 = await t.call('GET', '/package/list', { key: admin, query: { keyword: 'zeta', kind: 'count', sort: 'price', order: 'ascend', limit: 1, page: 2 } });
    expect(page2.datas.list.map((p: any) => p.name)).toEqual(['Zeta 8 uses']);
    const onSale = await t.call('GET', '/package/list', { key: admin, query: { keyword: 'zeta', status: 'on_sale' } });
    expect(onSale.datas.list.map((p: any) => p.id)).toEqual([b.datas.id]);
    const byName = await t.call('GET', '/package/list', { key: admin, query: { keyword: 'Zeta', sort: 'name', order: 'descend' } });
    expect(byName.datas.list.map((p: any) => p.name)).toEqual(['Zeta 90 days', 'Zeta 8 uses', 'Zeta 7 uses']);
    // A keyword with LIKE wildcards matches literally.
    expect((await t.call('GET', '/package/list', { key: admin, query: { keyword: '%' } })).datas.total).toBe(0);

    const detail = await t.call('GET', '/package/detail', { key: admin, query: { id: c.datas.id } });
    expect(detail.datas).toMatchObject({ name: 'Zeta 90 days', kind: 'time', days: 90, uses: null, price_cents: 900, status: 'off_sale', commission_rate_l1_bp: 0, sort_order: 0 });

    // Edit turns the time package into a count package: days go away.
    const edit = await t.call('POST', '/package/edit', {
      key: admin,
      body: { id: c.datas.id, name: 'Zeta 12 uses', kind: 'count', uses: 12, price_cents: 1200, commission_rate_l1_bp: 3000, commission_rate_l2_bp: 2000, sort_order: 5 },
    });
    expect(edit.code).toBe(200);
    const edited = await t.call('GET', '/package/detail', { key: admin, query: { id: c.datas.id } });
    expect(edited.datas).toMatchObject({ name: 'Zeta 12 uses', kind: 'count', uses: 12, days: null, commission_rate_l1_bp: 3000, commission_rate_l2_bp: 2000, sort_order: 5, status: 'off_sale' });

    // On sale: delete is refused until it is taken off sale.
    expect((await t.call('POST', '/package/set_status', { key: admin, body: { id: c.datas.id, status: 'on_sale' } })).code).toBe(200);
    const refused = await t.call('POST', '/package/del', { key: admin, body: { id: c.datas.id } });
    expect(refused.code).toBe(400);
    expect(refused.datas.error).toMatch(/off sale before deleting/);
    expect((await t.call('POST', '/package/set_status', { key: admin, body: { id: c.datas.id, status: 'off_sale' } })).code).toBe(200);
    expect((await t.call('POST', '/package/del', { key: admin, body: { id: c.datas.id } })).code).toBe(200);
    expect((await t.call('GET', '/package/detail', { key: admin, query: { id: c.datas.id } })).datas.error).toMatch(/does not exist/);
    expect((await t.call('POST', '/package/del', { key: admin, body: { id: c.datas.id } })).code).toBe(400);
    expect((await t.call('POST', '/package/edit', { key: admin, body: { ...base, id: c.datas.id, name: 'x' } })).code).toBe(400);
    // The name of a deleted package is free again.
    expect((await add({ ...base, name: 'zeta 12 USES' })).code).toBe(200);
  });
});

describe('packages: validation', () => {
  it('refuses commission rates that add up to more than 10000 bp, on both fields', async () => {
    const res = await add({ ...base, name: 'Greedy', commission_rate_l1_bp: 6000, commission_rate_l2_bp: 4001 });
    expect(res.code).toBe(400);
    expect(res.datas.fields.commission_rate_l1_bp).toMatch(/cannot exceed 10000 bp/);
    expect(res.datas.fields.commission_rate_l2_bp).toMatch(/cannot exceed 10000 bp/);
    expect((await add({ ...base, name: 'Exactly all', commission_rate_l1_bp: 6000, commission_rate_l2_bp: 4000 })).code).toBe(200);
    const zh = await add({ ...base, name: 'Greedy', commission_rate_l1_bp: 10000, commission_rate_l2_bp: 1 }, 'zh-CN');
    expect(zh.datas.fields.commission_rate_l2_bp).toMatch(/不能超过 10000 基点/);
    expect((await add({ ...base, name: 'Neg', commission_rate_l1_bp: -1 })).datas.fields).toHaveProperty('commission_rate_l1_bp');
    expect((await add({ ...base, name: 'Big', commission_rate_l2_bp: 10001 })).datas.fields).toHaveProperty('commission_rate_l2_bp');
  });

  it('needs exactly one of uses and days, matching the kind', async () => {
    const noUses = await add({ name: 'No uses', kind: 'count', price_cents: 1 });
    expect(noUses.datas.fields.uses).toMatch(/needs a number of uses/);
    const both = await add({ name: 'Both', kind: 'count', uses: 3, days: 30, price_cents: 1 });
    expect(both.datas.fields.days).toMatch(/Only time packages/);
    const timeNoDays = await add({ name: 'Time', kind: 'time', uses: 3, price_cents: 1 });
    expect(timeNoDays.datas.fields.days).toMatch(/needs a number of days/);
    expect(timeNoDays.datas.fields.uses).toMatch(/Only count packages/);
    expect((await add({ name: 'Time ok', kind: 'time', days: 3650, uses: null, price_cents: 1 })).code).toBe(200);
    expect((await add({ name: 'Too long', kind: 'time', days: 3651, price_cents: 1 })).datas.fields).toHaveProperty('days');
    expect((await add({ name: 'Too many', kind: 'count', uses: 100_001, price_cents: 1 })).datas.fields).toHaveProperty('uses');
    expect((await add({ name: 'Zero', kind: 'count', uses: 0, price_cents: 1 })).datas.fields).toHaveProperty('uses');
    expect((await add({ name: 'Kind', kind: 'forever', uses: 1, price_cents: 1 })).datas.fields).toHaveProperty('kind');
  });

  it('takes prices as integer cents within bounds', async () => {
    for (const price of [-1, 12.5, 100_000_001, '100', null]) {
      const res = await add({ ...base, name: `Price ${price}`, price_cents: price });
      expect(res.code, String(price)).toBe(400);
      expect(res.datas.fields).toHaveProperty('price_cents');
    }
    expect((await add({ ...base, name: 'Max price', price_cents: 100_000_000 })).code).toBe(200);
    expect((await add({ ...base, name: 'Free', price_cents: 0 })).code).toBe(200);
  });

  it('keeps names unique among live packages, case-insensitively', async () => {
    const res = await add({ ...base, name: '  10 INSPECTIONS ' });
    expect(res.code).toBe(400);
    expect(res.datas.fields.name).toMatch(/already exists/);
    const other = (await t.call('GET', '/package/list', { key: admin, query: { keyword: '30 inspections' } })).datas.list[0];
    const rename = await t.call('POST', '/package/edit', { key: admin, body: { ...base, id: other.id, name: '10 inspections' } });
    expect(rename.datas.fields.name).toMatch(/already exists/);
    expect((await add({ ...base, name: '' })).datas.fields).toHaveProperty('name');
  });

  it('lets one of two concurrent adds of a name win; the other gets the field message', async () => {
    const results = await Promise.all([add({ ...base, name: 'Race' }), add({ ...base, name: 'RACE' }), add({ ...base, name: 'race' })]);
    expect(results.filter((r) => r.code === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.code !== 200)) expect(r.datas.fields.name).toMatch(/already exists/);
  });

  it('answers bad queries and bodies with 400, never a stack trace', async () => {
    const cases = [
      await t.call('GET', '/package/list', { key: admin, query: { sort: 'password', limit: 100000 } }),
      await t.call('GET', '/package/list', { key: admin, query: { kind: 'x', status: 'y', page: -1 } }),
      await t.call('GET', '/package/detail', { key: admin, query: { id: 'abc' } }),
      await t.call('GET', '/package/detail', { key: admin, query: { id: '99999999999' } }),
      await t.call('POST', '/package/set_status', { key: admin, body: { id: 1, status: 'sold_out' } }),
      await t.call('POST', '/package/add', { key: admin, body: '{bad json', headers: { 'content-type': 'application/json' } }),
      await t.call('POST', '/package/add', { key: admin, body: { ...base, name: 'x'.repeat(101), description: 'y'.repeat(501), sort_order: 1.5 } }),
    ];
    for (const res of cases) {
      expect(res.code).toBe(400);
      expect(res.raw).not.toMatch(/at .*\.ts|node_modules/);
    }
    expect((await t.call('GET', '/package/detail', { key: admin, query: { id: 999999 } })).datas.error).toMatch(/does not exist/);
  });
});

describe('packages: access', () => {
  it('refuses institutions, roles without the page and calls without a session', async () => {
    const clinic = await t.login('clinic3', 'institution');
    expect((await t.call('GET', '/package/list', { key: clinic.key })).datas.error).toMatch(/permission/);
    expect((await t.call('POST', '/package/add', { key: clinic.key, body: { ...base, name: 'Clinic' } })).code).toBe(400);
    const auditor = await t.login('auditor');
    expect((await t.call('GET', '/package/list', { key: auditor.key })).code).toBe(400);
    expect((await t.call('POST', '/package/set_status', { key: auditor.key, body: { id: 1, status: 'off_sale' } })).code).toBe(400);
    expect((await t.call('GET', '/package/list')).code).toBe(999);
  });
});

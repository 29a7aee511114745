import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { MERIDIANS } from '@app/contract';
import { devices, endUsers, inspections, institutions, packages } from '../../db/schema';
import { hashKey } from '../../lib/crypto';
import { buildAppOn, createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let clinic3: number;
const DEMO = 'Bearer BE-DEMO-0001.demo-device-secret-0001';

beforeAll(async () => {
  t = await createTestApp();
  clinic3 = await t.institutionId('clinic3');
});
afterAll(async () => {
  await t?.close();
});

async function dev(method: 'GET' | 'POST', route: string, auth: string | null, body?: unknown, lang = 'en') {
  const res = await t.app.inject({
    method,
    url: `/deviceapi/v1${route}`,
    headers: { ...(auth ? { authorization: auth } : {}), 'accept-language': lang },
    ...(body !== undefined ? { payload: body as object } : {}),
  });
  return { status: res.statusCode, headers: res.headers, ...(res.json() as { code: number; msg: string; datas: any }) };
}

/** A device of its own for a test: serial, state, and the bearer to call with. */
let seq = 0;
async function device(values: Partial<typeof devices.$inferInsert> = {}) {
  const serial = `API-${++seq}`;
  const secret = `secret-${seq}-0123456789abcdefghijklmnopqrstuvwxyz`;
  const [row] = await t.db
    .insert(devices)
    .values({ serial, model: 'M', name: 'N', institutionId: clinic3, status: 'active', activatedAt: new Date(), remainingUses: 10, secretHash: hashKey(secret), ...values })
    .returning();
  return { row: row!, auth: `Bearer ${serial}.${secret}` };
}
const readings = (v = 100) => Object.fromEntries(MERIDIANS.map((m) => [m, [v, v + 2]]));
const person = { name: 'Li Lei', gender: 'male', birth_date: '1980-05-01', phone: '13900001111' };
const inspection = (no: string, extra: Record<string, unknown> = {}) => ({ inspection_no: no, measured_at: new Date().toISOString(), user: person, readings: readings(), ...extra });
const usesOf = async (id: number) => (await t.db.select().from(devices).where(eq(devices.id, id)))[0]!.remainingUses;

describe('authentication', () => {
  it('refuses missing, malformed and wrong credentials with 401', async () => {
    const { auth } = await device();
    const wrong = [null, 'Bearer', 'Basic abc', 'Bearer API-1', 'Bearer API-1.', `${auth}x`, 'Bearer NOPE-1.whatever', auth.replace('API-', 'APX-')];
    for (const header of wrong) {
      const res = await dev('GET', '/status', header);
      expect(res.status, String(header)).toBe(401);
      expect(res.code).toBe(401);
      expect(res.datas.error.reason).toBe('unauthorized');
      expect(typeof res.datas.error.message).toBe('string');
    }
    const blank = await device({ secretHash: '' });
    expect((await dev('GET', '/status', blank.auth.replace(/\..*/, '.'))).status).toBe(401);
  });

  it('answers the demo device status and stamps last_seen_at on every call', async () => {
    await t.db.update(devices).set({ lastSeenAt: null }).where(eq(devices.serial, 'BE-DEMO-0001'));
    const res = await dev('GET', '/status', DEMO);
    expect(res.status).toBe(200);
    expect(res.code).toBe(200);
    expect(res.datas).toEqual({ serial: 'BE-DEMO-0001', status: 'active', expires_at: null, remaining_uses: expect.any(Number), institution: { id: clinic3, name: expect.any(String) } });
    const [row] = await t.db.select().from(devices).where(eq(devices.serial, 'BE-DEMO-0001'));
    expect(Date.now() - row!.lastSeenAt!.getTime()).toBeLessThan(10_000);
    // The serial is matched case-insensitively (stored upper-cased); the secret is not.
    expect((await dev('GET', '/status', 'Bearer be-demo-0001.demo-device-secret-0001')).status).toBe(200);
    expect((await dev('GET', '/status', 'Bearer BE-DEMO-0001.DEMO-device-secret-0001')).status).toBe(401);
  });

  it('limits each device to 60 calls a minute (429 with Retry-After), other devices unaffected', async () => {
    const a = await device();
    const b = await device();
    await t.db
      .update(devices)
      .set({ rateWindow: new Date(Math.floor(Date.now() / 60_000) * 60_000), rateCount: 55 })
      .where(eq(devices.id, a.row.id));
    // Near a minute's end the window could roll over mid-test: wait for the next one.
    if (new Date().getUTCSeconds() > 55) await new Promise((r) => setTimeout(r, 6000));
    await t.db
      .update(devices)
      .set({ rateWindow: new Date(Math.floor(Date.now() / 60_000) * 60_000), rateCount: 55 })
      .where(eq(devices.id, a.row.id));
    const results = await Promise.all(Array.from({ length: 8 }, () => dev('GET', '/status', a.auth)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(3);
    expect(limited[0]!.datas.error.reason).toBe('rate_limited');
    expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThan(0);
    expect((await dev('GET', '/status', b.auth)).status).toBe(200);
  });
});

describe('refusals', () => {
  it('inactive, disabled, expired and used-up devices get 403 with the reason; no use is spent', async () => {
    const cases = [
      ['inactive', { status: 'inactive' as const, activatedAt: null }],
      ['disabled', { status: 'disabled' as const }],
      ['expired', { remainingUses: null, expiresAt: new Date(Date.now() - 1000) }],
      ['no_uses', { remainingUses: 0 }],
    ] as const;
    for (const [reason, values] of cases) {
      const d = await device(values);
      const res = await dev('POST', '/inspections', d.auth, inspection(`R-${reason}`), 'zh');
      expect(res.status, reason).toBe(403);
      expect(res.code).toBe(403);
      expect(res.datas.error.reason).toBe(reason);
      expect(res.datas.error.message).toMatch(/[\u4e00-\u9fff]/);
      expect(await usesOf(d.row.id)).toBe(d.row.remainingUses);
      expect(await t.db.select().from(inspections).where(eq(inspections.deviceId, d.row.id))).toEqual([]);
      const [row] = await t.db.select().from(devices).where(eq(devices.id, d.row.id));
      expect(row!.lastSeenAt).not.toBeNull();
    }
  });

  it('status and packages still answer an expired or used-up device (it renews by paying); not an inactive or disabled one', async () => {
    const used = await device({ remainingUses: 0 });
    expect((await dev('GET', '/status', used.auth)).datas.remaining_uses).toBe(0);
    const expired = await device({ remainingUses: null, expiresAt: new Date(Date.now() - 1000) });
    expect((await dev('GET', '/packages', expired.auth)).code).toBe(200);
    const off = await device({ status: 'disabled' });
    expect((await dev('GET', '/packages', off.auth)).datas.error.reason).toBe('disabled');
  });
});

describe('packages and payments', () => {
  it('lists the packages on sale only', async () => {
    const res = await dev('GET', '/packages', DEMO);
    const onSale = await t.db.select().from(packages).where(eq(packages.status, 'on_sale'));
    expect(res.datas.list.map((p: { id: number }) => p.id).sort()).toEqual(
      onSale
        .filter((p) => !p.deletedAt)
        .map((p) => p.id)
        .sort(),
    );
    expect(Object.keys(res.datas.list[0]).sort()).toEqual(['days', 'id', 'kind', 'name', 'price_cents', 'uses']);
  });

  it('records a payment, answers a repeat with the first result, refuses other content under the same order_no', async () => {
    const d = await device({ remainingUses: 0 });
    const [pkg] = await t.db.select().from(packages).where(eq(packages.name, '10 inspections'));
    const body = { order_no: 'ORD-0001', package_id: pkg!.id, amount_cents: pkg!.priceCents, channel: 'wechat', paid_at: new Date().toISOString() };
    const first = await dev('POST', '/payments', d.auth, body);
    expect(first.code, JSON.stringify(first)).toBe(200);
    expect(first.datas).toMatchObject({ order_no: 'ORD-0001', remaining_uses: 10, expires_at: null });
    const again = await dev('POST', '/payments', d.auth, body);
    expect(again.datas).toEqual(first.datas);
    expect(await usesOf(d.row.id)).toBe(10);
    const other = await dev('POST', '/payments', d.auth, { ...body, channel: 'alipay' });
    expect(other.code).toBe(400);
    expect(other.datas.error.reason).toBe('duplicate');
    expect(await usesOf(d.row.id)).toBe(10);
    // The package left sale since: the repeat is still answered with the first result (the package rule comes after the repeat check).
    await t.db.update(packages).set({ status: 'off_sale' }).where(eq(packages.id, pkg!.id));
    try {
      expect((await dev('POST', '/payments', d.auth, body)).datas).toEqual(first.datas);
      expect((await dev('POST', '/payments', d.auth, { ...body, order_no: 'ORD-0001b' })).datas.fields.package_id).toBeTruthy();
    } finally {
      await t.db.update(packages).set({ status: 'on_sale' }).where(eq(packages.id, pkg!.id));
    }
    expect(await usesOf(d.row.id)).toBe(10);
  });

  it('refuses a wrong amount, a package off sale, bad input, and payments from inactive or disabled devices', async () => {
    const d = await device();
    const [pkg] = await t.db.select().from(packages).where(eq(packages.name, '10 inspections'));
    const [off] = await t.db.select().from(packages).where(eq(packages.status, 'off_sale'));
    const body = { order_no: 'ORD-0002', package_id: pkg!.id, amount_cents: pkg!.priceCents + 1, channel: 'cash', paid_at: new Date().toISOString() };
    const wrong = await dev('POST', '/payments', d.auth, body);
    expect(wrong.code).toBe(400);
    expect(wrong.datas.fields.amount_cents).toContain(String(pkg!.priceCents));
    expect((await dev('POST', '/payments', d.auth, { ...body, package_id: off!.id, amount_cents: off!.priceCents })).datas.fields.package_id).toBeTruthy();
    const bad = await dev('POST', '/payments', d.auth, { ...body, amount_cents: 'x', paid_at: 'yesterday' });
    expect(bad.code).toBe(400);
    expect(Object.keys(bad.datas.fields).sort()).toEqual(['amount_cents', 'paid_at']);
    for (const values of [{ status: 'inactive' as const }, { status: 'disabled' as const }]) {
      const x = await device(values);
      const res = await dev('POST', '/payments', x.auth, { ...body, amount_cents: pkg!.priceCents });
      expect(res.status).toBe(403);
    }
    expect(await usesOf(d.row.id)).toBe(10);
  });
});

describe('inspections', () => {
  it('stores the raw inspection, spends one use, matches or creates the user, answers the analysis', async () => {
    const d = await device({ remainingUses: 5 });
    const res = await dev('POST', '/inspections', d.auth, inspection('INS-1', { vitals: { pulse: 72, bp: '120/80' } }));
    expect(res.code, JSON.stringify(res)).toBe(200);
    expect(res.datas).toMatchObject({ inspection_no: 'INS-1', remaining_uses: 4 });
    expect(res.datas.analysis === null || typeof res.datas.analysis.baseline === 'number').toBe(true);
    const [row] = await t.db.select().from(inspections).where(eq(inspections.id, res.datas.id));
    expect(row).toMatchObject({ deviceId: d.row.id, institutionId: clinic3, inspectionNo: 'INS-1', vitals: { pulse: 72, bp: '120/80' } });
    expect(row!.readings.LU).toEqual([100, 102]);
    const second = await dev('POST', '/inspections', d.auth, inspection('INS-2'));
    expect(second.datas.remaining_uses).toBe(3);
    const users = await t.db
      .select()
      .from(endUsers)
      .where(and(eq(endUsers.phone, '13900001111'), eq(endUsers.institutionId, clinic3)));
    expect(users).toHaveLength(1);
    expect(users[0]!.inspectionCount).toBe(2);
    const [device2] = await t.db.select().from(devices).where(eq(devices.id, d.row.id));
    expect(device2!.totalInspections).toBe(2);
  });

  it('is idempotent by inspection_no: a repeat answers the first result and spends nothing; other readings are a duplicate', async () => {
    const d = await device({ remainingUses: 1 });
    const body = inspection('INS-REP');
    const first = await dev('POST', '/inspections', d.auth, body);
    expect(first.datas.remaining_uses).toBe(0);
    // The device is used up now, yet the repeat of what it already sent is answered.
    const again = await dev('POST', '/inspections', d.auth, body);
    expect(again.code).toBe(200);
    expect(again.datas).toEqual(first.datas);
    const other = await dev('POST', '/inspections', d.auth, { ...body, readings: readings(50) });
    expect(other.code).toBe(400);
    expect(other.datas.error.reason).toBe('duplicate');
    expect(await usesOf(d.row.id)).toBe(0);
  });

  it('concurrent inspections never spend more uses than the device has', async () => {
    const d = await device({ remainingUses: 3 });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => dev('POST', '/inspections', d.auth, inspection(`INS-C-${i}`))));
    expect(results.filter((r) => r.code === 200)).toHaveLength(3);
    expect(results.filter((r) => r.code === 403).every((r) => r.datas.error.reason === 'no_uses')).toBe(true);
    expect(await usesOf(d.row.id)).toBe(0);
    expect(await t.db.select().from(inspections).where(eq(inspections.deviceId, d.row.id))).toHaveLength(3);
  });

  it('a time-based device inspects without spending uses', async () => {
    const d = await device({ remainingUses: null, expiresAt: new Date(Date.now() + 86_400_000) });
    const res = await dev('POST', '/inspections', d.auth, inspection('INS-T'));
    expect(res.datas.remaining_uses).toBeNull();
  });

  it('refuses bad readings, a user or doctor of another institution, and a device in stock', async () => {
    const d = await device();
    const bad = await dev('POST', '/inspections', d.auth, { ...inspection('INS-BAD'), readings: { ...readings(), LU: [201, 0] } });
    expect(bad.code).toBe(400);
    expect(bad.datas.fields).toBeTruthy();
    const missing = { ...readings() } as Record<string, unknown>;
    delete missing.ST;
    expect((await dev('POST', '/inspections', d.auth, { ...inspection('INS-BAD2'), readings: missing })).code).toBe(400);
    const [foreign] = await t.db.select({ id: endUsers.id }).from(endUsers).innerJoin(institutions, eq(institutions.id, endUsers.institutionId)).where(eq(institutions.username, 'clinic3b')).limit(1);
    if (foreign) expect((await dev('POST', '/inspections', d.auth, inspection('INS-F', { user: { id: foreign.id } }))).datas.fields.user).toBeTruthy();
    expect((await dev('POST', '/inspections', d.auth, inspection('INS-D', { doctor_id: 2_000_000_000 }))).datas.fields.doctor_id).toBeTruthy();
    const stock = await device({ institutionId: null });
    expect((await dev('POST', '/inspections', stock.auth, inspection('INS-S'))).code).toBe(400);
    expect(await usesOf(d.row.id)).toBe(10);
  });
});

describe('unknown paths', () => {
  it('answer a JSON 404 under /deviceapi and /adminapi, never the web app page', async () => {
    const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'webdist-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<html><script nonce="__CSP_NONCE__"></script>app</html>');
    const app = await buildAppOn(t.db, { webDist });
    try {
      for (const url of ['/deviceapi/v1/nope', '/deviceapi/nope', '/deviceapi', '/adminapi/nope', '/adminapi/equipment/nope?x=1']) {
        const res = await app.inject({ method: 'GET', url, headers: { authorization: DEMO } });
        expect(res.statusCode, `${url} ${res.body}`).toBe(404);
        expect(res.headers['content-type']).toContain('application/json');
        expect(res.json().code).toBe(404);
      }
      const post = await app.inject({ method: 'POST', url: '/deviceapi/v1/nope', payload: {} });
      expect(post.statusCode).toBe(404);
      const page = await app.inject({ method: 'GET', url: '/dashboard/index' });
      expect(page.headers['content-type']).toContain('text/html');
    } finally {
      await app.close();
      fs.rmSync(webDist, { recursive: true, force: true });
    }
  });
});

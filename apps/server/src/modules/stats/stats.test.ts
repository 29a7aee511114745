import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { branchApplications, devicePayments, devices, distributionRecords, financeAccounts, inspections, institutions, ledgerEntries, packages, payouts } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { recordDevicePayment } from '../finance';
import { DAY } from '../../lib/time';

/*
 * Stats (issue 13 item 1): every figure checked against the demo data computed here in plain JS from
 * the rows (not by the service's SQL), scoping (a sub-agent sees its subtree only, the other tree none
 * of it), who may open which page, a grade-1 caller refused another tree's finance, bad ranges, export.
 */

let t: TestApp;
let admin: string;
let keys: Record<string, string>;
let inst: Record<string, number>;
let paths: Map<number, string>;

const day = (d: Date) => d.toISOString().slice(0, 10);
const today = day(new Date());
const yearAgo = day(new Date(Date.now() - 364 * DAY));
const monthAgo = day(new Date(Date.now() - 29 * DAY));
const start = (from: string) => new Date(`${from}T00:00:00Z`).getTime();
const end = (to: string) => new Date(`${to}T00:00:00Z`).getTime() + DAY;
const within = (at: Date | null, from: string, to: string) => !!at && at.getTime() >= start(from) && at.getTime() < end(to);
const stats = (page: string, key: string, query: Record<string, unknown>, lang?: string) => t.call('GET', `/stats/${page}`, { key, query, lang });
const pointValue = (points: { key: string; value: number }[], key: string) => points.find((p) => p.key === key)?.value ?? 0;
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
const inTree = (rootId: number) => (id: number | null) => id != null && !!paths.get(id)?.startsWith(paths.get(rootId)!);

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
  const rows = await t.db.select({ id: institutions.id, username: institutions.username, path: institutions.path }).from(institutions);
  inst = Object.fromEntries(rows.map((r) => [r.username, r.id]));
  paths = new Map(rows.map((r) => [r.id, r.path]));
  keys = {};
  for (const u of ['agent1', 'agent2', 'clinic3', 'agent1b', 'agent2b']) keys[u] = (await t.login(u, 'institution')).key;
});
afterAll(async () => {
  await t?.close();
});

describe('equipment stats (grade 0)', () => {
  it('answers devices by status, activations, inspections per day and active devices as the rows say (30 days, by day)', async () => {
    const res = await stats('equipment', admin, { from: monthAgo, to: today });
    expect(res.code, res.raw).toBe(200);
    const d = res.datas;
    expect(d.range).toEqual({ from: monthAgo, to: today, granularity: 'day' });
    const devs = await t.db.select().from(devices);
    for (const s of ['active', 'inactive', 'disabled']) expect(pointValue(d.series.byStatus, s)).toBe(devs.filter((x) => x.status === s).length);
    expect(d.kpis.devices).toBe(devs.length);
    // Every day of the range is there, zeros included.
    expect(d.series.inspections).toHaveLength(30);
    expect(d.series.inspections[0].key).toBe(monthAgo);
    const insp = (await t.db.select({ deviceId: inspections.deviceId, institutionId: inspections.institutionId, at: inspections.measuredAt }).from(inspections)).filter((x) =>
      within(x.at, monthAgo, today),
    );
    expect(insp.length).toBeGreaterThan(0);
    for (const p of d.series.inspections) expect(p.value, p.key).toBe(insp.filter((x) => day(x.at) === p.key).length);
    expect(d.kpis.inspections).toBe(insp.length);
    expect(d.kpis.activeDevices).toBe(new Set(insp.map((x) => x.deviceId)).size);
    const activated = devs.filter((x) => within(x.activatedAt, monthAgo, today));
    expect(d.kpis.activations).toBe(activated.length);
    for (const p of d.series.activations) expect(p.value, p.key).toBe(activated.filter((x) => day(x.activatedAt!) === p.key).length);
    const soon = Date.now() + 30 * DAY;
    const expiring = devs.filter((x) => x.expiresAt && x.expiresAt.getTime() >= Date.now() - 60_000 && x.expiresAt.getTime() <= soon).length;
    expect(d.kpis.expiringSoon).toBe(expiring);
    // Top institutions: the distinct devices each inspected with, largest first.
    const perInst = new Map<number, Set<number>>();
    for (const x of insp) perInst.set(x.institutionId, (perInst.get(x.institutionId) ?? new Set()).add(x.deviceId));
    const top = [...perInst].map(([id, s]) => ({ key: String(id), value: s.size })).sort((a, b) => b.value - a.value || Number(a.key) - Number(b.key));
    expect(d.series.topInstitutions.map((p: { key: string; value: number }) => ({ key: p.key, value: p.value }))).toEqual(top.slice(0, 10));
    expect(d.series.topInstitutions[0].label).toBeTruthy();
    expect(d.series.topRegions.length).toBeGreaterThan(0);
    expect(d.series.topRegions[0].label).toMatch(/省|市|自治区/);
  });

  it('buckets a year by month; the months add up to the year', async () => {
    const res = await stats('equipment', admin, { from: yearAgo, to: today });
    expect(res.datas.range.granularity).toBe('month');
    const keys = res.datas.series.inspections.map((p: { key: string }) => p.key);
    expect(keys[0]).toBe(yearAgo.slice(0, 7));
    expect(keys.at(-1)).toBe(today.slice(0, 7));
    const all = (await t.db.select({ at: inspections.measuredAt }).from(inspections)).filter((x) => within(x.at, yearAgo, today));
    expect(res.datas.kpis.inspections).toBe(all.length);
    // A granularity given wins over the range's default.
    const byDay = await stats('equipment', admin, { from: yearAgo, to: today, granularity: 'day' });
    expect(byDay.datas.series.inspections).toHaveLength(365);
  });
});

describe('distribution and institution stats (grade 0)', () => {
  it('distribution: moves per bucket, stock vs distributed, where they went', async () => {
    const res = await stats('distribution', admin, { from: yearAgo, to: today });
    expect(res.code, res.raw).toBe(200);
    const recs = (await t.db.select().from(distributionRecords)).filter((r) => within(r.createdAt, yearAgo, today));
    expect(res.datas.kpis.moved).toBe(sum(recs.map((r) => r.deviceCount)));
    expect(res.datas.kpis.moved).toBeGreaterThan(0);
    expect(res.datas.series.byInstitution.length).toBeGreaterThan(0);
    expect(res.datas.kpis.records).toBe(recs.length);
    const devs = await t.db.select({ owner: devices.institutionId }).from(devices);
    expect(res.datas.kpis.inStock).toBe(devs.filter((x) => x.owner == null).length);
    expect(res.datas.kpis.distributed).toBe(devs.filter((x) => x.owner != null).length);
    for (const p of res.datas.series.byInstitution) expect(p.value).toBe(sum(recs.filter((r) => String(r.toInstitutionId) === p.key).map((r) => r.deviceCount)));
  });

  it('institution: by grade, status and term, new ones, branch applications by state', async () => {
    const res = await stats('institution', admin, { from: yearAgo, to: today });
    expect(res.code, res.raw).toBe(200);
    const all = await t.db.select().from(institutions);
    for (const g of [1, 2, 3]) expect(pointValue(res.datas.series.byGrade, `grade${g}`)).toBe(all.filter((i) => i.grade === g).length);
    expect(pointValue(res.datas.series.byStatus, 'enabled')).toBe(all.filter((i) => i.status === 1).length);
    expect(res.datas.kpis.overdue).toBe(all.filter((i) => i.termExpiresAt && i.termExpiresAt.getTime() <= Date.now()).length);
    expect(res.datas.kpis.overdue).toBeGreaterThan(0);
    expect(res.datas.kpis.newInRange).toBe(all.filter((i) => within(i.createdAt, yearAgo, today)).length);
    const apps = await t.db.select().from(branchApplications);
    for (const s of ['pending', 'approved', 'rejected']) expect(pointValue(res.datas.series.applications, s)).toBe(apps.filter((a) => a.state === s && within(a.createdAt, yearAgo, today)).length);
    expect(res.datas.kpis.pendingApplications).toBe(apps.filter((a) => a.state === 'pending').length);
  });
});

describe('finance stats', () => {
  it('grade 1: its own income (its subtree s paid payments) and commission (its lines), by month, package and child', async () => {
    const res = await stats('finance', keys.agent1!, { from: yearAgo, to: today });
    expect(res.code, res.raw).toBe(200);
    const me = inst.agent1!;
    expect(res.datas.institution).toMatchObject({ id: me, grade: 1 });
    const pays = (await t.db.select().from(devicePayments)).filter((p) => p.status === 'paid' && within(p.paidAt, yearAgo, today));
    const mine = pays.filter((p) => inTree(me)(p.institutionId));
    const share = (p: (typeof pays)[number]) => (p.l1InstitutionId === me ? Number(p.l1Cents) : 0) + (p.l2InstitutionId === me ? Number(p.l2Cents) : 0);
    expect(res.datas.kpis.income).toBe(sum(mine.map((p) => Number(p.amountCents))));
    expect(res.datas.kpis.commission).toBe(sum(mine.map(share)));
    expect(res.datas.kpis.commission).toBeGreaterThan(0);
    for (const p of res.datas.series.income) expect(p.value, p.key).toBe(sum(mine.filter((x) => day(x.paidAt).startsWith(p.key)).map((x) => Number(x.amountCents))));
    expect(sum(res.datas.series.byChild.map((p: { value: number }) => p.value))).toBe(res.datas.kpis.commission);
    expect(res.datas.series.byChild[0].key).toBe(String(inst.agent2));
    // The balance at the end of the last bucket is the balance now (the ledger sums to it).
    const [acct] = await t.db.select().from(financeAccounts).where(eq(financeAccounts.institutionId, me));
    expect(res.datas.kpis.balance).toBe(Number(acct?.balanceCents ?? 0));
    expect(res.datas.series.balance.at(-1).value).toBe(res.datas.kpis.balance);
    const entries = (await t.db.select().from(ledgerEntries)).filter((e) => e.institutionId === me);
    const [y, m] = String(res.datas.series.balance[0].key).split('-').map(Number);
    const monthEnd = Date.UTC(y!, m!, 1); // the first bucket's month ends where the next begins
    expect(res.datas.series.balance[0].value).toBe(sum(entries.filter((e) => e.createdAt.getTime() < monthEnd).map((e) => Number(e.amountCents))));
    const pouts = (await t.db.select().from(payouts)).filter((p) => p.institutionId === me);
    expect(res.datas.kpis.pendingPayouts).toBe(sum(pouts.filter((p) => p.status === 'pending').map((p) => Number(p.amountCents))));
  });

  it('a payment in agent2 s subtree counts for agent2 and agent1, never for the other tree', async () => {
    const q = { from: monthAgo, to: today };
    const before = await Promise.all(['agent1', 'agent2', 'agent1b', 'agent2b'].map((u) => stats('finance', keys[u]!, q)));
    const [device] = await t.db.insert(devices).values({ serial: 'STATS-1', institutionId: inst.clinic3!, status: 'active', remainingUses: 1 }).returning();
    const [pkg] = await t.db
      .select({ id: packages.id, price: packages.priceCents })
      .from(packages)
      .where(and(eq(packages.status, 'on_sale'), eq(packages.kind, 'count')))
      .orderBy(packages.id)
      .limit(1);
    await t.db.transaction((tx) =>
      recordDevicePayment(tx, { deviceId: device!.id, packageId: pkg!.id, orderNo: 'STATS-ORDER-1', amountCents: pkg!.price, channel: 'cash', paidAt: new Date(Date.now() - 3_600_000) }),
    );
    const [row] = await t.db.select().from(devicePayments).where(eq(devicePayments.orderNo, 'STATS-ORDER-1'));
    const after = await Promise.all(['agent1', 'agent2', 'agent1b', 'agent2b'].map((u) => stats('finance', keys[u]!, q)));
    const delta = (i: number, k: string) => after[i]!.datas.kpis[k] - before[i]!.datas.kpis[k];
    expect(delta(0, 'income')).toBe(pkg!.price);
    expect(delta(1, 'income')).toBe(pkg!.price);
    expect(pkg!.price).toBeGreaterThan(0);
    expect(delta(0, 'commission')).toBe(Number(row!.l1Cents));
    expect(delta(1, 'commission')).toBe(Number(row!.l2Cents));
    expect(delta(1, 'balance')).toBe(Number(row!.l2Cents));
    for (const i of [2, 3]) for (const k of ['income', 'commission', 'balance']) expect(delta(i, k)).toBe(0);
  });

  it('grade 0: any institution by id, or the platform s share without one', async () => {
    const res = await stats('finance', admin, { from: yearAgo, to: today, institution_id: inst.agent2 });
    expect(res.code, res.raw).toBe(200);
    expect(res.datas.institution).toMatchObject({ id: inst.agent2, grade: 2 });
    const own = await stats('finance', keys.agent2!, { from: yearAgo, to: today });
    expect(res.datas.kpis).toEqual(own.datas.kpis);
    const platform = await stats('finance', admin, { from: yearAgo, to: today });
    expect(platform.datas.institution).toBeNull();
    const pays = (await t.db.select().from(devicePayments)).filter((p) => p.status === 'paid' && within(p.paidAt, yearAgo, today));
    expect(platform.datas.kpis.commission).toBe(sum(pays.map((p) => Number(p.platformCents))));
    expect(platform.datas.kpis.income).toBe(sum(pays.map((p) => Number(p.amountCents))));
    expect((await stats('finance', admin, { from: yearAgo, to: today, institution_id: 999_999 })).code).toBe(400);
  });

  it('grade 1 may look into its subtree, never another tree; grade 2 never up', async () => {
    expect((await stats('finance', keys.agent1!, { from: monthAgo, to: today, institution_id: inst.agent2 })).code).toBe(200);
    for (const [who, target] of [
      ['agent1', 'agent1b'],
      ['agent1', 'agent2b'],
      ['agent2', 'agent1'],
      ['agent2b', 'agent2'],
    ] as const) {
      const res = await stats('finance', keys[who]!, { from: monthAgo, to: today, institution_id: inst[target] });
      expect(res.code, `${who} -> ${target}`).toBe(400);
      expect(res.raw).not.toContain('balance');
    }
  });
});

describe('access and input', () => {
  it('grade 3 opens no stats page; grades 1-2 only finance; grade 0 all four', async () => {
    const q = { from: monthAgo, to: today };
    for (const page of ['equipment', 'distribution', 'institution', 'finance']) {
      expect((await stats(page, keys.clinic3!, q)).code, `clinic3 ${page}`).toBe(400);
      expect((await stats(page, admin, q)).code, `admin ${page}`).toBe(200);
    }
    for (const page of ['equipment', 'distribution', 'institution']) expect((await stats(page, keys.agent1!, q)).code, `agent1 ${page}`).toBe(400);
  });

  it('refuses bad ranges with a message in the caller s language', async () => {
    const reversed = await stats('equipment', admin, { from: today, to: monthAgo }, 'en');
    expect(reversed.code).toBe(400);
    expect(reversed.raw).toContain('The start date cannot be after the end date');
    const long = await stats('equipment', admin, { from: '2020-01-01', to: '2026-01-01' }, 'zh');
    expect(long.code).toBe(400);
    expect(long.raw).toContain('统计区间最长 1096 天');
    for (const query of [{ from: '2026-13-01', to: today }, { from: monthAgo }, { from: 'yesterday', to: today }, { from: monthAgo, to: today, granularity: 'week' }])
      expect((await stats('equipment', admin, query)).code, JSON.stringify(query)).toBe(400);
  });

  it('exports one table as CSV with titles in the caller s language; refuses a page the caller cannot open', async () => {
    const query = { key: admin, format: 'csv', page: 'equipment', table: 'byStatus', from: monthAgo, to: today };
    const res = await t.app.inject({ method: 'GET', url: '/adminapi/stats/export', query, headers: { 'accept-language': 'zh' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('状态,设备数');
    const active = (await t.db.select().from(devices)).filter((d) => d.status === 'active').length;
    expect(lines).toContain(`已激活,${active}`);
    const money = await t.app.inject({ method: 'GET', url: '/adminapi/stats/export', query: { ...query, key: keys.agent1!, page: 'finance', table: 'income', format: 'xlsx' } });
    expect(money.statusCode).toBe(200);
    expect(money.headers['content-type']).toContain('spreadsheetml');
    const refused = await t.call('GET', '/stats/export', { key: keys.agent1!, query: { ...query, key: undefined } });
    expect(refused.code).toBe(400);
    const badTable = await t.call('GET', '/stats/export', { key: admin, query: { ...query, key: undefined, table: 'income' } });
    expect(badTable.code).toBe(400);
  });
});

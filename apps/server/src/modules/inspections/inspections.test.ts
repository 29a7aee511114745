import { and, asc, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectionListQuery, MERIDIANS } from '@app/contract';
import { acupointActions, auditLog, devices, diseases, doctors, endUsers, inspectionAnalyses, inspections, institutions, treatmentSessions } from '../../db/schema';
import { createTestApp, platformAuth, preparedBy, type TestApp } from '../../test/harness';
import { list as listService } from './list';

/*
 * Inspections (issue 12 items 2-4): the demo data, the list's scope for every grade and the other tree,
 * its filters and export, the detail with versions, recompute keeping the old version (also under
 * concurrent recomputes), the report and result data, and treatment sessions (scoped, audited).
 */

let t: TestApp;
let admin: string;
const keys: Record<string, string> = {};
let inst: Record<string, number>;
/** Institutions each account sees. */
let sees: Record<string, number[]>;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.login('admin')).key;
  for (const u of ['agent1', 'agent2', 'clinic3', 'clinic3b', 'agent1b']) keys[u] = (await t.login(u, 'institution')).key;
  keys.auditor = (await t.login('auditor')).key;
  const rows = await t.db.select({ id: institutions.id, username: institutions.username }).from(institutions);
  inst = Object.fromEntries(rows.map((r) => [r.username, r.id]));
  sees = {
    agent1: [inst.agent1!, inst.agent2!, inst.clinic3!, inst.overdue3!],
    agent2: [inst.agent2!, inst.clinic3!, inst.overdue3!],
    clinic3: [inst.clinic3!],
    clinic3b: [inst.clinic3b!],
    agent1b: [inst.agent1b!, inst.agent2b!, inst.clinic3b!],
  };
});
afterAll(async () => {
  await t?.close();
});

const list = (key: string, query: Record<string, unknown> = {}) => t.call('GET', '/inspection/list', { key, query: { limit: 100, ...query } });
const countWhere = async (where?: any) => (await t.db.select({ n: count() }).from(inspections).where(where))[0]!.n;
const firstOf = async (username: string) => (await t.db.select().from(inspections).where(eq(inspections.institutionId, inst[username]!)).orderBy(asc(inspections.id)).limit(1))[0]!;

/** A device API call as the demo device. */
async function deviceInspect(
  no: string,
  readings: Record<string, [number, number]>,
  user: Record<string, unknown> = { name: 'Report Person', gender: 'female', birth_date: '1980-05-06', id_number: '11010519491231002X' },
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/deviceapi/v1/inspections',
    headers: { authorization: 'Bearer BE-DEMO-0001.demo-device-secret-0001' },
    payload: { inspection_no: no, measured_at: new Date().toISOString(), user, readings },
  });
  return res.json();
}
const flat = (v: number) => Object.fromEntries(MERIDIANS.map((m) => [m, [v, v]])) as Record<string, [number, number]>;

describe('demo data', () => {
  it('seeds about 200 inspections through the device API path: real analyses, counts on people and doctors', async () => {
    expect(await countWhere()).toBe(200);
    expect(await countWhere(isNotNull(inspections.analysis))).toBe(200);
    const [row] = await t.db.select().from(inspections).limit(1);
    expect((row!.analysis as any).meridians).toHaveLength(12);
    const levels = await t.db.select({ level: inspections.worstLevel, n: count() }).from(inspections).groupBy(inspections.worstLevel);
    expect(levels.length).toBeGreaterThan(1);
    // The counters maintained by the inspection path agree with the rows.
    const perDoctor = await t.db.select({ id: inspections.doctorId, n: count() }).from(inspections).where(isNotNull(inspections.doctorId)).groupBy(inspections.doctorId);
    expect(perDoctor.length).toBeGreaterThan(2);
    for (const d of perDoctor) expect((await t.db.select({ c: doctors.inspectionCount }).from(doctors).where(eq(doctors.id, d.id!)))[0]!.c).toBe(d.n);
    const perUser = await t.db.select({ id: inspections.endUserId, n: count() }).from(inspections).groupBy(inspections.endUserId);
    for (const u of perUser.slice(0, 10)) expect((await t.db.select({ c: endUsers.inspectionCount }).from(endUsers).where(eq(endUsers.id, u.id)))[0]!.c).toBe(u.n);
  });
});

describe('list: scope', () => {
  it('the platform sees every inspection; each institution its subtree only; the other tree nothing of this one', async () => {
    const all = await list(admin);
    expect(all.code).toBe(200);
    expect(all.datas.total).toBe(200);
    expect((await list(keys.auditor!)).datas.total).toBe(200);
    for (const who of Object.keys(sees)) {
      const res = await list(keys[who]!, { limit: 100 });
      expect(res.code, who).toBe(200);
      const want = await countWhere(inArray(inspections.institutionId, sees[who]!));
      expect(res.datas.total, who).toBe(want);
      for (const r of res.datas.list) expect(sees[who], who).toContain(r.institution_id);
    }
    expect((await list(keys.clinic3!)).datas.total).toBeGreaterThan(0);
    expect((await list(keys.clinic3b!)).datas.total).toBeGreaterThan(0);
  });

  it('rows carry person, doctor, device, institution and the headline, newest first', async () => {
    const res = await list(admin, { limit: 20 });
    const r = res.datas.list[0];
    expect(r).toMatchObject({
      inspection_no: expect.stringMatching(/^DEMO-/),
      user_name: expect.any(String),
      device_serial: expect.any(String),
      institution_name: expect.any(String),
      analysis_version: 1,
    });
    expect(['normal', 'attention', 'abnormal']).toContain(r.worst_level);
    expect(['high', 'medium', 'low', 'none']).toContain(r.top_risk);
    const times = res.datas.list.map((x: any) => x.measured_at);
    expect([...times].sort().reverse()).toEqual(times);
    const asc_ = await list(admin, { limit: 20, sort: 'measured_at', order: 'ascend' });
    expect(asc_.datas.list[0].measured_at <= times.at(-1)).toBe(true);
  });

  it('every page carries the whole count, past the end too; the rows are the stored ones, times in ISO form', async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 8; page++) {
      const res = await list(admin, { limit: 30, page });
      expect(res.datas.total, `page ${page}`).toBe(200);
      expect(res.datas.capped).toBe(false);
      seen.push(...res.datas.list.map((x: any) => x.id));
    }
    expect(new Set(seen).size).toBe(200);
    const past = await list(admin, { limit: 30, page: 9 });
    expect(past.datas).toMatchObject({ list: [], total: 200 });
    expect((await list(admin, { keyword: 'no-such-number' })).datas).toMatchObject({ list: [], total: 0 });
    const [first] = (await list(admin, { limit: 1 })).datas.list;
    const [stored] = await t.db.select().from(inspections).where(eq(inspections.id, first.id));
    expect(first.measured_at).toBe(stored!.measuredAt.toISOString());
    expect(first.user_id).toBe(stored!.endUserId);
  });

  it('an institution filtering on an institution outside its subtree is refused', async () => {
    const res = await list(keys.clinic3!, { institution_id: inst.clinic3b });
    expect(res.code).toBe(400);
    expect(res.datas.error).toMatch(/permission/);
  });
});

describe('list: filters', () => {
  it('institution, device, doctor, person, user, number, date range, risk and level each narrow to exactly the matching rows', async () => {
    const sample = await firstOf('clinic3');
    const [user] = await t.db.select().from(endUsers).where(eq(endUsers.id, sample.endUserId));
    const from = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    const cases: [Record<string, unknown>, any][] = [
      [{ institution_id: inst.clinic3 }, eq(inspections.institutionId, inst.clinic3!)],
      [{ device_id: sample.deviceId }, eq(inspections.deviceId, sample.deviceId)],
      [{ user_id: sample.endUserId }, eq(inspections.endUserId, sample.endUserId)],
      [{ keyword: sample.inspectionNo }, eq(inspections.inspectionNo, sample.inspectionNo)],
      [{ risk: 'high' }, eq(inspections.topRisk, 'high')],
      [{ risk: 'none' }, eq(inspections.topRisk, 'none')],
      [{ level: 'abnormal' }, eq(inspections.worstLevel, 'abnormal')],
      [{ date_from: from, date_to: to }, sql`${inspections.measuredAt} >= ${`${from}T00:00:00Z`}::timestamptz and ${inspections.measuredAt} < (${to}::date + 1)::timestamptz`],
    ];
    if (sample.doctorId) cases.push([{ doctor_id: sample.doctorId }, eq(inspections.doctorId, sample.doctorId)]);
    for (const [query, where] of cases) {
      const res = await list(admin, { ...query, limit: 100 });
      expect(res.code, JSON.stringify(query)).toBe(200);
      const want = await countWhere(where);
      expect(res.datas.total, JSON.stringify(query)).toBe(want);
      expect(want, JSON.stringify(query)).toBeGreaterThan(0);
    }
    const byPerson = await list(admin, { person: user!.name });
    expect(byPerson.datas.total).toBeGreaterThan(0);
    for (const r of byPerson.datas.list) expect(r.user_name).toContain(user!.name);
    // Filters combine with the scope: the other tree's filter on this device finds nothing.
    expect((await list(keys.agent1b!, { device_id: sample.deviceId })).datas.total).toBe(0);
    // Bad input: 400 at the field, in the caller's language.
    const bad = await t.call('GET', '/inspection/list', { key: admin, query: { risk: 'extreme' }, lang: 'zh' });
    expect(bad.code).toBe(400);
    expect(bad.datas.fields).toHaveProperty('risk');
  });
});

describe('export', () => {
  it('CSV with titles in the reader language and one line per row of the filtered, scoped list', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/adminapi/inspection/export', query: { key: keys.agent2!, format: 'csv' }, headers: { 'accept-language': 'zh' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain('检测编号');
    expect(lines.length - 1).toBe(await countWhere(inArray(inspections.institutionId, sees.agent2!)));
  });

  it('XLSX with the same filters as the list', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/adminapi/inspection/export', query: { key: admin, format: 'xlsx', risk: 'high' }, headers: { 'accept-language': 'en' } });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as any);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Inspection number');
    expect(sheet.rowCount - 1).toBe(await countWhere(eq(inspections.topRisk, 'high')));
  });
});

describe('detail, report and result: scope', () => {
  it('clinic3 and its ancestors read its inspection; the other tree and a missing id are refused alike', async () => {
    const own = await firstOf('clinic3');
    for (const who of ['agent1', 'agent2', 'clinic3']) {
      for (const path of ['/inspection/detail', '/inspection/report', '/inspection/result']) {
        const res = await t.call('GET', path, { key: keys[who], query: { id: own.id } });
        expect(res.code, `${who} ${path}`).toBe(200);
      }
    }
    for (const path of ['/inspection/detail', '/inspection/report', '/inspection/result']) {
      const foreign = await t.call('GET', path, { key: keys.clinic3b, query: { id: own.id } });
      const missing = await t.call('GET', path, { key: keys.clinic3b, query: { id: 2_000_000_000 } });
      expect(foreign.code).toBe(400);
      expect(foreign.datas.error).toBe(missing.datas.error);
      const agent1b = await t.call('GET', path, { key: keys.agent1b, query: { id: own.id } });
      expect(agent1b.code).toBe(400);
    }
    const missingAdmin = await t.call('GET', '/inspection/detail', { key: admin, query: { id: 2_000_000_000 } });
    expect(missingAdmin.datas.error).toMatch(/does not exist/);
  });

  it('the detail names the person with masked numbers, the device, the doctor and one version', async () => {
    const own = await firstOf('clinic3');
    const res = await t.call('GET', '/inspection/detail', { key: keys.clinic3, query: { id: own.id } });
    expect(res.datas).toMatchObject({ id: own.id, inspection_no: own.inspectionNo, version: 1, latest_version: 1, versions: [{ version: 1, created_by: 'device' }] });
    expect(res.datas.analysis.meridians).toHaveLength(12);
    if (res.datas.user.id_number) expect(res.datas.user.id_number).toContain('****');
  });
});

describe('recompute', () => {
  it('writes a new version from today’s master data and keeps the old one; grade 0 only; audited', async () => {
    // LU excess: readings where LU is far above the rest.
    const readings = flat(100);
    readings.LU = [170, 170];
    const sent = await deviceInspect('RECOMPUTE-0001', readings);
    expect(sent.code, JSON.stringify(sent)).toBe(200);
    const id = sent.datas.id;
    const before = await t.call('GET', '/inspection/detail', { key: admin, query: { id } });
    const original = before.datas.analysis;
    // A disease pattern changes after the inspection: the stored analysis does not.
    const [d] = await t.db
      .insert(diseases)
      .values({
        categoryId: (await t.db.select({ c: diseases.categoryId }).from(diseases).limit(1))[0]!.c,
        name: { zh: '新', en: 'New pattern', es: 'Nuevo', ja: '新' },
        pattern: [{ meridian: 'LU', status: 'excess' }],
        sort: -1,
      } as any)
      .returning();
    expect((await t.call('GET', '/inspection/detail', { key: admin, query: { id } })).datas.analysis).toEqual(original);

    expect((await t.call('POST', '/inspection/recompute', { key: keys.clinic3, body: { id } })).datas.error).toMatch(/permission/);
    expect((await t.call('POST', '/inspection/recompute', { key: keys.auditor, body: { id } })).datas.error).toMatch(/permission/);
    const res = await t.call('POST', '/inspection/recompute', { key: admin, body: { id } });
    expect(res.code, res.raw).toBe(200);
    expect(res.datas).toEqual({ id, version: 2 });

    const after = await t.call('GET', '/inspection/detail', { key: admin, query: { id } });
    expect(after.datas.version).toBe(2);
    expect(after.datas.versions.map((v: any) => [v.version, v.created_by])).toEqual([
      [1, 'device'],
      [2, 'admin'],
    ]);
    expect(after.datas.analysis.diseases.map((x: any) => x.id)).toContain(d!.id);
    const v1 = await t.call('GET', '/inspection/detail', { key: admin, query: { id, version: 1 } });
    expect(v1.datas.analysis).toEqual(original);
    expect(v1.datas.version).toBe(1);
    expect((await t.call('GET', '/inspection/detail', { key: admin, query: { id, version: 9 } })).code).toBe(400);

    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, 'inspections.recompute'), eq(auditLog.recordId, id)));
    expect(audit).toMatchObject({ recordType: 'inspection', actorName: 'admin' });
    expect((audit!.before as any).analysis_version).toBe(1);
    expect((audit!.after as any).analysis_version).toBe(2);
  });

  it('concurrent recomputes of one inspection get consecutive versions, none lost', async () => {
    const sent = await deviceInspect('RECOMPUTE-0002', flat(90));
    const id = sent.datas.id;
    const answers = await Promise.all(Array.from({ length: 4 }, () => t.call('POST', '/inspection/recompute', { key: admin, body: { id } })));
    expect(answers.map((a) => a.code)).toEqual([200, 200, 200, 200]);
    expect(answers.map((a) => a.datas.version).sort()).toEqual([2, 3, 4, 5]);
    const versions = await t.db.select({ v: inspectionAnalyses.version }).from(inspectionAnalyses).where(eq(inspectionAnalyses.inspectionId, id)).orderBy(asc(inspectionAnalyses.version));
    expect(versions.map((v) => v.v)).toEqual([1, 2, 3, 4, 5]);
    const [row] = await t.db.select({ v: inspections.analysisVersion }).from(inspections).where(eq(inspections.id, id));
    expect(row!.v).toBe(5);
  });
});

describe('report and result data', () => {
  it('the report: masked ID, disease texts, advised acupoints and diagrams with markers, the disclaimer', async () => {
    const readings = flat(100);
    readings.LU = [170, 170];
    readings.LI = [170, 170];
    const sent = await deviceInspect('REPORT-0001', readings);
    const res = await t.call('GET', '/inspection/report', { key: keys.clinic3, query: { id: sent.datas.id } });
    expect(res.code, res.raw).toBe(200);
    const r = res.datas;
    expect(r.inspection.user.id_number).toBe('110105********002X');
    expect(r.inspection.analysis.diseases.length).toBeGreaterThan(0);
    expect(r.diseases.map((d: any) => d.id)).toEqual(r.inspection.analysis.diseases.map((d: any) => d.id));
    expect(r.acupoints.length).toBe(r.inspection.analysis.advice.acupoints.length);
    expect(r.disclaimer).toMatch(/qualified practitioner/);
    for (const s of r.schematics) {
      expect(s.markers.some((m: any) => m.advised)).toBe(true);
      for (const m of s.markers) expect(m.x >= 0 && m.x <= 1 && m.y >= 0 && m.y <= 1).toBe(true);
    }
  });

  it('the result: each advised acupoint with its treatment actions; sessions recorded, scoped and audited', async () => {
    const readings = flat(100);
    readings.LU = [170, 170];
    readings.LI = [170, 170];
    const sent = await deviceInspect('RESULT-0001', readings);
    const id = sent.datas.id;
    const res = await t.call('GET', '/inspection/result', { key: keys.clinic3, query: { id } });
    expect(res.code, res.raw).toBe(200);
    const plan = res.datas.plan;
    expect(plan.length).toBeGreaterThan(0);
    const withActions = await t.db
      .select({ id: acupointActions.acupointId })
      .from(acupointActions)
      .where(
        inArray(
          acupointActions.acupointId,
          plan.map((p: any) => p.id),
        ),
      );
    for (const p of plan) expect(p.actions.length).toBe(withActions.filter((a) => a.id === p.id).length);
    expect(res.datas.sessions).toEqual([]);

    const advised = plan.slice(0, 2).map((p: any) => p.id);
    const today = new Date().toISOString().slice(0, 10);
    const body = { inspection_id: id, session_date: today, acupoint_ids: advised, minutes: 20, notes: 'Well tolerated' };
    expect((await t.call('POST', '/inspection/add_session', { key: keys.clinic3b, body })).datas.error).toMatch(/permission/);
    expect((await t.call('POST', '/inspection/add_session', { key: keys.agent1b, body })).datas.error).toMatch(/permission/);
    const future = await t.call('POST', '/inspection/add_session', { key: keys.clinic3, body: { ...body, session_date: '2999-01-01' }, lang: 'es' });
    expect(future.code).toBe(400);
    expect(future.datas.fields.session_date).toMatch(/posterior a hoy/);
    const notAdvised = await t.call('POST', '/inspection/add_session', { key: keys.clinic3, body: { ...body, acupoint_ids: [2_000_000_000] } });
    expect(notAdvised.code).toBe(400);
    expect(notAdvised.datas.fields).toHaveProperty('acupoint_ids');
    expect(await t.db.select().from(treatmentSessions).where(eq(treatmentSessions.inspectionId, id))).toHaveLength(0);

    const ok = await t.call('POST', '/inspection/add_session', { key: keys.clinic3, body });
    expect(ok.code, ok.raw).toBe(200);
    const again = await t.call('GET', '/inspection/result', { key: keys.agent2, query: { id } });
    expect(again.datas.sessions).toHaveLength(1);
    expect(again.datas.sessions[0]).toMatchObject({ session_date: today, minutes: 20, notes: 'Well tolerated', created_by: 'clinic3' });
    expect(again.datas.sessions[0].acupoints.map((a: any) => a.id)).toEqual(advised);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, 'inspections.addSession'), eq(auditLog.recordId, ok.datas.id)));
    expect(audit).toMatchObject({ recordType: 'treatment_session', actorName: 'clinic3' });
    expect((audit!.after as any).minutes).toBe(20);
  });
});

describe("the list's page, cut before its names are joined", () => {
  /** Every row of `where`, in the list's order, with its names: one flat join, written here. */
  const flatJoin = (where: any, ascending: boolean) =>
    t.db
      .select({
        id: inspections.id,
        user_name: endUsers.name,
        doctor_name: doctors.name,
        device_serial: devices.serial,
        institution_name: institutions.name,
        measured_at: inspections.measuredAt,
      })
      .from(inspections)
      .innerJoin(endUsers, eq(endUsers.id, inspections.endUserId))
      .innerJoin(devices, eq(devices.id, inspections.deviceId))
      .innerJoin(institutions, eq(institutions.id, inspections.institutionId))
      .leftJoin(doctors, eq(doctors.id, inspections.doctorId))
      .where(where)
      .orderBy(ascending ? asc(inspections.measuredAt) : desc(inspections.measuredAt), ascending ? asc(inspections.id) : desc(inspections.id));
  const shown = (r: any) => ({ id: r.id, user_name: r.user_name, doctor_name: r.doctor_name, device_serial: r.device_serial, institution_name: r.institution_name, measured_at: r.measured_at });
  const asListed = (r: any) => ({ ...r, measured_at: r.measured_at.toISOString() });

  it('every page of a clinic, both orders, is the slice of the flat join at its offset, names included', async () => {
    const all = { desc: (await flatJoin(eq(inspections.institutionId, inst.clinic3!), false)).map(asListed), asc: (await flatJoin(eq(inspections.institutionId, inst.clinic3!), true)).map(asListed) };
    expect(all.desc.length).toBeGreaterThan(12);
    expect(all.desc.some((r) => r.doctor_name === null)).toBe(true);
    for (const [order, rows] of [
      ['descend', all.desc],
      ['ascend', all.asc],
    ] as const) {
      for (let page = 1; (page - 1) * 5 < rows.length + 5; page++) {
        const res = await list(keys.clinic3!, { limit: 5, page, sort: 'measured_at', order });
        expect(res.datas.list.map(shown), `${order} page ${page}`).toEqual(rows.slice((page - 1) * 5, page * 5));
        expect(res.datas.total).toBe(rows.length);
      }
    }
  });

  it("a person's name filter cuts the page on the person's rows (the person is joined inside the page too)", async () => {
    const [someone] = await t.db.select({ name: endUsers.name }).from(inspections).innerJoin(endUsers, eq(endUsers.id, inspections.endUserId)).limit(1);
    const letters = someone!.name.slice(0, 1);
    const rows = (await flatJoin(sql`${endUsers.name} ilike ${`%${letters}%`}`, false)).map(asListed);
    expect(rows.length).toBeGreaterThan(3);
    const page2 = await list(admin, { limit: 3, page: 2, person: letters });
    expect(page2.datas.list.map(shown)).toEqual(rows.slice(3, 6));
    expect(page2.datas.total).toBe(rows.length);
  });
});

describe("the list's statements", () => {
  it("the platform's first page is a named statement with no parameter left (PostgreSQL keeps its plan); other pages bind theirs, a filtered list is planned per call", async () => {
    const auth = await platformAuth(t.db);
    const run = (query: Record<string, unknown>) => async (db: Parameters<typeof listService>[0]) => listService(db, auth, inspectionListQuery.parse(query));

    const first = await preparedBy(t, 'inspections', run({ limit: 7 }));
    expect(first).toHaveLength(1);
    expect(first[0]!.types).toBe('{}');
    expect(first[0]!.statement).toMatch(/limit 10001\) s\)/);
    // The window is the page subquery's: the names are joined to its rows only.
    expect(first[0]!.statement).toMatch(/from "inspections" order by [^()]* limit 7\) "p" inner join "end_users"/);

    const second = await preparedBy(t, 'inspections', run({ limit: 7, page: 2 }));
    expect(second).toHaveLength(1);
    expect(second[0]!.types).toBe('{bigint,bigint}');
    expect(second[0]!.statement).toMatch(/limit \$1 offset \$2\) "p" inner join/);

    expect(await preparedBy(t, 'inspections', run({ limit: 7, risk: 'high' }))).toEqual([]);

    // The same rows as the API's pages.
    const pages = [(await list(admin, { limit: 7 })).datas, (await list(admin, { limit: 7, page: 2 })).datas];
    const direct = [await run({ limit: 7 })(t.db), await run({ limit: 7, page: 2 })(t.db)];
    expect(direct.map((d) => d.list.map((r) => r.id))).toEqual(pages.map((p) => p.list.map((r: { id: number }) => r.id)));
    expect(direct[0]!.total).toBe(pages[0]!.total);
  });
});

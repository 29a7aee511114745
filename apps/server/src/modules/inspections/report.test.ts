import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_MAX, MERIDIANS } from '@app/contract';
import { auditLog, endUsers, inspectionShares, inspections, institutions, loginFailures } from '../../db/schema';
import { hashKey } from '../../lib/crypto';
import { OPENS } from '../../lib/throttle';
import { createTestApp, type TestApp } from '../../test/harness';

/*
 * The person's report (issue 35): the history (a person is one end-user record), the server's PDF, the
 * links to the public page (token lifecycle, scoping for every grade and the other tree, the public
 * answers revealing that one report only, bad tokens and languages, the throttle, the audit trail).
 */

let t: TestApp;
const keys: Record<string, string> = {};
let inst: Record<string, number>;

beforeAll(async () => {
  t = await createTestApp();
  keys.admin = (await t.login('admin')).key;
  keys.auditor = (await t.login('auditor')).key;
  for (const u of ['agent1', 'agent2', 'clinic3', 'agent1b', 'clinic3b']) keys[u] = (await t.login(u, 'institution')).key;
  const rows = await t.db.select({ id: institutions.id, username: institutions.username }).from(institutions);
  inst = Object.fromEntries(rows.map((r) => [r.username, r.id]));
});
afterAll(async () => {
  await t?.close();
});

const flat = (v: number) => Object.fromEntries(MERIDIANS.map((m, i) => [m, [v + i, v + (i % 3)]])) as Record<string, [number, number]>;
const PERSON = { name: '王芳 Report', gender: 'female', birth_date: '1980-05-06', id_number: '110105198005060029' };

/** An inspection of the demo device (clinic3) measured `daysAgo` days ago. */
async function deviceInspect(no: string, daysAgo: number, level: number, user: Record<string, unknown> = PERSON) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/deviceapi/v1/inspections',
    headers: { authorization: 'Bearer BE-DEMO-0001.demo-device-secret-0001' },
    payload: { inspection_no: no, measured_at: new Date(Date.now() - daysAgo * 86_400_000).toISOString(), user, readings: flat(level) },
  });
  const body = res.json();
  if (body.code !== 200) throw new Error(res.body);
  return body.datas.id as number;
}

const report = (key: string, id: number) => t.call('GET', '/inspection/report', { key, query: { id } });
const pdf = (key: string, id: number, lang?: string) => {
  const query: Record<string, string> = { key, id: String(id) };
  if (lang) query.lang = lang;
  return t.app.inject({ method: 'GET', url: '/adminapi/inspection/report_pdf', query, headers: { 'accept-language': 'en' } });
};

/** Ten inspections of one person, 10 days ago to today; and one of another person in between. */
let ids: number[] = [];
let other: number;
beforeAll(async () => {
  ids = [];
  for (let i = 0; i < 10; i++) ids.push(await deviceInspect(`HIST-${i}`, 9 - i, 40 + i * 6));
  other = await deviceInspect('HIST-OTHER', 5, 60, { name: 'Someone Else', gender: 'male', birth_date: '1990-01-01', id_number: '110105199001010037' });
});

describe('history: a person is one end-user record', () => {
  it('the report lists up to 8 earlier inspections of the same person, newest first, not later ones nor other people', async () => {
    const res = await report(keys.admin!, ids[9]!);
    expect(res.code).toBe(200);
    const h = res.datas.history as { id: number; measured_at: string; indices: unknown; systems: { id: number; score: number; level: string }[] }[];
    expect(h).toHaveLength(HISTORY_MAX);
    expect(h.map((x) => x.id)).toEqual([ids[8], ids[7], ids[6], ids[5], ids[4], ids[3], ids[2], ids[1]]);
    expect(h.map((x) => x.id)).not.toContain(other);
    const times = h.map((x) => x.measured_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(h[0]!.systems.length).toBeGreaterThan(3);
    expect(Object.keys(h[0]!.systems[0]!).sort()).toEqual(['id', 'level', 'score']);
    expect(h[0]!.indices).toHaveProperty('yin_yang');
    // A middle one: only those measured before it.
    const mid = await report(keys.admin!, ids[3]!);
    expect(mid.datas.history.map((x: { id: number }) => x.id)).toEqual([ids[2], ids[1], ids[0]]);
    // The first: none. The result page carries the same history.
    expect((await report(keys.admin!, ids[0]!)).datas.history).toEqual([]);
    const result = await t.call('GET', '/inspection/result', { key: keys.admin, query: { id: ids[9] } });
    expect(result.datas.history.map((x: { id: number }) => x.id)).toEqual(h.map((x) => x.id));
  });

  it('the same person measured in the other tree is in the platform history only', async () => {
    const [row] = await t.db.select().from(inspections).where(eq(inspections.id, ids[8]!));
    const [b] = await t.db
      .insert(inspections)
      .values({
        deviceId: row!.deviceId,
        institutionId: inst.clinic3b!,
        inspectionNo: 'HIST-B',
        measuredAt: new Date(row!.measuredAt.getTime() + 3600_000),
        endUserId: row!.endUserId,
        readings: row!.readings,
        analysis: row!.analysis,
      })
      .returning({ id: inspections.id });
    try {
      expect((await report(keys.admin!, ids[9]!)).datas.history[0].id).toBe(b!.id);
      for (const who of ['clinic3', 'agent2', 'agent1']) {
        const h = (await report(keys[who]!, ids[9]!)).datas.history.map((x: { id: number }) => x.id);
        expect(h, who).not.toContain(b!.id);
        expect(h[0], who).toBe(ids[8]);
      }
    } finally {
      await t.db.delete(inspections).where(eq(inspections.id, b!.id));
    }
  });
});

describe('the PDF', () => {
  it('is an A4 PDF with fonts embedded and subset, named after the person and the day, in each language', async () => {
    const sizes: number[] = [];
    for (const lang of ['zh', 'en', 'es', 'ja']) {
      const res = await pdf(keys.clinic3!, ids[9]!, lang);
      expect(res.statusCode, lang).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const body = res.rawPayload;
      expect(body.subarray(0, 5).toString()).toBe('%PDF-');
      const text = body.toString('latin1');
      expect(text).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);
      // Subset font files (a 6-letter tag before the name), embedded (FontFile2).
      expect(text).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans(SC|JP)/);
      expect(text).toContain('/FontFile2');
      expect(text).toContain(lang === 'ja' ? 'NotoSansJP' : 'NotoSansSC');
      const disposition = String(res.headers['content-disposition']);
      expect(disposition).toContain(encodeURIComponent('王芳 Report'));
      expect(disposition).toContain(new Date().toISOString().slice(0, 10));
      sizes.push(body.length);
    }
    for (const s of sizes) expect(s).toBeLessThan(600 * 1024);
    // Default: the reader's language (en: the English file name).
    const res = await pdf(keys.clinic3!, ids[9]!);
    expect(String(res.headers['content-disposition'])).toContain('report-');
  });

  it('is scoped like the report for every grade and the other tree; the read is audited; errors stay envelopes', async () => {
    const id = ids[9]!;
    for (const who of ['admin', 'auditor', 'agent1', 'agent2', 'clinic3']) expect((await pdf(keys[who]!, id)).statusCode, who).toBe(200);
    for (const who of ['agent1b', 'clinic3b']) {
      const res = await pdf(keys[who]!, id);
      expect(res.headers['content-type'], who).toContain('application/json');
      expect(res.json().code, who).toBe(400);
    }
    const bad = await pdf(keys.admin!, id, 'fr');
    expect(bad.json().code).toBe(400);
    expect(JSON.stringify(bad.json().datas)).toContain('lang');
    const none = await t.app.inject({ method: 'GET', url: '/adminapi/inspection/report_pdf', query: { id: String(id) } });
    expect(none.json().code).toBe(999);
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, 'inspections.reportPdf'), eq(auditLog.recordId, id)));
    expect(rows.filter((r) => r.event === 'read' && r.outcome === 'ok').length).toBeGreaterThanOrEqual(5);
  });
});

const share = (key: string, id: number, days?: number) => t.call('POST', '/inspection/share', { key, body: days == null ? { id } : { id, days } });
const open = (token: unknown, headers: Record<string, string> = {}, lang = 'es') => t.call('GET', '/share/report', { query: { token }, headers, lang });

describe('sharing', () => {
  it('share -> token (256 bits, stored hashed and sealed), url, expires_at by the parameter; list; revoke', async () => {
    const res = await share(keys.clinic3!, ids[9]!);
    expect(res.code).toBe(200);
    const { token, url, expires_at } = res.datas;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url).toMatch(new RegExp(`/share/${token}$`));
    const days = (new Date(expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const [stored] = await t.db.select().from(inspectionShares).where(eq(inspectionShares.id, res.datas.id));
    expect(stored!.tokenHash).toBe(hashKey(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    // Days given; out of range refused with nothing made.
    expect((await share(keys.clinic3!, ids[9]!, 1)).code).toBe(200);
    const before = (await t.db.select({ n: sql<number>`count(*)::int` }).from(inspectionShares))[0]!.n;
    for (const d of [0, 91, 2.5]) expect((await share(keys.clinic3!, ids[9]!, d)).code, String(d)).toBe(400);
    expect((await t.db.select({ n: sql<number>`count(*)::int` }).from(inspectionShares))[0]!.n).toBe(before);
    // The list: the active links, newest first, with their urls; the report prints the newest.
    const listed = await t.call('GET', '/inspection/share_list', { key: keys.clinic3, query: { id: ids[9] } });
    expect(listed.datas.list.length).toBe(2);
    expect(listed.datas.list[1].url).toBe(url);
    expect((await report(keys.clinic3!, ids[9]!)).datas.share.url).toBe(listed.datas.list[0].url);
    // Revoke one, then all.
    const one = await t.call('POST', '/inspection/unshare', { key: keys.clinic3, body: { id: ids[9], share_id: listed.datas.list[0].id } });
    expect(one.datas.revoked).toBe(1);
    expect((await t.call('POST', '/inspection/unshare', { key: keys.clinic3, body: { id: ids[9], share_id: listed.datas.list[0].id } })).code).toBe(400);
    expect((await report(keys.clinic3!, ids[9]!)).datas.share.url).toBe(url);
    expect((await open(token)).code).toBe(200);
    expect((await t.call('POST', '/inspection/unshare', { key: keys.clinic3, body: { id: ids[9] } })).datas.revoked).toBe(1);
    const gone = await open(token);
    expect(gone.code).toBe(400);
    expect(gone.datas.error.reason).toBe('share_revoked');
    expect((await report(keys.clinic3!, ids[9]!)).datas.share).toBeNull();
    // The audit trail: the writes (no token in them) and the opens.
    const writes = await t.db.select().from(auditLog).where(eq(auditLog.endpoint, 'inspections.share'));
    expect(writes.length).toBeGreaterThan(0);
    expect(JSON.stringify(writes)).not.toContain(token);
  });

  it('is scoped for every grade and the other tree, and needs the button', async () => {
    for (const who of ['admin', 'agent1', 'agent2', 'clinic3']) expect((await share(keys[who]!, ids[8]!)).code, who).toBe(200);
    for (const who of ['agent1b', 'clinic3b']) {
      const res = await share(keys[who]!, ids[8]!);
      expect(res.code, who).toBe(400);
      expect((await t.call('POST', '/inspection/unshare', { key: keys[who], body: { id: ids[8] } })).code, who).toBe(400);
      expect((await t.call('GET', '/inspection/share_list', { key: keys[who], query: { id: ids[8] } })).code, who).toBe(400);
    }
    // The auditor's role holds the inspection pages but not the share button.
    expect((await share(keys.auditor!, ids[8]!)).code).toBe(400);
    expect((await t.call('GET', '/inspection/share_list', { key: keys.auditor, query: { id: ids[8] } })).code).toBe(400);
    const listed = await t.call('GET', '/inspection/share_list', { key: keys.agent1, query: { id: ids[8] } });
    expect(listed.datas.list.length).toBe(4);
    expect((await t.call('POST', '/inspection/unshare', { key: keys.agent2, body: { id: ids[8] } })).datas.revoked).toBe(4);
  });

  it('an expired link answers share_expired; unknown and malformed ones share_unknown, in the reader language', async () => {
    const res = await share(keys.clinic3!, ids[7]!);
    await t.db
      .update(inspectionShares)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(inspectionShares.id, res.datas.id));
    const expired = await open(res.datas.token);
    expect(expired.datas.error.reason).toBe('share_expired');
    expect(expired.datas.error.message).toBe('Este enlace ha caducado');
    for (const bad of ['A'.repeat(43), 'short', `${res.datas.token}x`, '../../etc', 'A'.repeat(200), '']) {
      const r = await open(bad, {}, 'zh');
      expect(r.code, bad).toBe(400);
      expect(r.datas.error.reason ?? r.datas.error, bad).toBeTruthy();
    }
    const unknown = await open('A'.repeat(43), {}, 'ja');
    expect(unknown.datas.error.reason).toBe('share_unknown');
    expect(unknown.datas.error.message).toBe('このリンクは無効です');
    const pdfBad = await t.app.inject({ method: 'GET', url: '/adminapi/share/pdf', query: { token: 'A'.repeat(43) } });
    expect(pdfBad.json().datas.error.reason).toBe('share_unknown');
  });

  it('the public answers show that one report only: every id a position within it, no other record, no institution data', async () => {
    const made = await share(keys.agent1!, ids[9]!);
    const res = await open(made.datas.token);
    expect(res.code).toBe(200);
    const real = (await report(keys.admin!, ids[9]!)).datas;
    const data = res.datas;
    // The same report: number, person, analysis scores, history length.
    expect(data.inspection.inspection_no).toBe(real.inspection.inspection_no);
    expect(data.inspection.analysis.systems.map((s: { score: number }) => s.score)).toEqual(real.inspection.analysis.systems.map((s: { score: number }) => s.score));
    expect(data.history).toHaveLength(real.history.length);
    // Walk the JSON: every id field is a position (small), the institution only its name, no phone, no account names.
    const walk = (v: unknown, path: string, out: { path: string; value: unknown }[]) => {
      if (Array.isArray(v))
        v.forEach((x, i) => {
          walk(x, `${path}[${i}]`, out);
        });
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) {
          out.push({ path: `${path}.${k}`, value: x });
          walk(x, `${path}.${k}`, out);
        }
      return out;
    };
    const fields = walk(data, '', []);
    const idFields = fields.filter((f) => /(^|\.|_)id$/.test(f.path));
    expect(idFields.length).toBeGreaterThan(10);
    const maxPosition = Math.max(data.inspection.analysis.systems.length, data.acupoints.length, data.diseases.length, data.history.length, data.schematics.length);
    for (const f of idFields) {
      expect(typeof f.value, f.path).toBe('number');
      expect(f.value as number, f.path).toBeLessThanOrEqual(maxPosition);
    }
    expect(Object.keys(data.inspection.institution).sort()).toEqual(['id', 'name']);
    expect(data.inspection.versions).toEqual([]);
    expect(data.inspection.user.phone).toBeNull();
    const text = JSON.stringify(data);
    // The other inspections' ids (above every position) appear nowhere.
    for (const id of [ids[8]!, ids[7]!, ids[6]!]) {
      expect(id).toBeGreaterThan(maxPosition);
      expect(text).not.toMatch(new RegExp(`:${id}\\b`));
    }
    expect(text).not.toContain('agent1');
    // The disease advice still belongs to its disease; markers to their acupoints.
    for (const d of data.inspection.analysis.diseases) expect(data.diseases.some((x: { id: number }) => x.id === d.id)).toBe(true);
    // The PDF of the link.
    const file = await t.app.inject({ method: 'GET', url: '/adminapi/share/pdf', query: { token: made.datas.token, lang: 'ja' } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    const badLang = await t.app.inject({ method: 'GET', url: '/adminapi/share/pdf', query: { token: made.datas.token, lang: 'xx' } });
    expect(badLang.json().code).toBe(400);
    // Each open is a read of the inspection by nobody, in the audit trail, without the token.
    const reads = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.endpoint, 'inspections.sharedReport'), eq(auditLog.recordId, ids[9]!), eq(auditLog.outcome, 'ok')))
      .orderBy(desc(auditLog.id));
    expect(reads[0]!.actorKind).toBe('anonymous');
    expect(reads[0]!.event).toBe('read');
    expect(JSON.stringify(reads)).not.toContain(made.datas.token);
  });

  it('opens are throttled per address: concurrent bad opens stop at the limit, another address still opens', async () => {
    const made = await share(keys.clinic3!, ids[6]!);
    // Every call of the test app comes from one address (the inject's); the counts start afresh.
    await t.db.delete(loginFailures);
    const answers = await Promise.all(Array.from({ length: OPENS.badMax + 5 }, () => open('B'.repeat(43))));
    const reasons = answers.map((a) => a.datas.error.reason ?? 'throttled');
    expect(reasons.filter((r) => r === 'share_unknown').length).toBe(OPENS.badMax);
    expect(reasons.filter((r) => r === 'throttled').length).toBe(5);
    // Throttled: even a good token waits, with a clear message.
    const held = await open(made.datas.token);
    expect(held.code).toBe(400);
    expect(held.datas.error.message ?? held.datas.error).toMatch(/\d/);
    // Another address (another namespace key) opens at once.
    const rows = await t.db.select().from(loginFailures).orderBy(asc(loginFailures.id));
    expect(rows[0]!.ip).toMatch(/^share\|/);
    await t.db.update(loginFailures).set({ ip: 'share|192.0.2.1' });
    expect((await open(made.datas.token)).code).toBe(200);
  });
});

describe('analysis versions', () => {
  it('the detail opens any version of the analysis', async () => {
    await t.call('POST', '/inspection/recompute', { key: keys.admin, body: { id: ids[5] } });
    const d = await t.call('GET', '/inspection/detail', { key: keys.clinic3, query: { id: ids[5], version: 1 } });
    expect(d.datas.version).toBe(1);
    expect(d.datas.versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    expect((await t.call('GET', '/inspection/detail', { key: keys.clinic3, query: { id: ids[5], version: 3 } })).code).toBe(400);
  });
});

// The person of the history is one record: the device files a repeat person under the same end user.
describe('how inspections are tied to a person', () => {
  it('every inspection of the ID number is on one end-user record', async () => {
    const rows = await t.db.select({ user: inspections.endUserId }).from(inspections).where(sql`${inspections.inspectionNo} like 'HIST-%' and ${inspections.inspectionNo} <> 'HIST-OTHER'`);
    expect(new Set(rows.map((r) => r.user)).size).toBe(1);
    const [u] = await t.db.select().from(endUsers).where(eq(endUsers.id, rows[0]!.user));
    expect(u!.idNumber).toBe(PERSON.id_number);
  });
});

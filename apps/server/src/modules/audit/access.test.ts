/**
 * The access audit (trust-api.md "Access audit", docs/decisions.md "Access audit"): every sign-in attempt
 * on both sign-ins, every sign-out, every read of one person's health data and every export leaves exactly
 * one row, with its change (`none` for sign-in events, `read` for reads and exports) and outcome, and never
 * a password or key; a refused write or health read of a signed-in caller leaves one refused row, bounded;
 * `/audit/list` filters by change, outcome and event.
 */
import { PassThrough } from 'node:stream';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, formatMessage } from '@app/contract';
import { auditLog, endUsers, inspections } from '../../db/schema';
import { RefusalLimiter } from '../../lib/audit';
import { buildAppOn, createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';

let t: TestApp;
/** A second app on the same database that logs every line at trace level into `logs`. */
let logged: FastifyInstance;
let logs = '';
let admin: string;
const UA = 'AccessAuditTest/1.0 (the user agent a row keeps)';

beforeAll(async () => {
  t = await createTestApp();
  const stream = new PassThrough();
  stream.on('data', (chunk) => {
    logs += chunk.toString();
  });
  logged = await buildAppOn(t.db, { logLevel: 'trace', webDist: undefined }, { logStream: stream });
  await logged.ready();
  admin = (await t.login('admin')).key;
});
afterAll(async () => {
  await logged?.close();
  await t?.close();
});

/** The rows written after row `since` (an id), oldest first. */
const rowsAfter = (since: number) => t.db.select().from(auditLog).where(gt(auditLog.id, since)).orderBy(asc(auditLog.id));
const lastId = async () => (await t.db.select({ n: sql<number>`coalesce(max(id), 0)::int` }).from(auditLog))[0]!.n;

/** A call from an address of the test's choosing (the sign-in throttle counts per address), with a user agent. */
async function from(app: FastifyInstance, address: string, method: 'GET' | 'POST', path: string, payload: Record<string, unknown>) {
  const res = await app.inject({
    method,
    url: `${API_BASE}${path}`,
    remoteAddress: address,
    headers: { 'user-agent': UA, 'accept-language': 'en' },
    ...(method === 'GET' ? { query: Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, String(v)])) } : { payload }),
  });
  return { status: res.statusCode, body: res.body, json: res.json() as { code: number; datas: any } };
}

describe('sign-in events', () => {
  it('a successful sign-in on each sign-in writes one row: sign_in, change none, outcome ok, the account, address and user agent, no password', async () => {
    for (const [path, username, kind] of [
      ['/login/login', 'admin', 'admin'],
      ['/login/institution_login', 'agent1', 'institution'],
    ] as const) {
      const since = await lastId();
      const res = await from(t.app, '10.1.0.1', 'POST', path, { username: username.toUpperCase(), password: DEMO_PASSWORD });
      expect(res.json.code).toBe(200);
      const rows = await rowsAfter(since);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        event: 'sign_in',
        change: 'none',
        outcome: 'ok',
        reason: null,
        actorKind: kind,
        actorId: res.json.datas.id,
        actorName: username,
        recordType: kind,
        recordId: res.json.datas.id,
        ip: '10.1.0.1',
        userAgent: UA,
        path,
      });
      expect(rows[0]!.input).toEqual({ username });
      const text = JSON.stringify(rows);
      expect(text).not.toContain(DEMO_PASSWORD);
      expect(text).not.toContain(res.json.datas.key);
    }
  });

  it('a wrong password and an unknown account write the same refused row (bad_credentials, no account id), never the password', async () => {
    const since = await lastId();
    const typo = 'Typo-Secret-7731';
    expect((await from(t.app, '10.1.0.2', 'POST', '/login/login', { username: 'admin', password: typo })).json.datas.error).toBe(formatMessage('badCredentials', 'en'));
    expect((await from(t.app, '10.1.0.2', 'POST', '/login/institution_login', { username: 'no-such-clinic', password: typo })).json.datas.error).toBe(formatMessage('badCredentials', 'en'));
    const rows = await rowsAfter(since);
    expect(rows).toHaveLength(2);
    const shape = { event: 'sign_in', change: 'none', outcome: 'refused', reason: 'bad_credentials', actorId: null, recordType: null, recordId: null, ip: '10.1.0.2', userAgent: UA };
    expect(rows[0]).toMatchObject(Object.assign({}, shape, { actorKind: 'admin', actorName: 'admin', endpoint: 'auth.login' }));
    expect(rows[1]).toMatchObject(Object.assign({}, shape, { actorKind: 'institution', actorName: 'no-such-clinic', endpoint: 'auth.institutionLogin' }));
    // Same keys, same kinds of value: nothing tells an existing account from an unknown one.
    expect(Object.keys(rows[0]!.input as object)).toEqual(Object.keys(rows[1]!.input as object));
    expect(JSON.stringify(rows)).not.toContain(typo);
  });

  it('a right password on a disabled account is refused (disabled) with the account named', async () => {
    const me = await t.login('agent2b', 'institution');
    expect((await t.call('POST', '/institution/status', { key: admin, body: { id: me.id, status: 'disabled' } })).code).toBe(200);
    const since = await lastId();
    expect((await from(t.app, '10.1.0.3', 'POST', '/login/institution_login', { username: 'agent2b', password: DEMO_PASSWORD })).json.code).toBe(400);
    const rows = await rowsAfter(since);
    expect(rows).toMatchObject([{ event: 'sign_in', outcome: 'refused', reason: 'disabled', actorKind: 'institution', actorId: me.id, actorName: 'agent2b' }]);
    expect((await t.call('POST', '/institution/status', { key: admin, body: { id: me.id, status: 'enabled' } })).code).toBe(200);
  });

  it('a throttled sign-in writes one refused row (throttled); a flood of them from one address writes no more', async () => {
    const address = '10.1.0.4';
    // Five free failures of the pair, then the sixth attempt waits.
    for (let i = 0; i < 5; i++) expect((await from(t.app, address, 'POST', '/login/login', { username: 'auditor', password: `wrong-${i}-pw` })).json.code).toBe(400);
    const since = await lastId();
    const flood = await Promise.all(Array.from({ length: 6 }, () => from(t.app, address, 'POST', '/login/login', { username: 'auditor', password: DEMO_PASSWORD })));
    for (const res of flood) expect(res.json.datas.error).toMatch(/try again/i);
    const rows = await rowsAfter(since);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event: 'sign_in', change: 'none', outcome: 'refused', reason: 'throttled', actorKind: 'admin', actorId: null, actorName: 'auditor', ip: address });
    expect(JSON.stringify(rows)).not.toContain(DEMO_PASSWORD);
    // Another address is not held back by this one's flood.
    const other = await from(t.app, '10.1.0.5', 'POST', '/login/login', { username: 'auditor', password: DEMO_PASSWORD });
    expect(other.json.code).toBe(200);
  });

  it('the flood bound: one row per key a window, the next row counts the ones left out; memory stays bounded', () => {
    const limiter = new RefusalLimiter(60_000, 3);
    expect(limiter.admit('a', 0)).toEqual({ suppressed: 0 });
    expect(limiter.admit('a', 10)).toBeNull();
    expect(limiter.admit('a', 59_999)).toBeNull();
    expect(limiter.admit('b', 20)).toEqual({ suppressed: 0 });
    expect(limiter.admit('a', 60_000)).toEqual({ suppressed: 2 });
    expect(limiter.admit('a', 60_001)).toBeNull();
    // A fourth key past the bound drops the keys whose window ended ('b'), or all of them.
    expect(limiter.admit('c', 70_000)).toEqual({ suppressed: 0 });
    expect(limiter.admit('d', 90_000)).toEqual({ suppressed: 0 });
    expect(limiter.admit('b', 90_001)).toEqual({ suppressed: 0 });
  });

  it('a sign-out writes one row (sign_out, change none) naming the account', async () => {
    const me = await t.login('clinic3', 'institution');
    const since = await lastId();
    expect((await from(t.app, '10.1.0.6', 'POST', '/login/logout', { key: me.key })).json.code).toBe(200);
    const rows = await rowsAfter(since);
    expect(rows).toMatchObject([{ event: 'sign_out', change: 'none', outcome: 'ok', actorKind: 'institution', actorId: me.id, actorName: 'clinic3', ip: '10.1.0.6', userAgent: UA }]);
    expect(JSON.stringify(rows)).not.toContain(me.key);
    // The key is gone: a second logout is a 999 and writes nothing.
    const again = await lastId();
    expect((await from(t.app, '10.1.0.6', 'POST', '/login/logout', { key: me.key })).json.code).toBe(999);
    expect(await rowsAfter(again)).toEqual([]);
  });

  it('neither the rows nor the log lines (at trace level) carry the password used, right or wrong', async () => {
    const wrong = 'Wrong-Horse-Battery-55';
    const before = await lastId();
    await from(logged, '10.1.0.7', 'POST', '/login/login', { username: 'admin', password: wrong });
    const ok = await from(logged, '10.1.0.7', 'POST', '/login/login', { username: 'admin', password: DEMO_PASSWORD });
    expect(ok.json.code).toBe(200);
    await from(logged, '10.1.0.7', 'POST', '/login/logout', { key: ok.json.datas.key });
    await new Promise((r) => setImmediate(r));
    const rows = await rowsAfter(before);
    expect(rows.map((r) => `${r.event}:${r.outcome}`)).toEqual(['sign_in:refused', 'sign_in:ok', 'sign_out:ok']);
    expect(logs).toContain('/login/login');
    for (const secret of [wrong, DEMO_PASSWORD, ok.json.datas.key]) {
      expect(JSON.stringify(rows)).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });
});

describe('reads of health data', () => {
  let clinic3Inspection: number;
  let otherTreeInspection: number;
  beforeAll(async () => {
    const [c3, c3b] = [await t.institutionId('clinic3'), await t.institutionId('clinic3b')];
    clinic3Inspection = (await t.db.select({ id: inspections.id }).from(inspections).where(eq(inspections.institutionId, c3)).limit(1))[0]!.id;
    otherTreeInspection = (await t.db.select({ id: inspections.id }).from(inspections).where(eq(inspections.institutionId, c3b)).limit(1))[0]!.id;
  });

  it('detail, report and result write one read row each, for every grade that may read them', async () => {
    const readers: [string, 'admin' | 'institution'][] = [
      ['admin', 'admin'],
      ['auditor', 'admin'],
      ['agent1', 'institution'],
      ['agent2', 'institution'],
      ['clinic3', 'institution'],
    ];
    for (const [username, kind] of readers) {
      const me = await t.login(username, kind);
      for (const [path, endpoint] of [
        ['/inspection/detail', 'inspections.detail'],
        ['/inspection/report', 'inspections.report'],
        ['/inspection/result', 'inspections.result'],
      ] as const) {
        const since = await lastId();
        const res = await from(t.app, '10.2.0.1', 'GET', path, { key: me.key, id: clinic3Inspection });
        expect(res.json.code, `${username} ${path}`).toBe(200);
        const rows = await rowsAfter(since);
        expect(rows, `${username} ${path}`).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          event: 'read',
          change: 'read',
          outcome: 'ok',
          endpoint,
          path,
          recordType: 'inspection',
          recordId: clinic3Inspection,
          actorKind: kind,
          actorId: me.id,
          actorName: username,
          ip: '10.2.0.1',
          userAgent: UA,
        });
        expect(JSON.stringify(rows[0]!.input)).not.toContain(me.key);
      }
    }
  });

  it("an end user's detail writes one read row (admins)", async () => {
    const userId = (await t.db.select({ id: endUsers.id }).from(endUsers).limit(1))[0]!.id;
    const since = await lastId();
    expect((await t.call('GET', '/user/detail', { key: admin, query: { id: userId } })).code).toBe(200);
    expect(await rowsAfter(since)).toMatchObject([{ event: 'read', change: 'read', outcome: 'ok', endpoint: 'users.detail', recordType: 'user', recordId: userId, actorName: 'admin' }]);
  });

  it('a read refused (another tree) writes one refused row; repeating it writes no more; an unknown key writes none', async () => {
    const me = await t.login('agent1b', 'institution');
    const since = await lastId();
    for (let i = 0; i < 4; i++) expect((await t.call('GET', '/inspection/detail', { key: me.key, query: { id: clinic3Inspection } })).datas.error).toBe(formatMessage('forbidden', 'en'));
    expect((await t.call('GET', '/inspection/report', { key: 'not-a-session-key', query: { id: clinic3Inspection } })).code).toBe(999);
    const rows = await rowsAfter(since);
    expect(rows).toMatchObject([
      { event: 'read', change: 'read', outcome: 'refused', reason: 'forbidden', recordType: 'inspection', recordId: clinic3Inspection, actorId: me.id, actorName: 'agent1b' },
    ]);
    // Its own tree's inspection reads fine.
    expect((await t.call('GET', '/inspection/detail', { key: me.key, query: { id: otherTreeInspection } })).code).toBe(200);
  });

  it('fails closed: when its row cannot be written, the read answers an error and no data', async () => {
    await t.db.execute(
      sql.raw(`create function audit_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'audit unavailable'; end; $$;
               create trigger audit_test_refuse before insert on audit_log for each row execute function audit_test_refuse();`),
    );
    try {
      const res = await t.call('GET', '/inspection/report', { key: admin, query: { id: clinic3Inspection } });
      expect(res.code).not.toBe(200);
      expect(res.raw).not.toContain('readings');
    } finally {
      await t.db.execute(sql.raw('drop trigger audit_test_refuse on audit_log; drop function audit_test_refuse();'));
    }
    expect((await t.call('GET', '/inspection/report', { key: admin, query: { id: clinic3Inspection } })).code).toBe(200);
  });
});

describe('exports', () => {
  it('an export writes one row once sent: the list, its filters (never the key), the rows sent', async () => {
    const c3 = await t.institutionId('clinic3');
    const since = await lastId();
    const res = await t.call('GET', '/inspection/export', { key: admin, query: { format: 'csv', institution_id: c3 } });
    expect(res.status).toBe(200);
    const lines = res.raw.split('\r\n').filter(Boolean).length - 1;
    expect(lines).toBeGreaterThan(0);
    await expect.poll(async () => (await rowsAfter(since)).length).toBe(1);
    const [row] = await rowsAfter(since);
    expect(row).toMatchObject({ event: 'export', change: 'read', outcome: 'ok', reason: null, endpoint: 'inspections.exportList', path: '/inspection/export', rowCount: lines, actorName: 'admin' });
    expect(row!.input).toMatchObject({ format: 'csv', institution_id: c3 });
    expect(JSON.stringify(row)).not.toContain(admin);
  });

  it('an XLSX export counts its rows too', async () => {
    const since = await lastId();
    const res = await t.call('GET', '/user/export', { key: admin, query: { format: 'xlsx' } });
    expect(res.status).toBe(200);
    const [{ n }] = (await t.db.select({ n: sql<number>`count(*)::int` }).from(endUsers).where(sql`deleted_at is null`)) as [{ n: number }];
    await expect.poll(async () => (await rowsAfter(since)).length).toBe(1);
    expect((await rowsAfter(since))[0]).toMatchObject({ event: 'export', change: 'read', endpoint: 'users.exportList', rowCount: n });
  });
});

describe('refused writes', () => {
  it('a forbidden write of a signed-in caller writes one refused row (bounded); a caller without a session writes none', async () => {
    const me = await t.login('agent2', 'institution');
    const since = await lastId();
    const body = { name: 'Not mine to add', kind: 'count', uses: 1, price_cents: 100 };
    for (let i = 0; i < 3; i++) expect((await t.call('POST', '/package/add', { key: me.key, body })).datas.error).toBe(formatMessage('forbidden', 'en'));
    expect((await t.call('POST', '/package/add', { body })).code).toBe(999);
    const rows = await rowsAfter(since);
    expect(rows).toMatchObject([
      { event: 'write', change: 'none', outcome: 'refused', reason: 'forbidden', endpoint: 'packages.add', recordType: 'package', actorKind: 'institution', actorId: me.id },
    ]);
    expect(rows[0]!.input).toMatchObject({ name: 'Not mine to add' });
    expect(JSON.stringify(rows)).not.toContain(me.key);
  });

  it('a forged institution field on a write is refused and recorded', async () => {
    const me = await t.login('clinic3', 'institution');
    const since = await lastId();
    const res = await t.call('POST', '/inspection/add_session', { key: me.key, body: { institution_id_3: 1, inspection_id: 1 } });
    expect(res.code).toBe(400);
    const rows = await rowsAfter(since);
    expect(rows).toMatchObject([{ event: 'write', outcome: 'refused', reason: 'forbidden', endpoint: 'inspections.addSession', actorId: me.id }]);
  });
});

describe('/audit/list filters by change, outcome and event', () => {
  it('each filter keeps only its rows; a bad value is a 400 in the reader language', async () => {
    const list = async (query: Record<string, unknown>) => {
      const res = await t.call('GET', '/audit/list', { key: admin, query: Object.assign({ limit: 200 }, query) });
      expect(res.code).toBe(200);
      return res.datas as { total: number; list: { change: string; outcome: string; event: string; reason: string | null; rows: number | null; user_agent: string }[] };
    };
    const reads = await list({ change: 'read', outcome: 'ok' });
    expect(reads.total).toBeGreaterThan(0);
    expect(reads.list.every((r) => r.change === 'read' && r.outcome === 'ok')).toBe(true);
    expect(reads.list.some((r) => r.event === 'export' && r.rows! > 0)).toBe(true);
    const refused = await list({ outcome: 'refused' });
    expect(new Set(refused.list.map((r) => r.reason))).toEqual(new Set(['bad_credentials', 'throttled', 'disabled', 'forbidden']));
    const signIns = await list({ event: 'sign_in', change: 'none', outcome: 'refused' });
    expect(signIns.list.length).toBeGreaterThan(0);
    expect(signIns.list.every((r) => r.event === 'sign_in' && r.change === 'none' && r.outcome === 'refused')).toBe(true);
    expect(signIns.list.some((r) => r.user_agent === UA)).toBe(true);
    // The rows written before the access audit keep their meaning (create/update/remove from the snapshots).
    expect((await t.call('POST', '/package/add', { key: admin, body: { name: 'Audit change pack', kind: 'count', uses: 2, price_cents: 200 } })).code).toBe(200);
    const created = await list({ change: 'create', outcome: 'ok' });
    expect(created.list.every((r) => r.change === 'create' && r.event === 'write')).toBe(true);
    expect(created.total).toBeGreaterThan(0);

    for (const lang of ['en', 'zh']) {
      const bad = await t.call('GET', '/audit/list', { key: admin, lang, query: { change: 'deleted' } });
      expect(bad.code).toBe(400);
      expect(typeof bad.datas.error).toBe('string');
      const badOutcome = await t.call('GET', '/audit/list', { key: admin, lang, query: { outcome: 'maybe' } });
      expect(badOutcome.code).toBe(400);
    }
  });

  it('rows stay append-only: the new columns cannot be changed either', async () => {
    const refusal = await t.db.execute(sql`update audit_log set outcome = 'ok' where outcome = 'refused'`).then(
      () => 'allowed',
      (e: { message: string; cause?: { message?: string } }) => `${e.message} ${e.cause?.message ?? ''}`,
    );
    expect(refusal).toMatch(/append-only/);
    const [{ n }] = (await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(and(eq(auditLog.outcome, 'refused')))) as [{ n: number }];
    expect(n).toBeGreaterThan(0);
  });
});

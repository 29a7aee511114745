import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, MAX_STREAMS_PER_SESSION, type NoticeKind } from '@app/contract';
import { devicePayments, devices, institutions, notices } from '../../db/schema';
import { hashKey } from '../../lib/crypto';
import { createTestApp, type TestApp } from '../../test/harness';
import { post } from '../finance';
import { checkNotices, NOTICE_CHECK_LOCK, scheduledCheck } from './check';
import { hubOf } from './hub';
import { HOUR } from '../../lib/time';

/*
 * Notices (trust-api.md, "Notices"): each kind raised by its cause and read by exactly the accounts whose
 * scope covers the thing (every grade, and the other tree that must not see it), once per thing and state
 * under concurrent triggers, in the reader's language; read marks; the live stream over real HTTP
 * (Last-Event-ID, bad key, the per-session limit); devices' version and presence.
 */

let t: TestApp;
let base = '';
const keys: Record<string, string> = {};
const inst: Record<string, number> = {};
const WHO = ['admin', 'auditor', 'reviewer', 'agent1', 'agent2', 'clinic3', 'agent1b'] as const;
type Who = (typeof WHO)[number];

beforeAll(async () => {
  t = await createTestApp();
  keys.admin = (await t.login('admin')).key;
  keys.auditor = (await t.login('auditor')).key;
  // Holds the payout page and its deciding button, nothing else.
  keys.reviewer = await t.adminWith('reviewer', ['FinanceRecord', 'PayoutManage', 'payout:review']);
  for (const u of ['agent1', 'agent2', 'clinic3', 'agent1b']) {
    keys[u] = (await t.login(u, 'institution')).key;
    inst[u] = await t.institutionId(u);
  }
  // Enough money for every payout these tests apply for (an adjustment, with its ledger row).
  for (const u of ['agent1', 'agent2']) await t.db.transaction((tx) => post(tx, inst[u]!, 10_000_000, 'adjustment', { type: 'manual', id: 0 }));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${API_BASE}`;
});
afterAll(async () => {
  await t?.close();
});

const noticesOf = async (who: Who, query: Record<string, unknown> = {}, lang = 'en') => {
  const res = await t.call('GET', '/notice/list', { key: keys[who], query: { limit: 100, ...query }, lang });
  expect(res.code, res.raw).toBe(200);
  return res.datas as { list: { id: number; kind: NoticeKind; thing_id: number; title: string; body: string; link: string; read_at: string | null; level: string }[]; total: number; unread: number };
};
/** Who, of every identity, has a notice of this kind about this thing. */
async function readersOf(kind: NoticeKind, thingId: number): Promise<Who[]> {
  const out: Who[] = [];
  for (const who of WHO) if ((await noticesOf(who, { kind })).list.some((n) => n.thing_id === thingId)) out.push(who);
  return out;
}
/** Rows stored for a thing in a kind, all readers. */
const stored = async (kind: NoticeKind, thingId: number) =>
  (
    await t.db
      .select()
      .from(notices)
      .where(and(eq(notices.kind, kind), eq(notices.thingId, thingId)))
  ).length;

let seq = 0;
async function device(values: Partial<typeof devices.$inferInsert> = {}) {
  const serial = `NTC-${++seq}`;
  const secret = `secret-${seq}-0123456789abcdefghijklmnopqrstuvwxyz`;
  const [row] = await t.db
    .insert(devices)
    .values(Object.assign({ serial, model: 'M', name: `Notice device ${seq}`, institutionId: inst.clinic3, status: 'active' as const, activatedAt: new Date(), secretHash: hashKey(secret) }, values))
    .returning();
  return { row: row!, auth: `Bearer ${serial}.${secret}` };
}
const payout = { amount_cents: 10_000, bank: 'ICBC', account_name: 'Li Na', account_no: '6222 0210 0000 1234' };

describe('each kind, to the accounts whose scope covers it', () => {
  it('payouts: pending to the deciders only; decided to the applicant, its ancestors and the payout page holders, not to whoever decided', async () => {
    const applied = await t.call('POST', '/payout/apply', { key: keys.agent2, body: payout });
    expect(applied.code, applied.raw).toBe(200);
    const id = applied.datas.id as number;
    expect(await readersOf('payout_pending', id)).toEqual(['admin', 'reviewer']);
    const pending = (await noticesOf('reviewer', { kind: 'payout_pending' })).list.find((n) => n.thing_id === id)!;
    expect(pending).toMatchObject({ level: 'info', link: '/finance-record/payout-manage?status=pending', title: 'Payout to review: Hangzhou Sub-agency' });
    expect(pending.body).toContain('100.00');
    // In the reader's language, rendered at read time.
    expect((await noticesOf('reviewer', { kind: 'payout_pending' }, 'zh')).list.find((n) => n.thing_id === id)!.title).toBe('提现待审核：Hangzhou Sub-agency');

    expect((await t.call('POST', '/payout/reject', { key: keys.reviewer, body: { id, reason: 'Wrong account' } })).code).toBe(200);
    expect(await readersOf('payout_decided', id)).toEqual(['admin', 'agent1', 'agent2']);
    const decided = (await noticesOf('agent2', { kind: 'payout_decided' })).list.find((n) => n.thing_id === id)!;
    expect(decided).toMatchObject({ level: 'error', title: 'Payout rejected: 100.00' });
    expect(decided.body).toContain('Reason: Wrong account');
  });

  it('a refund: to the payment institution and its ancestors on the payments page, and its holders', async () => {
    const [payment] = await t.db
      .select({ id: devicePayments.id })
      .from(devicePayments)
      .where(and(eq(devicePayments.institutionId, inst.clinic3!), eq(devicePayments.status, 'paid')))
      .limit(1);
    const res = await t.call('POST', '/device_payment/refund', { key: keys.admin, body: { id: payment!.id, reason: 'Charged twice' } });
    if (res.code !== 200) {
      // The demo's agents may have withdrawn that commission already: any other paid payment of the tree will do.
      expect(res.code, res.raw).toBe(200);
    }
    // clinic3 (grade 3) does not open the payments page; the admin who refunded is left out.
    expect(await readersOf('refund_done', payment!.id)).toEqual(['agent1', 'agent2']);
  });

  it('branch applications: pending to the holders of the review button, decided to the applicant and its ancestors', async () => {
    const body = { name: 'Notice Branch', contact_name: 'Applicant', phone: '13700000000', region: ['320000', '320500', '320508'], address: 'Street 1', username: 'noticebranch1' };
    const applied = await t.call('POST', '/branch/apply', { key: keys.agent2, body });
    expect(applied.code, applied.raw).toBe(200);
    const id = applied.datas.id as number;
    expect(await readersOf('application_pending', id)).toEqual(['admin']);
    expect((await t.call('POST', '/branch/reject', { key: keys.admin, body: { id, reason: 'Too close to another store' } })).code).toBe(200);
    expect(await readersOf('application_decided', id)).toEqual(['agent1', 'agent2']);
  });

  it('devices offline, expiring and low on uses, and an institution term ending: from the scheduled check, to the tree and the list holders', async () => {
    const offline = await device({ lastSeenAt: new Date(Date.now() - 30 * HOUR) });
    const expiring = await device({ expiresAt: new Date(Date.now() + 5 * 24 * HOUR), lastSeenAt: new Date() });
    const low = await device({ remainingUses: 3, totalInspections: 97, lastSeenAt: new Date() });
    const foreign = await device({ institutionId: inst.agent1b, lastSeenAt: new Date(Date.now() - 30 * HOUR) });
    await t.db
      .update(institutions)
      .set({ termExpiresAt: new Date(Date.now() + 10 * 24 * HOUR) })
      .where(eq(institutions.id, inst.clinic3!));
    await checkNotices(t.db);
    const tree: Who[] = ['admin', 'auditor', 'agent1', 'agent2', 'clinic3'];
    expect(await readersOf('device_offline', offline.row.id)).toEqual(tree);
    expect(await readersOf('device_expiring', expiring.row.id)).toEqual(tree);
    expect(await readersOf('device_uses_low', low.row.id)).toEqual(tree);
    // The other tree's device: its own tree and the platform only.
    expect(await readersOf('device_offline', foreign.row.id)).toEqual(['admin', 'auditor', 'agent1b']);
    // The auditor's role does not hold the institution list.
    expect(await readersOf('institution_expiring', inst.clinic3!)).toEqual(['admin', 'agent1', 'agent2', 'clinic3']);
    const n = (await noticesOf('clinic3', { kind: 'device_offline' })).list.find((x) => x.thing_id === offline.row.id)!;
    expect(n).toMatchObject({ level: 'warning', link: `/dashboard/index?keyword=${offline.row.serial}`, title: `Device offline: ${offline.row.serial}` });
    expect(n.body).toContain('more than 24 hours');
  });
});

describe('once per thing and state', () => {
  it('concurrent checks write each notice once; a device that stays offline is not announced again, one that came back and went silent again is', async () => {
    const { row } = await device({ lastSeenAt: new Date(Date.now() - 40 * HOUR) });
    const results = await Promise.all(Array.from({ length: 6 }, () => checkNotices(t.db)));
    const readers = 5; // admin, auditor, agent1, agent2, clinic3
    expect(await stored('device_offline', row.id)).toBe(readers);
    // Only one of the concurrent checks wrote them.
    expect(results.filter((r) => r.device_offline! > 0).length).toBeGreaterThanOrEqual(1);
    await checkNotices(t.db, new Date(Date.now() + HOUR));
    expect(await stored('device_offline', row.id)).toBe(readers);
    // Back (seen now), then silent again: a new state.
    await t.db
      .update(devices)
      .set({ lastSeenAt: new Date(Date.now() - 26 * HOUR) })
      .where(eq(devices.id, row.id));
    await Promise.all([checkNotices(t.db), checkNotices(t.db), checkNotices(t.db)]);
    expect(await stored('device_offline', row.id)).toBe(2 * readers);
  });

  it('concurrent decisions of one payout: one decision, one notice per reader', async () => {
    const id = (await t.call('POST', '/payout/apply', { key: keys.agent1, body: payout })).datas.id as number;
    const answers = await Promise.all([
      t.call('POST', '/payout/approve', { key: keys.admin, body: { id } }),
      t.call('POST', '/payout/approve', { key: keys.reviewer, body: { id } }),
      t.call('POST', '/payout/reject', { key: keys.admin, body: { id, reason: 'no' } }),
    ]);
    expect(answers.filter((a) => a.code === 200)).toHaveLength(1);
    // agent1 (the applicant, grade 1: no ancestor) and the page holders but the one who decided.
    const rows = await t.db
      .select()
      .from(notices)
      .where(and(eq(notices.kind, 'payout_decided'), eq(notices.thingId, id)));
    expect(rows.filter((r) => r.recipientKind === 'institution').map((r) => r.recipientId)).toEqual([inst.agent1]);
    expect(new Set(rows.map((r) => `${r.recipientKind}:${r.recipientId}`)).size).toBe(rows.length);
    expect(rows.length).toBe(2);
  });

  it('the scheduled check runs in one process at a time: another holding its lock skips the turn', async () => {
    const pool = (t.db as unknown as { $client: import('pg').Pool }).$client;
    const holder = await pool.connect();
    try {
      await holder.query('select pg_advisory_lock($1, $2)', [...NOTICE_CHECK_LOCK]);
      expect(await scheduledCheck({ db: t.db, pool })).toBe('locked');
      await holder.query('select pg_advisory_unlock($1, $2)', [...NOTICE_CHECK_LOCK]);
      expect(await scheduledCheck({ db: t.db, pool })).toMatchObject({ device_offline: expect.any(Number) });
    } finally {
      holder.release();
    }
  });

  it('the database refuses a second row of one thing, state and reader', async () => {
    const [one] = await t.db.select().from(notices).limit(1);
    await expect(
      t.db.insert(notices).values({ kind: one!.kind, level: one!.level, thingId: one!.thingId, epoch: one!.epoch, recipientKind: one!.recipientKind, recipientId: one!.recipientId, params: {} }),
    ).rejects.toMatchObject({ cause: { constraint: 'notices_once_uq' } });
  });
});

describe('reading', () => {
  it('marks some or all of the caller’s own notices read; others’ ids change nothing; bad input is refused', async () => {
    const before = await noticesOf('agent2');
    expect(before.unread).toBeGreaterThan(1);
    const first = before.list.find((n) => !n.read_at)!;
    expect((await t.call('POST', '/notice/read', { key: keys.agent2, body: { ids: [first.id] } })).code).toBe(200);
    expect((await noticesOf('agent2')).unread).toBe(before.unread - 1);
    // agent1b marks agent2's notices: nothing changes for agent2.
    const others = (await noticesOf('agent2', { unread: 1 })).list.map((n) => n.id);
    expect((await t.call('POST', '/notice/read', { key: keys.agent1b, body: { ids: others } })).code).toBe(200);
    expect((await noticesOf('agent2')).unread).toBe(before.unread - 1);
    const bad = await t.call('POST', '/notice/read', { key: keys.agent2, body: { ids: [] } });
    expect(bad.code).toBe(400);
    expect((await t.call('POST', '/notice/read', { key: keys.agent2, body: { all: false } })).code).toBe(400);
    expect((await t.call('POST', '/notice/read', { key: keys.agent2, body: { all: true } })).code).toBe(200);
    const after = await noticesOf('agent2', { unread: 1 });
    expect(after).toMatchObject({ unread: 0, total: 0, list: [] });
    expect((await t.call('GET', '/notice/list', { key: keys.agent2, query: { kind: 'nope' } })).code).toBe(400);
  });
});

/** An open stream read as it comes: events parsed, waited on by condition. */
function openStream(key: string | undefined, opts: { lastEventId?: number; lang?: string } = {}) {
  const controller = new AbortController();
  const events: { id: number | null; event: string; data: any }[] = [];
  let text = '';
  const headers: Record<string, string> = { authorization: `Bearer ${key ?? ''}`, 'accept-language': opts.lang ?? 'en' };
  if (opts.lastEventId !== undefined) headers['last-event-id'] = String(opts.lastEventId);
  let ended = false;
  const response = fetch(`${base}/notice/stream`, { headers, signal: controller.signal });
  const done = response.then(async (res) => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        let cut = text.indexOf('\n\n');
        while (cut >= 0) {
          const block = text.slice(0, cut);
          text = text.slice(cut + 2);
          const fields = Object.fromEntries(
            block
              .split('\n')
              .filter((l) => !l.startsWith(':') && l.includes(':'))
              .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]),
          );
          if (fields.event) events.push({ id: fields.id ? Number(fields.id) : null, event: fields.event, data: JSON.parse(fields.data ?? 'null') });
          cut = text.indexOf('\n\n');
        }
      }
    } catch {
      /* aborted */
    }
    ended = true;
  });
  return {
    response,
    events,
    get ended() {
      return ended;
    },
    close: async () => {
      controller.abort();
      await done.catch(() => {});
    },
  };
}

describe('the live stream', () => {
  it('pushes a notice to the reader’s open stream within 2 s, in its language; resumes after Last-Event-ID without loss or repeat', async () => {
    const zh = openStream(keys.admin, { lang: 'zh' });
    const res = await zh.response;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const id = (await t.call('POST', '/payout/apply', { key: keys.agent2, body: payout })).datas.id as number;
    await expect.poll(() => zh.events.find((e) => e.data?.kind === 'payout_pending' && e.data.thing_id === id), { timeout: 2_000, interval: 10 }).toBeTruthy();
    const first = zh.events.find((e) => e.data.thing_id === id)!;
    expect(first.data.title).toBe('提现待审核：Hangzhou Sub-agency');
    expect(first.id).toBe(first.data.id);
    await zh.close();

    // Gone: two more notices are written meanwhile; the resumed stream gets exactly those, once each, in order.
    const more = [(await t.call('POST', '/payout/apply', { key: keys.agent2, body: payout })).datas.id, (await t.call('POST', '/payout/apply', { key: keys.agent1, body: payout })).datas.id];
    const resumed = openStream(keys.admin, { lastEventId: first.id! });
    await expect.poll(() => resumed.events.filter((e) => e.event === 'notice').map((e) => e.data.thing_id), { timeout: 2_000, interval: 10 }).toEqual(more);
    // And a live one after them.
    const third = (await t.call('POST', '/payout/apply', { key: keys.agent2, body: payout })).datas.id;
    await expect.poll(() => resumed.events.filter((e) => e.event === 'notice').map((e) => e.data.thing_id), { timeout: 2_000, interval: 10 }).toEqual([...more, third]);
    const ids = resumed.events.map((e) => e.id!);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    // Another reader's stream got none of the admin's.
    await resumed.close();
  });

  it('streams only the reader’s own notices', async () => {
    const agent1b = openStream(keys.agent1b);
    const agent1 = openStream(keys.agent1);
    await Promise.all([agent1b.response, agent1.response]);
    const id = (await t.call('POST', '/payout/apply', { key: keys.agent2, body: payout })).datas.id as number;
    await t.call('POST', '/payout/approve', { key: keys.admin, body: { id } });
    await expect.poll(() => agent1.events.some((e) => e.data?.thing_id === id && e.data.kind === 'payout_decided'), { timeout: 2_000, interval: 10 }).toBe(true);
    expect(agent1b.events.filter((e) => e.event === 'notice')).toEqual([]);
    await Promise.all([agent1.close(), agent1b.close()]);
  });

  it('refuses a missing or bad key with 999 and closes (restricted keys: the permission table)', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-key' }] as Record<string, string>[]) {
      const res = await fetch(`${base}/notice/stream`, { headers });
      expect(res.headers.get('content-type')).toMatch(/json/);
      expect((await res.json()).code).toBe(999);
    }
  });

  it(`keeps at most ${MAX_STREAMS_PER_SESSION} streams a session: a further one closes the oldest, saying why`, async () => {
    const key = (await t.login('agent1', 'institution')).key;
    const streams: ReturnType<typeof openStream>[] = [];
    for (let i = 0; i <= MAX_STREAMS_PER_SESSION; i++) {
      const s = openStream(key);
      await s.response;
      streams.push(s);
    }
    await expect.poll(() => streams[0]!.ended, { timeout: 2_000, interval: 10 }).toBe(true);
    expect(streams[0]!.events.at(-1)).toMatchObject({ event: 'closed', data: { reason: 'too_many_streams' } });
    expect(streams.slice(1).every((s) => !s.ended)).toBe(true);
    // Signing out ends the others at the next beat (called here rather than waited 25 s for).
    expect((await t.call('POST', '/login/logout', { key })).code).toBe(200);
    await hubOf(t.db)!.heartbeat();
    await expect.poll(() => streams.slice(1).every((s) => s.ended), { timeout: 2_000, interval: 10 }).toBe(true);
  });
});

describe('device version and presence', () => {
  const dev = (auth: string, version?: string) =>
    t.app.inject({ method: 'GET', url: '/deviceapi/v1/status', headers: Object.assign({ authorization: auth }, version === undefined ? {} : { 'x-device-version': version }) });
  const rowOf = async (serial: string, query: Record<string, unknown> = {}) => {
    const res = await t.call('GET', '/equipment/list', { key: keys.agent2, query: Object.assign({ keyword: serial, limit: 5 }, query) });
    expect(res.code, res.raw).toBe(200);
    return (res.datas.list as any[]).find((r) => r.serial === serial);
  };

  it('keeps the last X-Device-Version; the list shows it with online and last seen, and filters by both', async () => {
    const { row, auth } = await device({ lastSeenAt: null });
    expect(await rowOf(row.serial)).toMatchObject({ reported_version: null, online: false, last_seen_at: null });
    expect(await rowOf(row.serial, { online: 'false' })).toBeTruthy();
    expect((await dev(auth, 'fw 2.4.1 (build 77)')).statusCode).toBe(200);
    expect((await dev(auth)).statusCode).toBe(200);
    const seen = await rowOf(row.serial);
    expect(seen).toMatchObject({ reported_version: 'fw 2.4.1 (build 77)', online: true });
    expect(Date.now() - Date.parse(seen.last_seen_at)).toBeLessThan(60_000);
    expect(await rowOf(row.serial, { online: 'true' })).toBeTruthy();
    expect(await rowOf(row.serial, { online: 'false' })).toBeUndefined();
    expect(await rowOf(row.serial, { reported_version: 'fw 2.4.1 (build 77)' })).toBeTruthy();
    expect(await rowOf(row.serial, { reported_version: 'fw 2.4.0' })).toBeUndefined();
    // Seen longer ago than device_online_minutes: offline.
    await t.db.update(devices).set({ lastSeenAt: sql`now() - interval '11 minutes'` }).where(eq(devices.id, row.id));
    expect(await rowOf(row.serial)).toMatchObject({ online: false, reported_version: 'fw 2.4.1 (build 77)' });
    expect(await rowOf(row.serial, { online: 'false' })).toBeTruthy();
  });

  it('refuses a version that is not printable or too long (400), changing nothing', async () => {
    const { row, auth } = await device();
    for (const bad of ['x'.repeat(65), 'fw\u00e9', 'tab\there']) {
      const res = await dev(auth, bad);
      expect(res.statusCode, bad).toBe(200);
      expect(res.json()).toMatchObject({ code: 400, datas: { error: 'X-Device-Version must be printable characters, at most 64' } });
    }
    const [after] = await t.db.select().from(devices).where(eq(devices.id, row.id));
    expect(after!.reportedVersion).toBeNull();
    expect((await t.call('GET', '/equipment/list', { key: keys.admin, query: { reported_version: 'x'.repeat(65) } })).code).toBe(400);
  });

  it('device stats count the devices online', async () => {
    const stats = async () => (await t.call('GET', '/stats/equipment', { key: keys.admin, query: { from: '2026-01-01', to: '2026-01-31' } })).datas.kpis.onlineDevices as number;
    const before = await stats();
    await device({ lastSeenAt: new Date() });
    expect(await stats()).toBe(before + 1);
  });
});

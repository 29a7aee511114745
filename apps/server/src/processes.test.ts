import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAIR } from './lib/throttle';
import { DEMO_PASSWORD } from './seed';
import { freePort, until as untilDefault } from './test/child';

const until = (what: string, check: () => Promise<boolean>) => untilDefault(what, check, 90_000, 100);

/*
 * Two server processes on one PostgreSQL behave as one (issue 9 §6): main.ts twice, as child processes,
 * on a database created for this file. A role change made through one reaches the other at once, and
 * sign-in failures spread over both add up. Both trust X-Forwarded-For (TRUST_PROXY=1), so the test
 * can speak from several client addresses. The run's PostgreSQL is in DATABASE_URL (test/global-setup.ts).
 */

const PG = process.env.DATABASE_URL;
const root = path.resolve(import.meta.dirname, '../../..');

interface Proc {
  name: string;
  port: number;
  child: ChildProcess;
  exited: Promise<unknown>;
}

const procs: Proc[] = [];
let databaseName = '';
let dataDir = '';

async function start(name: string, databaseUrl: string, seed: boolean): Promise<Proc> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: seed ? '1' : '0',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'silent',
      DATA_DIR: path.join(dataDir, name),
      WEB_DIST: path.join(dataDir, 'no-web'),
      METRICS_PORT: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  const proc = { name, port, child, exited: new Promise((resolve) => child.once('exit', resolve)) };
  procs.push(proc);
  await until(`process ${name} to answer`, async () => {
    if (child.exitCode !== null) throw new Error(`process ${name} exited with ${child.exitCode}: ${stderr}`);
    try {
      return (await fetch(`http://127.0.0.1:${port}/adminapi/params/public`)).ok;
    } catch {
      return false;
    }
  });
  return proc;
}

interface Answer {
  code: number;
  datas: any;
}

/** A call to one process, from a client address of the test's choosing. */
async function call(p: Proc, method: 'GET' | 'POST', route: string, payload: Record<string, unknown> = {}, from = '192.0.2.10'): Promise<Answer> {
  const headers: Record<string, string> = { 'x-forwarded-for': from, 'accept-language': 'en' };
  let url = `http://127.0.0.1:${p.port}/adminapi${route}`;
  let body: string | undefined;
  if (method === 'GET') url += `?${new URLSearchParams(Object.entries(payload).map(([k, v]) => [k, String(v)]))}`;
  else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(payload);
  }
  const res = await fetch(url, { method, headers, body });
  return (await res.json()) as Answer;
}

async function signIn(p: Proc, username: string, password = DEMO_PASSWORD, from?: string): Promise<Answer> {
  return call(p, 'POST', '/login/login', { username, password }, from);
}

let a: Proc;
let b: Proc;

beforeAll(async () => {
  if (!PG) return;
  databaseName = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  await admin.end();
  const url = new URL(PG);
  url.pathname = `/${databaseName}`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'two-processes-'));
  // The first migrates and seeds; the second finds the database ready.
  a = await start('a', url.toString(), true);
  b = await start('b', url.toString(), false);
}, 180_000);

afterAll(async () => {
  for (const p of procs) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
    await p.exited;
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  if (PG && databaseName) {
    const c = new pg.Client({ connectionString: PG });
    await c.connect();
    await c.query(`drop database if exists ${databaseName} with (force)`);
    await c.end();
  }
}, 60_000);

describe('two server processes on one PostgreSQL', () => {
  it('share sessions: a key from one works on the other, and a sign-out on one ends it on both', async () => {
    const { key } = (await signIn(a, 'admin')).datas;
    expect((await call(b, 'GET', '/member/get_member', { key })).code).toBe(200);
    expect((await call(b, 'POST', '/login/logout', { key })).code).toBe(200);
    // Process a may hold the session in its cache until the sign-out's notice reaches it (db/session-cache.ts):
    // a moment after the commit, polled for, never slept on.
    await expect.poll(async () => (await call(a, 'GET', '/member/get_member', { key })).code, { timeout: 2_000, interval: 5 }).toBe(999);
  });

  it('a role change made through one process reaches the other as soon as its notice does', async () => {
    const adminKey = (await signIn(a, 'admin')).datas.key as string;
    const auditor = (await signIn(b, 'auditor')).datas.key as string;
    expect((await call(b, 'GET', '/equipment/list', { key: auditor, limit: 5 })).code).toBe(200);
    // Through process a: the auditor's role loses the device list page.
    const roleId = (await call(b, 'GET', '/member/get_member', { key: auditor })).datas.role.id as number;
    const detail = await call(a, 'GET', '/role/detail', { key: adminKey, id: roleId });
    const tree = await call(a, 'GET', '/menu/tree', { key: adminKey });
    const find = (nodes: any[], sign: string): any => nodes.map((n) => (n.sign === sign ? n : find(n.children ?? [], sign))).find(Boolean);
    const deviceList = find(tree.datas, 'DeviceList');
    expect(detail.datas.menu_ids).toContain(deviceList.id);
    // The page with its buttons (a granted button would keep its page: the role editor grants the parents of what it holds).
    const dropped = [deviceList.id, ...(deviceList.children ?? []).map((c: { id: number }) => c.id)];
    const edited = await call(a, 'POST', '/role/edit', { key: adminKey, id: roleId, menu_ids: detail.datas.menu_ids.filter((id: number) => !dropped.includes(id)) });
    expect(edited.code).toBe(200);
    // Process b, with the session it already holds, is refused once the edit's notice has reached it (a
    // moment after the commit: polled for, never slept on).
    await expect
      .poll(() => call(b, 'GET', '/equipment/list', { key: auditor, limit: 5 }), { timeout: 2_000, interval: 5 })
      .toEqual({ code: 400, datas: { error: 'You do not have permission for this action' } });
    // And given back, it is let in again.
    expect((await call(a, 'POST', '/role/edit', { key: adminKey, id: roleId, menu_ids: detail.datas.menu_ids })).code).toBe(200);
    await expect.poll(async () => (await call(b, 'GET', '/equipment/list', { key: auditor, limit: 5 })).code, { timeout: 2_000, interval: 5 }).toBe(200);
  });

  it('a notice written through one process reaches a stream held by the other within 2 s, and a stream resumed on the first gets what it missed', async () => {
    const admin = (await signIn(b, 'admin')).datas.key as string;
    const agent2 = (await call(a, 'POST', '/login/institution_login', { username: 'agent2', password: DEMO_PASSWORD })).datas.key as string;
    const events: { id: number; data: { kind: string; thing_id: number } }[] = [];
    const follow = async (p: Proc, lastEventId?: number) => {
      const controller = new AbortController();
      const res = await fetch(`http://127.0.0.1:${p.port}/adminapi/notice/stream`, {
        headers: Object.assign({ authorization: `Bearer ${admin}` }, lastEventId ? { 'last-event-id': String(lastEventId) } : {}) as Record<string, string>,
        signal: controller.signal,
      });
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      void (async () => {
        const reader = res.body!.getReader();
        let text = '';
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            text += new TextDecoder().decode(value);
            for (let cut = text.indexOf('\n\n'); cut >= 0; cut = text.indexOf('\n\n')) {
              const block = text.slice(0, cut);
              text = text.slice(cut + 2);
              const id = /^id: (\d+)$/m.exec(block)?.[1];
              const data = /^data: (.*)$/m.exec(block)?.[1];
              if (id && data && /^event: notice$/m.test(block)) events.push({ id: Number(id), data: JSON.parse(data) });
            }
          }
        } catch {
          /* cut */
        }
      })();
      return () => controller.abort();
    };
    const apply = async () => {
      const res = await call(a, 'POST', '/payout/apply', { key: agent2, amount_cents: 10_000, bank: 'ICBC', account_name: 'Li Na', account_no: '6222 0210 0000 1234' });
      expect(res.code, JSON.stringify(res)).toBe(200);
      return res.datas.id as number;
    };
    const stop = await follow(b);
    const first = await apply();
    await expect.poll(() => events.some((e) => e.data.kind === 'payout_pending' && e.data.thing_id === first), { timeout: 2_000, interval: 10 }).toBe(true);
    stop();
    const last = events.at(-1)!.id;
    const missed = await apply();
    const stopAgain = await follow(a, last);
    await expect.poll(() => events.filter((e) => e.id > last).map((e) => e.data.thing_id), { timeout: 2_000, interval: 10 }).toEqual([missed]);
    stopAgain();
  });

  it('sign-in failures spread over both processes add up', async () => {
    const attacker = '203.0.113.50';
    // PAIR.free wrong passwords for one account from one address, alternating between the processes:
    // neither process alone has seen enough of them to throttle.
    for (let i = 0; i < PAIR.free; i++) expect((await signIn(i % 2 ? b : a, 'auditor', `guess-${i}`, attacker)).datas.error).toBe('Incorrect username or password');
    for (const p of [a, b]) {
      const refused = await signIn(p, 'auditor', DEMO_PASSWORD, attacker);
      expect(refused.code).toBe(400);
      expect(refused.datas.error).toMatch(/^Too many failed sign-in attempts; try again in \d+ min$/);
    }
    // The account's owner, from elsewhere, signs in through either process.
    expect((await signIn(a, 'auditor', DEMO_PASSWORD, '198.51.100.23')).code).toBe(200);
    expect((await signIn(b, 'auditor', DEMO_PASSWORD, '198.51.100.23')).code).toBe(200);
  });
});

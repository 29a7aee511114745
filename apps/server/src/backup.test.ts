import { randomBytes, randomUUID } from 'node:crypto';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERIDIANS } from '@app/contract';
import { checkBackup } from './db/backup';
import { runningEmbedded, startEmbedded } from './db/embedded';
import { codeKeysFrom } from './modules/codes/key';
import { solidPng } from './modules/schematics';
import { DEMO_PASSWORD } from './seed';
import { freePort, outputOf, until } from './test/child';

/*
 * `npm run backup` and `npm run restore` (db/backup.ts, cli/backup.ts, cli/restore.ts), end to end, on both
 * engines in every run: the embedded database of a DATA_DIR (the server started on it without
 * DATABASE_URL, its cluster reached on its socket), and a database of this file's own on the run's
 * PostgreSQL server (DATABASE_URL; CI's second run makes that the machine's server). The real server and the
 * real CLIs run as child processes.
 */

const root = path.resolve(import.meta.dirname, '../../..');
const RUN_PG = process.env.DATABASE_URL!;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-test-'));
fs.chmodSync(work, 0o755);
const children: ChildProcess[] = [];
const databases: string[] = [];

afterAll(async () => {
  for (const c of children)
    if (c.exitCode === null && c.signalCode === null) {
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await exited;
    }
  for (const name of databases) await admin(`drop database if exists ${name} with (force)`);
  fs.rmSync(work, { recursive: true, force: true });
}, 120_000);

async function admin(text: string) {
  const c = new pg.Client({ connectionString: RUN_PG });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

async function newDatabase(): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await admin(`create database ${name}`);
  databases.push(name);
  const url = new URL(RUN_PG);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A place to back up from or restore into: a DATA_DIR, and with the `postgres` engine a database of its own. */
interface Target {
  dataDir: string;
  databaseUrl: string;
}
type Engine = 'embedded' | 'postgres';
async function newTarget(engine: Engine, name: string): Promise<Target> {
  return { dataDir: path.join(work, `${engine}-${name}`), databaseUrl: engine === 'postgres' ? await newDatabase() : '' };
}
const envOf = (t: Target) => ({ DATA_DIR: t.dataDir, DATABASE_URL: t.databaseUrl, CODE_KEY: '' });

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}
function cli(name: 'backup' | 'restore', args: string[], t: Target): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', `apps/server/src/cli/${name}.ts`, ...args], {
    cwd: root,
    env: Object.assign({}, process.env, envOf(t), { INIT_CWD: root }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const { done } = outputOf(child);
  return { child, done };
}

interface Server {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}
async function startServer(t: Target): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: Object.assign({}, process.env, envOf(t), { PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: '1', LOG_LEVEL: 'silent', WEB_DIST: path.join(work, 'no-web'), METRICS_PORT: '' }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  const exited = new Promise((r) => child.once('exit', r));
  await until(
    'the server to be ready',
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr}`);
      try {
        return (await fetch(`http://127.0.0.1:${port}/readyz`)).ok;
      } catch {
        return false;
      }
    },
    120_000,
  );
  return {
    port,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function call(s: Server, method: 'GET' | 'POST', route: string, payload: Record<string, unknown> = {}): Promise<{ code: number; datas: any }> {
  let url = `http://127.0.0.1:${s.port}/adminapi${route}`;
  const init: RequestInit = { method, headers: { 'accept-language': 'en' } };
  if (method === 'GET') url += `?${new URLSearchParams(Object.entries(payload).map(([k, v]) => [k, String(v)]))}`;
  else {
    init.headers = { 'accept-language': 'en', 'content-type': 'application/json' };
    init.body = JSON.stringify(payload);
  }
  return (await (await fetch(url, init)).json()) as { code: number; datas: any };
}
const signIn = async (s: Server, username: string, kind: 'admin' | 'institution' = 'admin') => {
  const res = await call(s, 'POST', kind === 'admin' ? '/login/login' : '/login/institution_login', { username, password: DEMO_PASSWORD });
  expect(res.code, JSON.stringify(res)).toBe(200);
  return res.datas.key as string;
};
/** The demo device's API (README): a payment or an inspection. */
async function device(s: Server, route: '/payments' | '/inspections', body: Record<string, unknown>) {
  const res = await fetch(`http://127.0.0.1:${s.port}/deviceapi/v1${route}`, {
    method: 'POST',
    headers: { authorization: 'Bearer BE-DEMO-0001.demo-device-secret-0001', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; datas: any };
}
const inspection = () => ({
  inspection_no: `BK-${randomUUID()}`,
  measured_at: new Date().toISOString(),
  user: { name: 'Backup Test', gender: 'female', birth_date: '1985-03-12', phone: '13800138000' },
  readings: Object.fromEntries(MERIDIANS.map((m) => [m, [100, 101]])),
});
async function payment(s: Server) {
  const pkgs = await fetch(`http://127.0.0.1:${s.port}/deviceapi/v1/packages`, { headers: { authorization: 'Bearer BE-DEMO-0001.demo-device-secret-0001' } });
  const body = (await pkgs.json()) as { code: number; datas: { list: { id: number; price_cents: number }[] } };
  if (body.code !== 200) throw new Error(`the device's packages: ${JSON.stringify(body)}`);
  const pkg = body.datas.list[0]!;
  return device(s, '/payments', { order_no: `BK-${randomUUID()}`, package_id: pkg.id, amount_cents: pkg.price_cents, channel: 'simulator', paid_at: new Date().toISOString() });
}

/** A connection string to a target's database: DATABASE_URL's, or the running embedded cluster of its DATA_DIR. */
function urlOf(t: Target): string {
  if (t.databaseUrl) return t.databaseUrl;
  const running = runningEmbedded(t.dataDir);
  if (!running) throw new Error(`no running cluster in ${t.dataDir}`);
  return running.url;
}
/** Runs `fn` on a target's database; an embedded one that no server runs is started for it and stopped after. */
async function onDatabase<T>(t: Target, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const cluster = !t.databaseUrl && !runningEmbedded(t.dataDir) ? await startEmbedded({ dir: path.join(t.dataDir, 'postgres') }) : undefined;
  const c = new pg.Client({ connectionString: cluster?.url ?? urlOf(t) });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
    await cluster?.stop();
  }
}

/** Every table of the schema (public's and drizzle's migrations) with its row count and a hash of its rows, and every sequence's state. */
async function contents(c: pg.Client): Promise<Record<string, string>> {
  const { rows: tables } = await c.query<{ name: string }>(`select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and (n.nspname = 'public' or (n.nspname = 'drizzle' and c.relname = '__drizzle_migrations')) order by 1`);
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await c.query<{ n: string; h: string | null }>(`select count(*)::text as n, md5(string_agg(t::text, E'\\n' order by t::text)) as h from ${name} t`);
    out[name] = `${rows[0]!.n} ${rows[0]!.h}`;
  }
  const { rows: seqs } = await c.query<{ name: string }>(`select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'S' and n.nspname in ('public', 'drizzle') order by 1`);
  for (const { name } of seqs) {
    const { rows } = await c.query<{ v: string }>(`select last_value::text || ' ' || is_called::text as v from ${name}`);
    out[`sequence ${name}`] = rows[0]!.v;
  }
  const { rows: indexes } = await c.query<{ d: string }>(`select string_agg(indexdef, E'\n' order by indexname) as d from pg_indexes where schemaname in ('public', 'drizzle')`);
  out.indexes = indexes[0]!.d;
  const { rows: constraints } = await c.query<{
    d: string;
  }>(`select string_agg(conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid), E'\n' order by conrelid::regclass::text, conname) as d
    from pg_constraint where connamespace in ('public'::regnamespace, 'drizzle'::regnamespace)`);
  out.constraints = constraints[0]!.d;
  return out;
}

/** The money invariants: every balance is its ledger's sum, and the stats roll-ups hold what their rows say (none counted twice). */
async function moneyAndRollups(c: pg.Client) {
  const { rows: off } = await c.query(`select a.institution_id from finance_accounts a
    left join (select institution_id, sum(amount_cents) as s from ledger_entries group by 1) l using (institution_id)
    where a.balance_cents <> coalesce(l.s, 0)`);
  expect(off).toEqual([]);
  const { rows } = await c.query<{ ledger: string; rolled: string; inspections: string; rolled_inspections: string }>(`select
    (select coalesce(sum(amount_cents), 0)::text from ledger_entries) as ledger, (select coalesce(sum(amount_cents), 0)::text from stats_ledger_daily) as rolled,
    (select count(*)::text from inspections) as inspections, (select coalesce(sum(n), 0)::text from stats_inspections_daily) as rolled_inspections`);
  expect(rows[0]!.rolled).toBe(rows[0]!.ledger);
  expect(rows[0]!.rolled_inspections).toBe(rows[0]!.inspections);
  return rows[0]!;
}

async function expectEmpty(t: Target) {
  if (!t.databaseUrl) {
    expect(fs.existsSync(t.dataDir), `${t.dataDir} was left behind`).toBe(false);
    return;
  }
  await onDatabase(t, async (c) => {
    const { rows } = await c.query(`select relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname in ('public', 'drizzle') and c.relkind in ('r', 'S')`);
    expect(rows).toEqual([]);
  });
}

describe.each(['embedded', 'postgres'] as const)('backup and restore on the %s database', (engine) => {
  let source: Target;
  let server: Server;
  let idleFile = '';

  beforeAll(async () => {
    source = await newTarget(engine, 'source');
    server = await startServer(source);
    // Fresh rows of every kind on top of the demo data: a payment, a payout, an upload, an inspection.
    expect((await payment(server)).code).toBe(200);
    expect((await device(server, '/inspections', inspection())).code).toBe(200);
    const agent = await signIn(server, 'agent1', 'institution');
    const payout = await call(server, 'POST', '/payout/apply', { key: agent, amount_cents: 10_000, bank: 'Test Bank', account_name: 'Agent One', account_no: '6222020200112233' });
    expect(payout.code, JSON.stringify(payout)).toBe(200);
    const key = await signIn(server, 'admin');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(solidPng(8, 8))], { type: 'image/png' }), 'backup.png');
    const upload = (await (await fetch(`http://127.0.0.1:${server.port}/adminapi/base/upload_img?key=${key}`, { method: 'POST', body: form })).json()) as { code: number };
    expect(upload.code).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  }, 60_000);

  it('a backup taken while requests are served restores to a consistent database with the rows its header counts', async () => {
    const file = path.join(work, `${engine}-busy.bkp.gz`);
    const run = cli('backup', ['--out', file], source);
    let running = true;
    void run.done.then(() => {
      running = false;
    });
    // Writes of every kind, several at once, for as long as the backup runs (and at least one round).
    let rounds = 0;
    const key = await signIn(server, 'admin');
    do {
      // The demo device may make 60 calls a minute (DEVICE_RATE_PER_MINUTE): its writes stop after 15 rounds
      // (3 calls each), the sign-ins and reads go on for as long as the backup runs.
      const answers = await Promise.all([
        ...(rounds < 15 ? [payment(server), device(server, '/inspections', inspection())] : []),
        call(server, 'POST', '/login/login', { username: 'auditor', password: DEMO_PASSWORD }),
        call(server, 'GET', '/equipment/list', { key, limit: 20 }),
      ]);
      for (const a of answers) expect(a.code, JSON.stringify(a)).toBe(200);
      rounds++;
    } while (running);
    const out = await run.done;
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/backup written/);
    expect(rounds).toBeGreaterThan(0);

    const { header } = await checkBackup(file);
    expect(header.tables.map((t) => t.name)).toContain('"public"."ledger_entries"');
    const target = await newTarget(engine, 'busy');
    const restored = await cli('restore', [file], target).done;
    expect(restored.code, restored.stderr).toBe(0);
    await onDatabase(target, async (c) => {
      for (const t of header.tables) expect([t.name, Number((await c.query(`select count(*) from ${t.name}`)).rows[0].count)]).toEqual([t.name, t.rows]);
      await moneyAndRollups(c);
    });
  }, 240_000);

  it('restores every row, sequence and ledger sum of an idle database, and an unused code redeems with the key copied over', async () => {
    idleFile = path.join(work, `${engine}-idle.bkp.gz`);
    const out = await cli('backup', ['--out', idleFile], source).done;
    expect(out.code, out.stderr).toBe(0);
    const before = await onDatabase(source, contents);
    const sums = await onDatabase(source, moneyAndRollups);
    if (before['public.uploads']) expect(before['public.uploads']).not.toMatch(/^0 /);

    const target = await newTarget(engine, 'idle');
    const restored = await cli('restore', [idleFile], target).done;
    expect(restored.code, restored.stderr).toBe(0);
    // The key is not in the backup: the restore says so, and README's step (copy code.key) is what the test does.
    expect(restored.stdout).toMatch(/code\.key/);
    expect(await onDatabase(target, contents)).toEqual(before);
    expect(await onDatabase(target, moneyAndRollups)).toEqual(sums);

    // An unused code of the demo's "Renewal for overdue3" batch, opened with the source's key.
    const sealed = await onDatabase(source, async (c) => {
      const { rows } = await c.query<{ sealed: string }>(`select a.sealed from activation_codes a join code_batches b on b.id = a.batch_id
        where b.remark like 'Renewal for overdue3%' and a.status = 'unused' order by a.id limit 1`);
      return rows[0]!.sealed;
    });
    const code = codeKeysFrom(fs.readFileSync(path.join(source.dataDir, 'code.key'))).open(sealed);
    expect(code).toBeTruthy();
    fs.mkdirSync(target.dataDir, { recursive: true });
    fs.copyFileSync(path.join(source.dataDir, 'code.key'), path.join(target.dataDir, 'code.key'));
    const restoredServer = await startServer(target);
    try {
      const key = await signIn(restoredServer, 'overdue3', 'institution');
      const redeemed = await call(restoredServer, 'POST', '/base_index/use_activation_code_institution', { key, code });
      expect(redeemed.code, JSON.stringify(redeemed)).toBe(200);
    } finally {
      await restoredServer.stop();
    }
  }, 300_000);

  it('refuses a flipped byte, a truncated file, a foreign file and a target that is not empty, changing nothing', async () => {
    const bytes = fs.readFileSync(idleFile);
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(bytes.length / 2)]! ^= 0x01;
    const damaged = {
      flipped,
      truncated: bytes.subarray(0, Math.floor((bytes.length * 2) / 3)),
      foreign: Buffer.from('PGDMP this is some other file\n'),
    };
    for (const [what, content] of Object.entries(damaged)) {
      const file = path.join(work, `${engine}-${what}.bkp.gz`);
      fs.writeFileSync(file, content);
      const target = await newTarget(engine, what);
      const out = await cli('restore', [file], target).done;
      expect(out.code, what).toBe(1);
      expect(out.stderr, what).toMatch(what === 'foreign' ? /restore refused: .* is not a backup of this system/ : /restore refused: .* is damaged or truncated/);
      expect(out.stderr, what).not.toMatch(/\n\s+at /);
      await expectEmpty(target);
    }
    const before = await onDatabase(source, contents);
    const out = await cli('restore', [idleFile], source).done;
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(engine === 'embedded' ? /restore refused: .* already holds a database/ : /restore refused: the target database is not empty/);
    expect(await onDatabase(source, contents)).toEqual(before);
  }, 300_000);

  it('a backup killed midway leaves no file, and its temporary file is refused', async () => {
    // Enough rows that the backup takes a while: sign-in failures (dropped by the housekeeping anyway).
    await onDatabase(source, (c) => c.query(`insert into login_failures (username, ip, created_at) select 'bulk-' || md5(g::text), '192.0.2.1', now() from generate_series(1, 400000) g`));
    try {
      const file = path.join(work, `${engine}-killed.bkp.gz`);
      const run = cli('backup', ['--out', file], source);
      const tmp = `${file}.tmp-${run.child.pid}`;
      await until('the backup to write its temporary file', async () => fs.existsSync(tmp) && fs.statSync(tmp).size > 0, 60_000, 2);
      run.child.kill('SIGKILL');
      const out = await run.done;
      expect(out.signal).toBe('SIGKILL');
      expect(fs.existsSync(file)).toBe(false);
      await expect(checkBackup(tmp)).rejects.toThrow(/an unfinished backup/);
      const target = await newTarget(engine, 'killed');
      const refused = await cli('restore', [tmp], target).done;
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/restore refused: .* is an unfinished backup/);
      await expectEmpty(target);
    } finally {
      await onDatabase(source, (c) => c.query(`delete from login_failures where username like 'bulk-%'`));
    }
  }, 240_000);
});

/**
 * Part 9, trust (BENCH_PARTS=trust), at demo size on the embedded default: the built server started on a
 * fresh DATA_DIR of its own (demo data seeded by its first start), apart from the engines' parts:
 * 1. Sign-in with a second factor next to password-only. TRUST_ACCOUNTS fresh institutions (grade-1
 *    agents added by the admin through `/institution/add`, a chosen password), half of them enrolled in
 *    TOTP (`/mfa/setup`, the code computed from the secret with `otpauth`, `/mfa/enable`); then each
 *    account signs in once, one after another, the kinds alternating: password-only is
 *    `/login/institution_login`; with the factor it is that (answering `{ mfa_required, challenge }`) then
 *    `/login/mfa { challenge, code }`, timed from the first request's sending to the second's last byte. A
 *    code is accepted once per 30 s step per account, and enabling spent the current step: the measured
 *    sign-in sends the next step's code (accepted: one step of drift either way), computed before the
 *    clock starts. argon2 (the password's hash) dominates both kinds. The floor of the factor's extra
 *    cost, the least a second HTTP round trip can cost, is a signed-in no-op on the same keep-alive
 *    connection, timed alone; `/login/mfa` alone is printed too.
 * 2. The signed-in no-op (`GET /institution/get_institution_info`, agent1) with the access audit on,
 *    against the same on the commit before the access audit merged, built in another checkout
 *    (BENCH_PREAUDIT_DIR, default /tmp/bench-preaudit: `git worktree add /tmp/bench-preaudit <sha>`, npm
 *    install, the server and web builds), each on an embedded DATA_DIR of its own: autocannon at 10
 *    connections for TRUST_SECONDS in rounds, the two builds alternating (which goes first alternates too),
 *    and one client's sequential calls for the p95 (autocannon reports no p95). The no-op is not a health
 *    read, so the audit writes nothing on it: what is compared is the cost of the audit's presence on
 *    every request. Without that checkout, a health read (an inspection's detail, which writes one audit
 *    row) is measured against the no-op on the current build instead, and the figures say so.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TOTP } from 'otpauth';
import { type Answer, type Client, httpClient, isOk } from './lib/load';
import { type Running, startServer } from './lib/server';
import { ms, pct } from './lib/stats';
import { signIn } from './sessions';
import { type Throughput, throughput } from './throughput';

const QUICK = process.env.BENCH_QUICK === '1';
const ACCOUNTS = Number(process.env.TRUST_ACCOUNTS ?? 40);
const SECONDS = Number(process.env.TRUST_SECONDS ?? (QUICK ? 3 : 10));
const ROUNDS = Number(process.env.TRUST_ROUNDS ?? 3);
/** Sequential calls per build and round for the no-op's p95. */
const SEQUENTIAL = QUICK ? 100 : 400;
const PREAUDIT_DIR = process.env.BENCH_PREAUDIT_DIR ?? '/tmp/bench-preaudit';
const PASSWORD = 'Trust-bench-4817';
const NOOP = '/adminapi/institution/get_institution_info';
/** The factor's target: it adds at most this much at p95. */
export const FACTOR_TARGET_MS = 5;
/** The audit's target: the no-op no more than this much slower. */
export const AUDIT_TARGET = 0.05;

export interface SignInFigures {
  accounts: number;
  password: number[];
  factor: number[];
  /** `/login/mfa` alone (the factor's second request). */
  second: number[];
  /** The floor: a signed-in no-op on the same connection, alone. */
  floor: number[];
  /** The floor of a request that must commit a write: ending the factor's new session (`/login/logout`, one row deleted, committed). */
  floorWrite: number[];
}

export interface BuildFigures {
  label: string;
  rounds: Throughput[];
  /** One client's sequential calls, each round's. */
  sequential: number[][];
}

export interface AuditFigures {
  /** What was compared, in words. */
  method: string;
  /** Against a build before the access audit (else a health read against the no-op). */
  preaudit: boolean;
  a: BuildFigures;
  b: BuildFigures;
}

export interface TrustFigures {
  signIn: SignInFigures;
  audit: AuditFigures;
}

function must(a: Answer, what: string): Record<string, unknown> {
  if (!isOk(a)) throw new Error(`${what}: ${a.status} ${JSON.stringify(a.body).slice(0, 300)}`);
  return ((a.body as { datas?: Record<string, unknown> }).datas ?? {}) as Record<string, unknown>;
}

const totp = (secret: string) => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret });

/** Adds the accounts (admin), enrols every other one in TOTP, and answers them with their secrets. */
async function makeAccounts(client: Client, n: number): Promise<{ username: string; secret?: string }[]> {
  const admin = { authorization: `Bearer ${await signIn(client, 'admin')}` };
  const tag = Date.now().toString(36).slice(-5);
  const out: { username: string; secret?: string }[] = [];
  for (let i = 0; i < n; i++) {
    const username = `trust${tag}${i}x`;
    must(
      await client.post(
        '/adminapi/institution/add',
        { username, password: PASSWORD, name: `Trust bench ${i}`, contact_name: 'Bench', phone: '13800000000', region: ['330000', '330100', '330106'], address: 'Road 1' },
        admin,
      ),
      `add ${username}`,
    );
    let secret: string | undefined;
    if (i % 2 === 1) {
      const key = must(await client.post('/adminapi/login/institution_login', { username, password: PASSWORD }), `sign-in of ${username}`).key as string;
      const auth = { authorization: `Bearer ${key}` };
      secret = must(await client.post('/adminapi/mfa/setup', {}, auth), `mfa setup of ${username}`).secret as string;
      must(await client.post('/adminapi/mfa/enable', { code: totp(secret).generate() }, auth), `mfa enable of ${username}`);
    }
    out.push({ username, secret });
  }
  return out;
}

export async function measureSignIn(server: Running, progress: (line: string) => void): Promise<SignInFigures> {
  const client = httpClient(server.url);
  try {
    progress(`trust: ${ACCOUNTS} accounts, half with TOTP`);
    const accounts = await makeAccounts(client, ACCOUNTS);
    const f: SignInFigures = { accounts: ACCOUNTS, password: [], factor: [], second: [], floor: [], floorWrite: [] };
    const noopKey = await signIn(client, 'agent1');
    progress('trust: each account signs in once, the kinds alternating');
    for (const { username, secret } of accounts) {
      // The next step's code (enabling spent this one), computed before the clock starts.
      const code = secret ? totp(secret).generate({ timestamp: Date.now() + 30_000 }) : '';
      const started = performance.now();
      const first = await client.post('/adminapi/login/institution_login', { username, password: PASSWORD });
      const answer = must(first, `sign-in of ${username}`);
      if (!secret) {
        if (!answer.key) throw new Error(`sign-in of ${username}: no key`);
        f.password.push(first.ms);
        continue;
      }
      if (answer.mfa_required !== true || typeof answer.challenge !== 'string') throw new Error(`sign-in of ${username}: no challenge: ${JSON.stringify(answer)}`);
      const second = await client.post('/adminapi/login/mfa', { challenge: answer.challenge, code });
      const end = performance.now();
      const factorKey = must(second, `/login/mfa of ${username}`).key;
      if (!factorKey) throw new Error(`/login/mfa of ${username}: no key`);
      f.factor.push(end - started);
      f.second.push(second.ms);
      // The floor, right after: the least a second round trip on this connection costs.
      const noop = await client.get(NOOP, { authorization: `Bearer ${noopKey}` });
      must(noop, 'the no-op');
      f.floor.push(noop.ms);
      // And the least a request that commits a write costs: the new session ended (one row, one commit).
      const logout = await client.post('/adminapi/login/logout', {}, { authorization: `Bearer ${factorKey}` });
      must(logout, 'the logout');
      f.floorWrite.push(logout.ms);
    }
    return f;
  } finally {
    client.close();
  }
}

/** A build under test: its server, a client, and agent1's key. */
interface Target {
  label: string;
  server: Running;
  client: Client;
  auth: Record<string, string>;
  figures: BuildFigures;
}

async function targetOf(label: string, server: Running, caller: 'agent1' | 'admin' = 'agent1'): Promise<Target> {
  const client = httpClient(server.url);
  return { label, server, client, auth: { authorization: `Bearer ${await signIn(client, caller)}` }, figures: { label, rounds: [], sequential: [] } };
}

async function sequential(t: Target, route: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = await t.client.get(route, t.auth);
    must(a, route);
    out.push(a.ms);
  }
  return out;
}

/** Rounds of the two calls, alternating (and alternating which goes first). */
async function rounds(a: { t: Target; route: string }, b: { t: Target; route: string }, progress: (line: string) => void) {
  for (let i = 0; i < ROUNDS; i++) {
    const order = i % 2 === 0 ? [a, b] : [b, a];
    for (const { t, route } of order) {
      progress(`trust: round ${i + 1}/${ROUNDS}, ${t.figures.label}`);
      t.figures.rounds.push(await throughput(t.client, t.server.url, route, t.auth, SECONDS, t.server.pid, i === 0));
      t.figures.sequential.push(await sequential(t, route, SEQUENTIAL));
    }
  }
}

/** An inspection (the admin reads it: its detail is a health read, one audit row each). */
async function inspectionOf(t: Target): Promise<number> {
  const list = must(await t.client.get('/adminapi/inspection/list?page=1&limit=1', t.auth), 'the inspection list').list as { id: number }[] | undefined;
  if (!list?.[0]) throw new Error('no inspection in the demo data');
  return list[0].id;
}

/** A build's server on a fresh embedded DATA_DIR of its own, with the demo data (seeded by the server's first start). */
async function ownServer(cwd?: string): Promise<{ server: Running; stop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-trust-'));
  fs.chmodSync(dataDir, 0o755); // the embedded PostgreSQL's user (when started by root) passes through it
  const server = await startServer({ cwd, env: { DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: '1' } });
  return {
    server,
    stop: async () => {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function measureAudit(server: Running, progress: (line: string) => void): Promise<AuditFigures> {
  const preServerDir = path.join(PREAUDIT_DIR, 'apps/server');
  const current = await targetOf('current build (access audit on)', server);
  try {
    if (fs.existsSync(path.join(preServerDir, 'dist/main.js'))) {
      progress(`trust: the pre-audit build in ${PREAUDIT_DIR}`);
      const pre = await ownServer(preServerDir);
      const before = await targetOf('before the access audit', pre.server);
      try {
        await rounds({ t: current, route: NOOP }, { t: before, route: NOOP }, progress);
        return {
          preaudit: true,
          method: `the signed-in no-op (GET ${NOOP.replace('/adminapi', '')}, agent1) on the current build vs the same on a build of the commit before "merge: access audit" (${PREAUDIT_DIR}), each on an embedded DATA_DIR of its own`,
          a: current.figures,
          b: before.figures,
        };
      } finally {
        before.client.close();
        await pre.stop();
      }
    }
    progress(`trust: no pre-audit build in ${PREAUDIT_DIR}: a health read against the no-op instead`);
    const health = await targetOf('health read (inspection detail as admin, one audit row)', server, 'admin');
    const detail = `/adminapi/inspection/detail?id=${await inspectionOf(health)}`;
    try {
      current.figures.label = 'signed-in no-op (no audit row)';
      await rounds({ t: health, route: detail }, { t: current, route: NOOP }, progress);
      return {
        preaudit: false,
        method: `no pre-audit build: a health read (GET ${detail.replace('/adminapi', '')}, admin, writes one audit row) against the signed-in no-op (agent1), same build`,
        a: health.figures,
        b: current.figures,
      };
    } finally {
      health.client.close();
    }
  } finally {
    current.client.close();
  }
}

/**
 * The part: the current build on a fresh embedded DATA_DIR of its own (the pre-audit build the same way),
 * so that its added accounts and sign-ins stay out of the other parts' data.
 */
export async function measureTrust(progress: (line: string) => void): Promise<TrustFigures> {
  progress('trust: the current build on a data folder of its own');
  const current = await ownServer();
  try {
    const signInFigures = await measureSignIn(current.server, progress);
    return { signIn: signInFigures, audit: await measureAudit(current.server, progress) };
  } finally {
    await current.stop();
  }
}

const medianOf = (xs: number[]) => pct(xs, 50);
const pctText = (x: number) => `${(x * 100).toFixed(1)}%`;

export function trustMarkdown(f: TrustFigures, engine: string): string {
  const s = f.signIn;
  const p95 = (xs: number[]) => pct(xs, 95);
  const diff = p95(s.factor) - p95(s.password);
  const row = (name: string, xs: number[], note = '') => `| ${name} | ${xs.length} | ${ms(pct(xs, 50))} | ${ms(p95(xs))} | ${note} |`;
  const a = f.audit;
  const summary = (b: BuildFigures) => {
    const rps = medianOf(b.rounds.map((r) => r.rps));
    const seqP95 = medianOf(b.sequential.map((xs) => p95(xs)));
    return { rps, seqP95, p50: medianOf(b.rounds.map((r) => r.p50)), p99: medianOf(b.rounds.map((r) => r.p99)) };
  };
  const sa = summary(a.a);
  const sb = summary(a.b);
  const slower = 1 - sa.rps / sb.rps;
  // Each round's two builds were measured back to back: the median of the rounds' ratios is the figure
  // least moved by the shared box's drift over minutes.
  const roundRatios = a.a.rounds.map((r, i) => r.rps / a.b.rounds[i]!.rps);
  const pairedSlower = 1 - medianOf(roundRatios);
  const p95Slower = sa.seqP95 / sb.seqP95 - 1;
  const buildRow = (b: BuildFigures, x: ReturnType<typeof summary>) =>
    `| ${b.label} | ${Math.round(x.rps).toLocaleString('en-US')} (${b.rounds.map((r) => Math.round(r.rps).toLocaleString('en-US')).join(', ')}) | ${x.p50} / ${x.p99} ms | ${ms(x.seqP95)} (${b.sequential.map((xs) => ms(p95(xs))).join(', ')}) |`;
  return [
    `### Trust: second factor and access audit (${engine})`,
    '',
    `Sign-in, each of ${s.accounts} fresh accounts once, one after another, the kinds alternating (argon2, the password's hash, dominates both):`,
    '',
    '| sign-in | n | p50 | p95 | |',
    '|---|---|---|---|---|',
    row('password only (`/login/institution_login`)', s.password),
    row('with TOTP (`/login/institution_login` + `/login/mfa`)', s.factor),
    row("`/login/mfa` alone (the factor's second request)", s.second),
    row('floor: a signed-in no-op on the same connection', s.floor, 'the least a second round trip costs'),
    row('floor: `/login/logout` (one row deleted, committed)', s.floorWrite, 'the least a second round trip that must commit costs'),
    '',
    `Difference of p95s (factor - password): ${ms(diff)} (target <= ${FACTOR_TARGET_MS} ms: ${diff <= FACTOR_TARGET_MS ? 'met' : 'missed'}); the floors' p95: ${ms(p95(s.floor))} (no write), ${ms(p95(s.floorWrite))} (one committed write).`,
    '',
    `Compared: ${a.method}; ${ROUNDS} rounds of ${SECONDS} s each by autocannon at 10 connections (median round; each round in brackets), the order alternating, and ${SEQUENTIAL} sequential calls of one client per round for the p95 (autocannon reports none).`,
    '',
    '| build | req/s | autocannon p50 / p99 | one client p95 |',
    '|---|---|---|---|',
    buildRow(a.a, sa),
    buildRow(a.b, sb),
    '',
    `${a.a.label}: ${pctText(slower)} fewer req/s (median rounds); by round, back to back: ${pctText(pairedSlower)} fewer (median of ${roundRatios.map((x) => x.toFixed(3)).join(', ')}); one client's p95 ${p95Slower >= 0 ? '+' : ''}${pctText(p95Slower)}. ${a.preaudit ? `Target, at most ${pctText(AUDIT_TARGET)} slower (by round): ${pairedSlower <= AUDIT_TARGET ? 'met' : 'missed'}.` : 'Not the target: two different requests on one build (the detail reads a whole inspection besides its audit row).'}`,
  ].join('\n');
}

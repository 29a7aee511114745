/**
 * Part 4: concurrent sessions. Each session is a client on a loopback address of its own (a user at
 * another address: the per-address sign-in throttling sees separate users), half of them the platform
 * admin, half agent1 (grade 1). Each signs in first (all at once: the burst is reported apart), then runs
 * closed-loop (no think time) a mix: 70% device list pages (a random page 1-5, sort and filter of the
 * ones the page offers), 25% who-am-I (agent1: the no-op get_institution_info; admin: get_member),
 * 5% a new sign-in. The server's event-loop delay comes from its Prometheus endpoint (read just before
 * the load, which resets the histogram, and right after it); its memory from /proc.
 */
import { type Answer, type Client, clients, type LoadResult, type Recorder, runLoad } from './lib/load';
import { pct } from './lib/stats';
import { type Running, scrape } from './lib/server';
import type { Caller } from './list';

const SIGN_IN: Record<Caller, string> = {
  admin: '/adminapi/login/login',
  agent1: '/adminapi/login/institution_login',
  agent2: '/adminapi/login/institution_login',
  clinic3: '/adminapi/login/institution_login',
};
const WHO_AM_I: Record<Caller, string> = {
  admin: '/adminapi/member/get_member',
  agent1: '/adminapi/institution/get_institution_info',
  agent2: '/adminapi/institution/get_institution_info',
  clinic3: '/adminapi/institution/get_institution_info',
};
export const PASSWORD = 'demo1234';

/** The session key of a sign-in's answer (throws on anything else). */
function keyOf(a: Answer, caller: Caller): string {
  const key = (a.body as { datas?: { key?: string } } | null)?.datas?.key;
  if (a.code !== 200 || !key) throw new Error(`sign-in of ${caller}: ${a.status} ${JSON.stringify(a.body).slice(0, 200)}`);
  return key;
}

/** Signs in and answers the session key. */
export async function signIn(client: Client, caller: Caller): Promise<string> {
  return keyOf(await client.post(SIGN_IN[caller], { username: caller, password: PASSWORD }), caller);
}

const SORTS = ['serial', 'name', 'status', 'total_inspections', 'activated_at', 'expires_at', 'last_seen_at'];
const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;

/** A device list request as the page makes it: mostly page 1-5 of some order, sometimes a filter. */
function listPath(): string {
  const q: Record<string, string> = { page: String(1 + Math.floor(Math.random() * 5)), limit: '20' };
  const r = Math.random();
  if (r < 0.5) Object.assign(q, { sort: pick(SORTS), order: pick(['ascend', 'descend']) });
  else if (r < 0.6) q.status = pick(['active', 'inactive', 'disabled']);
  else if (r < 0.7) q.expiring = '1';
  else if (r < 0.75) q.keyword = String(Math.floor(Math.random() * 1000)).padStart(3, '0');
  return `/adminapi/equipment/list?${new URLSearchParams(q)}`;
}

interface Session {
  client: Client;
  caller: Caller;
  key: string;
}

export interface SessionsResult {
  sessions: number;
  burst: number[];
  /** 503s answered to the sign-ins at the start (each tried again after its Retry-After). */
  burstBusy: number;
  load: LoadResult;
  loopP99: number;
  loopMax: number;
  rssAfter: number;
}

export async function sessionsLoad(server: Running, n: number, durationMs: number): Promise<SessionsResult> {
  const sessions: Session[] = clients(server.url, n, { distinct: true }).map((client, i) => ({ client, caller: i % 2 ? 'agent1' : 'admin', key: '' }));
  try {
    // Every session signs in first, all at once; a 503 is tried again after its Retry-After, as a client
    // would (the time of a sign-in is then until it succeeded).
    const burst: number[] = [];
    let burstBusy = 0;
    await Promise.all(
      sessions.map(async (s) => {
        const started = performance.now();
        for (;;) {
          const a = await s.client.post(SIGN_IN[s.caller], { username: s.caller, password: PASSWORD });
          if (a.status === 503 && burstBusy++ < 10 * n) {
            await new Promise((r) => setTimeout(r, 1000 * Number(a.retryAfter ?? 1)));
            continue;
          }
          s.key = keyOf(a, s.caller);
          break;
        }
        burst.push(performance.now() - started);
      }),
    );
    const loop = ['nodejs_eventloop_lag_p99_seconds', 'nodejs_eventloop_lag_max_seconds'] as const;
    await scrape(server.metricsUrl!, loop); // resets the histogram
    const step = async (s: Session, rec: Recorder) => {
      const r = Math.random();
      const auth = { authorization: `Bearer ${s.key}` };
      if (r < 0.05) {
        const a = await s.client.post(SIGN_IN[s.caller], { username: s.caller, password: PASSWORD });
        if (rec.record('sign-in', a)) s.key = (a.body as { datas: { key: string } }).datas.key;
      } else if (r < 0.3) rec.record(s.caller === 'agent1' ? 'no-op' : 'get_member', await s.client.get(WHO_AM_I[s.caller], auth));
      else rec.record('device list', await s.client.get(listPath(), auth));
    };
    const load = await runLoad(sessions, durationMs, step);
    const lag = await scrape(server.metricsUrl!, loop);
    return { sessions: n, burst, burstBusy, load, loopP99: lag.nodejs_eventloop_lag_p99_seconds * 1000, loopMax: lag.nodejs_eventloop_lag_max_seconds * 1000, rssAfter: server.rss() };
  } finally {
    for (const s of sessions) s.client.close();
  }
}

export const p95Of = (r: SessionsResult, label: string) => pct(r.load.rec.of(label), 95);

/**
 * The stats pages at scale (issue 13 item 1): each page's one call, for the platform admin and, for
 * finance, a grade-2 institution (agent2, its own figures) and the admin looking at agent1; over the
 * default range (30 days) and 12 months. p50/p95 over HTTP with one client (the whole request: session
 * check, every aggregate of the page, JSON). Target: p95 <= 300 ms on the embedded default.
 */
import { type Client, isOk } from './lib/load';
import { pct } from './lib/stats';

export const STATS_TARGET_MS = 300;

export interface StatsCase {
  name: string;
  caller: 'admin' | 'agent2';
  path: string;
}
export interface StatsResult extends StatsCase {
  ms: number[];
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function statsCases(agent1Id: number): StatsCase[] {
  const now = Date.now();
  const d = new Date(now);
  const ranges = [
    ['30 days', { from: day(now - 29 * 86_400_000), to: day(now) }],
    ['12 months', { from: day(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11, 1)), to: day(now) }],
  ] as const;
  return ranges.flatMap(([label, r]) => {
    const q = (extra: Record<string, string> = {}) => new URLSearchParams({ ...r, ...extra }).toString();
    return [
      { name: `equipment, ${label}`, caller: 'admin', path: `/adminapi/stats/equipment?${q()}` },
      { name: `distribution, ${label}`, caller: 'admin', path: `/adminapi/stats/distribution?${q()}` },
      { name: `institution, ${label}`, caller: 'admin', path: `/adminapi/stats/institution?${q()}` },
      { name: `finance (platform), ${label}`, caller: 'admin', path: `/adminapi/stats/finance?${q()}` },
      { name: `finance (agent1 picked by the admin), ${label}`, caller: 'admin', path: `/adminapi/stats/finance?${q({ institution_id: String(agent1Id) })}` },
      { name: `finance (agent2, its own), ${label}`, caller: 'agent2', path: `/adminapi/stats/finance?${q()}` },
    ] satisfies StatsCase[];
  });
}

/** Each case `iterations` times, one request at a time (after two warm-up calls). */
export async function measureStats(client: Client, keys: Record<StatsCase['caller'], string>, cases: StatsCase[], iterations: number): Promise<StatsResult[]> {
  const out: StatsResult[] = [];
  for (const c of cases) {
    const headers = { authorization: `Bearer ${keys[c.caller]}` };
    for (let i = 0; i < 2; i++) await client.get(c.path, headers);
    const ms: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const a = await client.get(c.path, headers);
      if (!isOk(a)) throw new Error(`${c.name}: ${a.status} ${JSON.stringify(a.body).slice(0, 200)}`);
      ms.push(a.ms);
    }
    out.push({ ...c, ms });
  }
  return out;
}

export const statsWorst = (rs: StatsResult[]) => rs.reduce((a, b) => (pct(b.ms, 95) > pct(a.ms, 95) ? b : a));

/**
 * Part 3: requests per second at 10 concurrent connections, by two load generators, both in this process
 * (the server is a child process of its own):
 * - autocannon: its own HTTP client, faster than node:http, so the bare hello-world is not capped by the
 *   generator (on this 2-core box it takes a core of its own and the server the other);
 * - node:http: 10 closed-loop clients on a keep-alive agent, each reading the whole answer: the kind of
 *   client the speed issue's figures came from (its hello-world, 16,899 req/s, is what node:http gives on
 *   this box; autocannon gives about 3x that).
 * The ratios to the hello-world differ with the generator: both are printed, side by side.
 */
import http from 'node:http';
import os from 'node:os';
import autocannon from 'autocannon';
import { type CpuPerRequest, cpuPerRequest, cpuSnapshot } from './lib/cpu';
import { type Client, isOk } from './lib/load';
import { pct } from './lib/stats';

export interface Throughput {
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers and connection errors or timeouts. */
  failures: number;
  /** CPU per request by process over the measured run (lib/cpu.ts), when the server's pid was given. */
  cpu?: CpuPerRequest;
  /** Measured in rounds next to the hello-world (`paired`): the median round's ratio and each round's. */
  paired?: { ratio: number; helloRps: number; rounds: { rps: number; helloRps: number }[] };
}

/**
 * A call measured in `rounds` rounds, each right after the hello-world by the same generator: the ratio
 * of each round is of two figures taken a few seconds apart, and the answer is the round of the median
 * ratio. On a shared 2-core box the speed of everything drifts by tens of percent over minutes; one
 * hello-world taken at the start and a case taken minutes later would measure the drift as well.
 */
export async function paired(measureHello: (warm: boolean) => Promise<Throughput>, measure: (warm: boolean) => Promise<Throughput>, rounds: number): Promise<Throughput> {
  const runs: { hello: Throughput; run: Throughput }[] = [];
  for (let i = 0; i < rounds; i++) runs.push({ hello: await measureHello(i === 0), run: await measure(i === 0) });
  const ratioOf = (r: { hello: Throughput; run: Throughput }) => r.run.rps / r.hello.rps;
  const median = [...runs].sort((a, b) => ratioOf(a) - ratioOf(b))[Math.floor((runs.length - 1) / 2)]!;
  return {
    ...median.run,
    paired: { ratio: ratioOf(median), helloRps: median.hello.rps, rounds: runs.map((r) => ({ rps: r.run.rps, helloRps: r.hello.rps })) },
  };
}

/** Measures `run` (its result and how many requests it made) with the CPU each process spent meanwhile. */
async function withCpu(serverPid: number | undefined, run: () => Promise<{ result: Throughput; requests: number }>): Promise<Throughput> {
  const before = serverPid ? cpuSnapshot(serverPid) : undefined;
  const { result, requests } = await run();
  return before && serverPid ? { ...result, cpu: cpuPerRequest(before, cpuSnapshot(serverPid), requests, os.cpus().length) } : result;
}

/** Checks the request once with the bench's client (an envelope code, not only the HTTP status), then loads it. */
export async function throughput(client: Client, url: string, path: string, headers: Record<string, string>, seconds: number, serverPid?: number, warm = true): Promise<Throughput> {
  const check = await client.get(path, headers);
  if (!isOk(check)) throw new Error(`${path}: ${check.status} ${JSON.stringify(check.body).slice(0, 200)}`);
  const opts = { url: `${url}${path}`, connections: 10, headers: { 'accept-encoding': 'br, gzip', ...headers } };
  if (warm) await autocannon({ ...opts, duration: Math.min(2, seconds) }); // warm-up
  return withCpu(serverPid, async () => {
    const r = await autocannon({ ...opts, duration: seconds });
    return { result: { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, failures: r.non2xx + r.errors }, requests: r.requests.total };
  });
}

/** The same call by 10 node:http keep-alive clients in a closed loop (no think time), after a warm-up. */
export async function throughputNodeHttp(url: string, path: string, headers: Record<string, string>, seconds: number, serverPid?: number, warm = true): Promise<Throughput> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
  const target = new URL(path, url);
  const once = () =>
    new Promise<number>((resolve) => {
      const req = http.get(target, { agent, headers: { 'accept-encoding': 'br, gzip', ...headers } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      });
      req.on('error', () => resolve(0));
    });
  const run = async (ms: number) => {
    const latencies: number[] = [];
    let failures = 0;
    const end = performance.now() + ms;
    const client = async () => {
      while (performance.now() < end) {
        const started = performance.now();
        const status = await once();
        latencies.push(performance.now() - started);
        if (status < 200 || status >= 300) failures++;
      }
    };
    const began = performance.now();
    await Promise.all(Array.from({ length: 10 }, client));
    return { latencies, failures, seconds: (performance.now() - began) / 1000 };
  };
  try {
    if (warm) await run(Math.min(2, seconds) * 1000);
    return await withCpu(serverPid, async () => {
      const r = await run(seconds * 1000);
      const result = { rps: r.latencies.length / r.seconds, p50: Math.round(pct(r.latencies, 50)), p99: Math.round(pct(r.latencies, 99)), failures: r.failures };
      return { result, requests: r.latencies.length };
    });
  } finally {
    agent.destroy();
  }
}

/**
 * Part 3: requests per second at 10 concurrent connections, by autocannon (its own HTTP client, faster
 * than node:http, so the bare hello-world is not capped by the load generator). The load generator is
 * this process; the server is a child process of its own.
 */
import autocannon from 'autocannon';
import { type Client, isOk } from './lib/load';

export interface Throughput {
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers and connection errors or timeouts. */
  failures: number;
}

/** Checks the request once with the bench's client (an envelope code, not only the HTTP status), then loads it. */
export async function throughput(client: Client, url: string, path: string, headers: Record<string, string>, seconds: number): Promise<Throughput> {
  const check = await client.get(path, headers);
  if (!isOk(check)) throw new Error(`${path}: ${check.status} ${JSON.stringify(check.body).slice(0, 200)}`);
  const opts = { url: `${url}${path}`, connections: 10, headers: { 'accept-encoding': 'br, gzip', ...headers } };
  await autocannon({ ...opts, duration: Math.min(2, seconds) }); // warm-up
  const r = await autocannon({ ...opts, duration: seconds });
  return { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, failures: r.non2xx + r.errors };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import pg from 'pg';
import { collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client';

/*
 * Prometheus metrics (prom-client), in a registry of the app's own:
 * - http_request_duration_seconds{endpoint, code}: every answer, by endpoint name (`packages.list`;
 *   `static` for the web app's files and pages, `health` for /healthz and /readyz, `not_found`) and
 *   outcome: the envelope's code (200, 400, 998, 999, ...) for API answers, else the HTTP status;
 * - db_pool_*: the PostgreSQL pool's connections (total, idle) and the queries waiting for one (the
 *   embedded cluster and DATABASE_URL's server alike);
 * - prom-client's process metrics, event-loop delay among them (nodejs_eventloop_lag_*), once served.
 * An answer slower than SLOW_REQUEST_MS is also logged at warn (`slow request`, with its endpoint, code
 * and milliseconds): what an operator reads without a metrics server.
 * They are served by `startMetricsServer` on a port of their own (METRICS_PORT), never by the API's.
 */

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry;
  }
  interface FastifyContextConfig {
    /** The endpoint label of a route outside the endpoint table. */
    metricsName?: string;
  }
}

const OUTCOME = Symbol('outcome');

type WithOutcome = { [OUTCOME]?: number };

export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

interface Series {
  endpoint: string;
  code: string;
  /** Observations per bucket (not cumulative); the last slot holds those above every bound. */
  counts: number[];
  sum: number;
  count: number;
}

/**
 * A histogram by endpoint and code, exposed in prom-client's registry as its own Histogram would be (the
 * same lines, in the same order: metrics.test.ts compares the two). Each answer only adds to its series'
 * slot: prom-client's `observe` validates and hashes its label object at every call, about 2 us of a
 * signed-in call (docs/benchmarks.md).
 */
export class DurationHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
  ) {}

  observe(endpoint: string, code: number | string, seconds: number): void {
    if (!Number.isFinite(seconds)) return;
    const id = `${endpoint}\u0000${code}`;
    let series = this.series.get(id);
    if (!series) {
      series = { endpoint, code: String(code), counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
      this.series.set(id, series);
    }
    let i = 0;
    while (i < this.buckets.length && seconds > this.buckets[i]!) i++;
    series.counts[i]!++;
    series.sum += seconds;
    series.count++;
  }

  reset(): void {
    this.series = new Map();
  }

  /** What prom-client's registry formats: cumulative buckets, +Inf, sum and count of each series. */
  async get() {
    const values: { labels: Record<string, string | number>; sharedLabels: Record<string, string>; value: number; metricName: string }[] = [];
    for (const s of this.series.values()) {
      const shared = { endpoint: s.endpoint, code: s.code };
      let acc = 0;
      this.buckets.forEach((le, i) => {
        acc += s.counts[i]!;
        values.push({ labels: { le }, sharedLabels: shared, value: acc, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: shared, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: {}, sharedLabels: shared, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: shared, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

/** Metrics servers started for an app: closed with it. */
const servers = new WeakMap<FastifyInstance, http.Server[]>();

/** The label of an answer outside the endpoint table (or refused before its access check): its route's config. */
const endpointLabel = (config: FastifyContextConfig | undefined, is404: boolean) => config?.endpoint?.name ?? config?.metricsName ?? (is404 ? 'not_found' : 'static');

export default fp(async function metricsPlugin(app: FastifyInstance) {
  const registry = new Registry();
  app.decorate('metrics', registry);
  app.addHook('onClose', async () => {
    for (const server of servers.get(app) ?? []) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  const duration = new DurationHistogram(
    'http_request_duration_seconds',
    'Time to answer a request, by endpoint and outcome code (the envelope code of API answers, else the HTTP status)',
    DURATION_BUCKETS,
  );
  registry.registerMetric(duration as unknown as Metric);

  const slowMs = app.config.slowRequestMs;

  // The envelope's code, before the answer is turned into text.
  app.addHook('preSerialization', (_request, reply, payload, done) => {
    const code = (payload as { code?: unknown } | null)?.code;
    if (typeof code === 'number') (reply as WithOutcome)[OUTCOME] = code;
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    // An API call's endpoint as its access check set it; Fastify's route options (an object built at each
    // read) only for the rest, and for a call refused before its access check ran.
    const endpoint = request.endpoint?.name ?? endpointLabel(request.routeOptions.config, request.is404);
    const code = (reply as WithOutcome)[OUTCOME] ?? reply.statusCode;
    duration.observe(endpoint, code, reply.elapsedTime / 1000);
    if (slowMs > 0 && reply.elapsedTime >= slowMs) request.log.warn({ endpoint, code, ms: Math.round(reply.elapsedTime) }, 'slow request');
    done();
  });

  const client = (app.db as unknown as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) {
    const pool = client;
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    gauge('db_pool_connections_total', 'PostgreSQL connections open in the pool', () => pool.totalCount);
    gauge('db_pool_connections_idle', 'PostgreSQL connections open and idle', () => pool.idleCount);
    gauge('db_pool_waiting_queries', 'Queries waiting for a free connection', () => pool.waitingCount);
  }
});

/**
 * Serves the app's metrics at GET /metrics on a port of its own (plain node:http, nothing else on it),
 * with the process metrics added. Closed with the app.
 */
export async function startMetricsServer(app: FastifyInstance, opts: { port: number; host: string }): Promise<AddressInfo> {
  const registry = app.metrics;
  collectDefaultMetrics({ register: registry });
  const server = http.createServer((req, res) => {
    const pathname = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || pathname !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
      (err: unknown) => {
        app.log.error({ err }, 'metrics');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  servers.set(app, [...(servers.get(app) ?? []), server]);
  return server.address() as AddressInfo;
}

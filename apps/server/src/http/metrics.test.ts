import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { Histogram, type Metric, Registry } from 'prom-client';
import { DURATION_BUCKETS, DurationHistogram, startMetricsServer } from './metrics';

let t: TestApp;
let metricsUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  const address = await startMetricsServer(t.app, { port: 0, host: '127.0.0.1' });
  metricsUrl = `http://127.0.0.1:${address.port}/metrics`;
});
afterAll(async () => {
  await t?.close();
});

const scrape = async () => {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
};

/** The sample count of the duration histogram for one endpoint and code. */
const countOf = (text: string, endpoint: string, code: string) => {
  const line = text.split('\n').find((l) => l.startsWith('http_request_duration_seconds_count{') && l.includes(`endpoint="${endpoint}"`) && l.includes(`code="${code}"`));
  return line ? Number(line.split(' ').at(-1)) : 0;
};

describe('Prometheus metrics', () => {
  it('times every answer by endpoint name and envelope code', async () => {
    const before = await scrape();
    const { key } = await t.login('admin');
    await t.call('GET', '/package/list', { key });
    await t.call('GET', '/package/list', { key: 'not-a-key' });
    await t.call('POST', '/login/login', { body: { username: 'admin' } });
    await t.app.inject({ method: 'GET', url: '/adminapi/no/such/call' });
    await t.app.inject({ method: 'GET', url: '/healthz' });
    // Refused before its access check ran (a body that is not JSON): still labelled by its endpoint.
    const broken = await t.app.inject({ method: 'POST', url: '/adminapi/package/add', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(broken.json().code).toBe(400);
    const after = await scrape();
    expect(after).toMatch(/^# TYPE http_request_duration_seconds histogram$/m);
    expect(countOf(after, 'packages.list', '200') - countOf(before, 'packages.list', '200')).toBe(1);
    expect(countOf(after, 'packages.list', '999') - countOf(before, 'packages.list', '999')).toBe(1);
    expect(countOf(after, 'auth.login', '400') - countOf(before, 'auth.login', '400')).toBe(1);
    expect(countOf(after, 'not_found', '404') - countOf(before, 'not_found', '404')).toBe(1);
    expect(countOf(after, 'health', '200') - countOf(before, 'health', '200')).toBe(1);
    expect(countOf(after, 'packages.add', '400') - countOf(before, 'packages.add', '400')).toBe(1);
    // no session key or other input in any label
    expect(after).not.toContain(key);
  });

  it('reports event-loop delay and the PostgreSQL pool', async () => {
    const text = await scrape();
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds /m);
    expect(text).toMatch(/^db_pool_connections_total \d+/m);
    expect(text).toMatch(/^db_pool_connections_idle \d+/m);
    expect(text).toMatch(/^db_pool_waiting_queries \d+/m);
  });

  it('answers nothing else on its port, and nothing of it on the API port', async () => {
    expect((await fetch(metricsUrl.replace('/metrics', '/adminapi/login/info'))).status).toBe(404);
    const onApi = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(onApi.statusCode).toBe(404);
    expect(onApi.body).not.toContain('http_request_duration_seconds');
    const underApi = await t.app.inject({ method: 'GET', url: '/adminapi/metrics' });
    expect(underApi.body).not.toContain('http_request_duration_seconds');
  });
});

describe('the duration histogram', () => {
  it("exposes exactly the lines prom-client's own Histogram does for the same observations", async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const help = 'Time to answer a request';
    const reference = new Histogram({ name: 'http_request_duration_seconds', help, labelNames: ['endpoint', 'code'] as const, buckets: [...DURATION_BUCKETS], registers: [theirs] });
    const histogram = new DurationHistogram('http_request_duration_seconds', help, DURATION_BUCKETS);
    ours.registerMetric(histogram as unknown as Metric);
    // On bounds, between them, above the last one, for a few series.
    const seen: [string, number, number][] = [
      ['packages.list', 200, 0.004],
      ['packages.list', 200, 0.005],
      ['packages.list', 200, 0.0051],
      ['packages.list', 999, 0.3],
      ['static', 304, 12],
      ['auth.login', 400, 1],
      ['packages.list', 200, 2.5],
    ];
    for (const [endpoint, code, seconds] of seen) {
      reference.observe({ endpoint, code: String(code) }, seconds);
      histogram.observe(endpoint, code, seconds);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.005",endpoint="packages.list",code="200"} 2');
    expect(text).toContain('http_request_duration_seconds_bucket{le="10",endpoint="static",code="304"} 0');
    expect(text).toContain('http_request_duration_seconds_count{endpoint="packages.list",code="200"} 4');
    histogram.reset();
    expect(await ours.metrics()).not.toContain('packages.list');
  });
});

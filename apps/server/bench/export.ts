/**
 * `npm run bench:export -w @app/server` (after `node build.mjs`): the device list's export at scale on the
 * embedded database. Grows the devices to BENCH_EXPORT_DEVICES (default 100,000; generate_series), starts
 * the built server, downloads the whole list as CSV and as XLSX over HTTP while sampling the server's RSS
 * every 50 ms, and prints rows/s, bytes and the RSS before, at its peak and its growth (docs/benchmarks.md
 * "Exports"). A flat RSS means the rows are streamed, not held. Then one download cut after its first
 * chunk: the server must stay up and answer the next request.
 */
import http from 'node:http';
import { embeddedDatabase, growDevices, prepare } from './lib/databases';
import { httpClient } from './lib/load';
import { startServer, type Running } from './lib/server';
import { signIn } from './sessions';
import { int, mb, table } from './lib/stats';

const DEVICES = Number(process.env.BENCH_EXPORT_DEVICES ?? 100_000);
const progress = (line: string) => process.stderr.write(`[bench:export ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

interface Download {
  bytes: number;
  lines: number;
  ms: number;
  rssBefore: number;
  rssPeak: number;
}

function download(server: Running, key: string, format: 'csv' | 'xlsx', cutAfterFirstChunk = false): Promise<Download> {
  const url = new URL(`${server.url}/adminapi/equipment/export`);
  url.searchParams.set('format', format);
  url.searchParams.set('key', key);
  const rssBefore = server.rss();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, server.rss());
  }, 50);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      if (res.statusCode !== 200) reject(new Error(`export answered ${res.statusCode}`));
      let bytes = 0;
      let lines = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (const b of chunk) if (b === 10) lines++;
        if (cutAfterFirstChunk) req.destroy();
      });
      const done = () => {
        clearInterval(sampler);
        resolve({ bytes, lines, ms: performance.now() - started, rssBefore, rssPeak });
      };
      res.on('end', done);
      res.on('close', done);
    });
    req.on('error', (error) => {
      if (!cutAfterFirstChunk) reject(error);
    });
  });
}

async function main() {
  const db = embeddedDatabase();
  try {
    progress('migrations and demo data');
    const database = await db.open();
    await prepare(database);
    progress(`growing the device table to ${int(DEVICES)}`);
    await growDevices(database, DEVICES);
    await database.close();
    const server = await startServer({ env: db.serverEnv });
    try {
      const client = httpClient(server.url);
      const key = await signIn(client, 'admin');
      client.close();
      await new Promise((r) => setTimeout(r, 1000));
      const rows: string[][] = [];
      for (const format of ['csv', 'xlsx', 'csv'] as const) {
        progress(`${format} export of ${int(DEVICES)} devices`);
        const d = await download(server, key, format);
        const perSecond = (DEVICES / d.ms) * 1000;
        rows.push([format, int(DEVICES), mb(d.bytes), `${(d.ms / 1000).toFixed(1)} s`, int(perSecond), mb(d.rssBefore), mb(d.rssPeak), mb(d.rssPeak - d.rssBefore)]);
        if (format === 'csv' && d.lines !== DEVICES + 1) throw new Error(`csv had ${d.lines} lines, expected ${DEVICES + 1}`);
      }
      progress('a download cut after its first chunk');
      await download(server, key, 'csv', true);
      await new Promise((r) => setTimeout(r, 2000));
      const after = server.rss();
      const check = httpClient(server.url);
      const alive = (await check.get('/adminapi/equipment/list?limit=1', { authorization: `Bearer ${key}` })).status;
      check.close();
      process.stdout.write(`\n## Exports, device list at ${int(DEVICES)} rows (${new Date().toISOString().slice(0, 10)})\n`);
      process.stdout.write(`${table(['format', 'rows', 'file', 'time', 'rows/s', 'server RSS before', 'peak', 'growth'], rows)}\n`);
      process.stdout.write(`\nA download cut after its first chunk: the server answered the next request with HTTP ${alive}; RSS 2 s later ${mb(after)}.\n`);
    } finally {
      await server.stop();
    }
  } finally {
    await db.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { solidPng } from './modules/schematics';
import { DEMO_PASSWORD } from './seed';
import { freePort, until } from './test/child';

/*
 * main.ts, the process: the real server as a child process (embedded database in a temporary folder, or a
 * database of its own on the PostgreSQL server of DATABASE_URL), an upload in flight when the signal
 * comes, and what happens next; the metrics port.
 */

const root = path.resolve(import.meta.dirname, '../../..');

interface Server {
  port: number;
  child: ChildProcess;
  exit: Promise<number | null>;
  stderr: () => string;
  dataDir: string;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Starts main.ts; `uploads`: files to put in DATA_DIR/uploads first (as a server before issue 34 left them). */
async function startServer(env: Record<string, string> = {}, uploads: Record<string, Buffer> = {}): Promise<Server> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutdown-test-'));
  if (Object.keys(uploads).length) fs.mkdirSync(path.join(dataDir, 'uploads'));
  for (const [name, content] of Object.entries(uploads)) fs.writeFileSync(path.join(dataDir, 'uploads', name), content);
  let databaseUrl = '';
  const base = process.env.DATABASE_URL;
  if (base) {
    const name = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const target = new URL(base);
    target.pathname = `/${name}`;
    databaseUrl = target.toString();
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    });
  }
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SEED_DEMO: '1',
      LOG_LEVEL: 'silent',
      WEB_DIST: path.join(dataDir, 'no-web'),
      METRICS_PORT: '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.unshift(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exit;
    }
  });
  await until('the server to answer /healthz', async () => {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr}`);
    try {
      return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
    } catch {
      return false;
    }
  });
  return { port, child, exit, stderr: () => stderr, dataDir };
}

/** Whether a new TCP connection to the port is refused. */
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });

async function signIn(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/adminapi/login/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }),
  });
  const json = (await res.json()) as { code: number; datas: { key: string } };
  expect(json.code).toBe(200);
  return json.datas.key;
}

/**
 * An image upload over a raw socket, sent in two halves: the headers (with `Expect: 100-continue`, so
 * the server says when it has the request in hand) and the first half of the body, then, when `rest()`
 * is called, the second half. `response` is everything the server sends after its 100 Continue.
 */
async function slowUpload(port: number, key: string) {
  const boundary = 'drain-test-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="drain.png"\r\ncontent-type: image/png\r\n\r\n`),
    solidPng(64, 64),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (d) => {
    received += String(d);
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    `POST /adminapi/base/upload_img?key=${key} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\ncontent-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: ${body.length}\r\nexpect: 100-continue\r\n\r\n`,
  );
  await until('100 Continue', async () => received.includes('100 Continue'), 20_000);
  received = received.slice(received.indexOf('100 Continue') + '100 Continue\r\n\r\n'.length);
  const half = Math.floor(body.length / 2);
  socket.write(body.subarray(0, half));
  return {
    rest: () => socket.write(body.subarray(half)),
    /** Status and JSON body of the answer, once the server has closed the connection. */
    response: async () => {
      await closed;
      const [head = '', payload = ''] = received.split('\r\n\r\n');
      return { status: Number(head.split(' ')[1]), head, payload };
    },
    closed,
  };
}

describe('SIGTERM', { timeout: 120_000 }, () => {
  it('stops accepting, finishes the request in flight, closes the database and exits 0', async () => {
    const server = await startServer();
    const key = await signIn(server.port);
    const upload = await slowUpload(server.port, key);

    server.child.kill('SIGTERM');
    // new connections are refused while the upload is still in flight
    await until('new connections to be refused', () => refused(server.port), 20_000);
    expect(server.child.exitCode).toBeNull();

    upload.rest();
    const res = await upload.response();
    expect(res.status, res.head).toBe(200);
    expect(res.head).toMatch(/^connection: close$/im);
    const json = JSON.parse(res.payload.slice(res.payload.indexOf('{'))) as { code: number; datas: { name: string } };
    expect(json.code, res.payload).toBe(200);
    expect(json.datas.name).toMatch(/^[0-9a-f]{32}\.png$/);

    expect(await server.exit, server.stderr()).toBe(0);
    expect(await refused(server.port)).toBe(true);
  });

  it('gives up on a request that does not finish within SHUTDOWN_TIMEOUT_MS: its connection is cut and the process exits', async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_MS: '500' });
    const key = await signIn(server.port);
    const stalled = await slowUpload(server.port, key);

    server.child.kill('SIGTERM');
    // the rest of the body never comes
    await stalled.closed;
    expect(await server.exit, server.stderr()).toBe(1);
  });
});

describe('METRICS_PORT', { timeout: 120_000 }, () => {
  it('serves Prometheus metrics on its own port; the API port has none', async () => {
    const metricsPort = await freePort();
    const server = await startServer({ METRICS_PORT: String(metricsPort) });
    await signIn(server.port);
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(text).toMatch(/^http_request_duration_seconds_count\{endpoint="auth.login",code="200"\} 1$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    const onApi = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(onApi.status).toBe(404);
    expect(await onApi.text()).not.toContain('http_request_duration_seconds');
  });
});

describe('DATA_DIR/uploads of an earlier version', { timeout: 120_000 }, () => {
  it('is moved into the database before the server listens: its files answer at their URLs, other files stay', async () => {
    const png = solidPng(12, 8);
    const name = `${randomBytes(16).toString('hex')}.png`;
    const server = await startServer({}, { [name]: png, 'notes.txt': Buffer.from('not an upload') });
    const res = await fetch(`http://127.0.0.1:${server.port}/adminapi/uploads/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    expect(fs.readdirSync(path.join(server.dataDir, 'uploads'))).toEqual(['notes.txt']);
  });
});

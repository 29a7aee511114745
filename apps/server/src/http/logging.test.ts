import net from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import type { Database } from '../db/client';
import { openTestDatabase } from '../test/harness';
import { adminUsers } from '../db/schema';
import { hashKey } from '../lib/crypto';
import { RequestLogger, redactUrl, scrubText, serializeError } from '../lib/log';

/*
 * No secret in any log line (issue 9 §4): session keys in any spelling of the parameter, passwords,
 * key hashes, device secrets; database errors without their parameter values. The app logs at trace
 * level into a buffer that the tests read.
 */

let database: Database;
let app: FastifyInstance;
let logs = '';
/** What the database-error route puts in its failing query's parameters. */
const DEVICE_SECRET = 'device-secret-6f1d2c';

beforeAll(async () => {
  database = await openTestDatabase();
  const stream = new PassThrough();
  stream.on('data', (chunk) => {
    logs += chunk.toString();
  });
  app = await buildApp({ ...loadConfig({}), logLevel: 'trace', webDist: undefined }, database.db, { logStream: stream });
  // A handler whose query fails unexpectedly (not a data exception): logged by the envelope as an unhandled error.
  app.get('/test/db-failure', async (req) => {
    const key = String(req.headers['x-test-key']);
    await database.db.execute(sql`select no_such_function(${hashKey(key)}, ${DEVICE_SECRET})`);
    return {};
  });
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

/** Log lines written so far, once the stream has delivered them. */
async function flushed(): Promise<string> {
  await new Promise((r) => setImmediate(r));
  return logs;
}

async function signIn(): Promise<string> {
  const login = await app.inject({ method: 'POST', url: '/adminapi/login/login', payload: { username: 'admin', password: 'demo1234' } });
  return login.json().datas.key as string;
}

describe('log lines', () => {
  it('never carry session keys or passwords', async () => {
    const key = await signIn();
    await app.inject({ method: 'GET', url: `/adminapi/equipment/list?key=${key}&limit=5` });
    await app.inject({ method: 'GET', url: '/adminapi/member/get_member', headers: { authorization: `Bearer ${key}` } });
    await app.inject({ method: 'POST', url: '/adminapi/member/modify_field', payload: { key, id: 1, field: 'password', value: 'short' } });
    const text = await flushed();
    expect(text).toContain('/adminapi/equipment/list');
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(key);
    expect(text).not.toContain('demo1234');
  });

  it('never carry a key, whatever the spelling of its parameter', async () => {
    const key = await signIn();
    // The server's query parser decodes names: `k%65y` IS the key parameter (the call is let in).
    const encoded = await app.inject({ method: 'GET', url: `/adminapi/equipment/list?limit=5&k%65y=${key}` });
    expect(encoded.json().code).toBe(200);
    for (const spelling of ['KEY', 'Key', '%6B%65%79', 'key[]', 'k%2565y', 'ke%79%5B0%5D', 'password', 'new_password', 'token', 'key_hash']) {
      await app.inject({ method: 'GET', url: `/adminapi/equipment/list?${spelling}=${key}&limit=5` });
    }
    // A JSON body carrying the key, and a query string with an undecodable name.
    await app.inject({ method: 'POST', url: '/adminapi/login/logout', payload: { key: `${key}x` } });
    await app.inject({ method: 'GET', url: `/adminapi/equipment/list?k%zzey=${key}` });
    const text = await flushed();
    expect(text).toContain('k%65y=[redacted]');
    expect(text).not.toContain(key);
  });

  it('log database errors with their SQL but without their parameter values', async () => {
    const key = await signIn();
    const res = await app.inject({ method: 'GET', url: '/test/db-failure', headers: { 'x-test-key': key } });
    expect(res.statusCode).toBe(500);
    const text = await flushed();
    const line = text.split('\n').find((l) => l.includes('unhandled error') && l.includes('no_such_function'));
    expect(line).toBeDefined();
    const err = JSON.parse(line!).err;
    expect(err.message).toMatch(/^Failed query: select no_such_function\(\$1, \$2\)/);
    expect(err.cause).toMatchObject({ code: '42883', message: expect.stringMatching(/no_such_function/) });
    expect(err.stack).toMatch(/^DrizzleQueryError: Failed query/);
    expect(text).not.toContain(DEVICE_SECRET);
    expect(text).not.toContain(hashKey(key));
    expect(text).not.toContain(key);
  });

  it('log a unique violation without the row it names (detail) or the values sent (params)', async () => {
    const passwordHash = '$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0LXNhbHQ$c2VjcmV0LWhhc2gtdmFsdWU';
    const err = await database.db
      .insert(adminUsers)
      .values({ username: 'ADMIN', passwordHash, roleId: 1 })
      .then(() => null)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    app.log.error({ err }, 'database failure');
    const text = await flushed();
    const line = text.split('\n').find((l) => l.includes('database failure'));
    const logged = JSON.parse(line!).err;
    expect(logged.cause).toMatchObject({ code: '23505', constraint: 'admin_users_username_uq' });
    expect(logged.cause.detail).toBeUndefined();
    expect(text).not.toContain(passwordHash);
    expect(text).not.toContain('c2VjcmV0');
  });

  it('never write the raw request of a malformed HTTP request (client errors are traced with their bytes)', async () => {
    const key = await signIn();
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(`GET /adminapi/equipment/list?key=${key} HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n`));
      socket.on('data', () => socket.end());
      socket.on('close', () => resolve());
    });
    const text = await flushed();
    expect(text).toMatch(/client (error|client_error)/);
    expect(text).not.toContain('rawPacket');
    expect(text).not.toContain(key);
  });
});

describe('the redaction itself', () => {
  it('replaces secret-named query values, whatever the case, encoding or brackets; keeps the rest', () => {
    expect(redactUrl('/a?key=abc&limit=5')).toBe('/a?key=[redacted]&limit=5');
    expect(redactUrl('/a?KEY=abc&k%65y=def&key%5B%5D=g&keyword=lung')).toBe('/a?KEY=[redacted]&k%65y=[redacted]&key%5B%5D=[redacted]&keyword=lung');
    expect(redactUrl('/a?password=x&device_secret=y&secret_hash=z&page=2')).toBe('/a?password=[redacted]&device_secret=[redacted]&secret_hash=[redacted]&page=2');
    expect(redactUrl('/a?k%zzey=abc')).toBe('/a?k%zzey=[redacted]');
    expect(redactUrl('/plain/path')).toBe('/plain/path');
  });

  it('scrubs secrets out of free text: query strings and JSON fields', () => {
    expect(scrubText('GET /x?key=abc failed')).toBe('GET /x?key=[redacted] failed');
    expect(scrubText('Unexpected token in {"key":"abc","password": "p\\"w","name":"n"}')).toBe('Unexpected token in {"key":"[redacted]","password": "[redacted]","name":"n"}');
  });

  it('keeps only identifiers of database errors: no params, no detail, no quoted value of a data exception', () => {
    const cause = Object.assign(new Error('invalid input syntax for type integer: "s3cret"'), { code: '22P02', detail: 'd', where: 'w', table: 't' });
    const drizzle = Object.assign(new Error('Failed query: select $1\nparams: s3cret'), { query: 'select $1', params: ['s3cret'], cause });
    const out = serializeError(drizzle);
    expect(JSON.stringify(out)).not.toContain('s3cret');
    expect(out).toMatchObject({ message: 'Failed query: select $1', cause: { code: '22P02', table: 't', message: 'invalid input syntax for type integer: "[redacted]"' } });
    expect((out.cause as Record<string, unknown>).detail).toBeUndefined();
  });
});

describe('slow requests', () => {
  it('are logged at warn with their endpoint, code and time; quick ones are not; 0 turns it off', async () => {
    const lines: Record<string, unknown>[] = [];
    const build = async (slowRequestMs: number) => {
      const stream = new PassThrough();
      stream.on('data', (chunk) => {
        for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      });
      const slowApp = await buildApp({ ...loadConfig({}), logLevel: 'warn', webDist: undefined, slowRequestMs }, database.db, { logStream: stream });
      slowApp.get('/test/slow', { config: { metricsName: 'test_slow' } }, async () => {
        await new Promise((r) => setTimeout(r, 300));
        return { code: 200, datas: {} };
      });
      return slowApp;
    };
    const on = await build(150);
    await on.inject({ method: 'GET', url: '/test/slow' });
    await on.inject({ method: 'GET', url: '/healthz' });
    await on.close();
    const off = await build(0);
    await off.inject({ method: 'GET', url: '/test/slow' });
    await off.close();
    await new Promise((r) => setImmediate(r));
    const slow = lines.filter((l) => l.msg === 'slow request');
    expect(slow).toHaveLength(1);
    expect(slow[0]).toMatchObject({ level: 40, endpoint: 'test_slow', code: 200 });
    // Written through the request's logger, made at this first line: bound to the request id.
    expect(slow[0]!.reqId).toEqual(expect.any(String));
    expect(slow[0]!.ms).toBeGreaterThanOrEqual(300);
  });
});

describe('the request logger', () => {
  it('binds every line of a request to its id, and makes no child logger for a request that writes nothing', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk) => {
      for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line));
    });
    const infoApp = await buildApp({ ...loadConfig({}), logLevel: 'info', webDist: undefined }, database.db, { logStream: stream });
    await infoApp.inject({ method: 'GET', url: '/healthz' });
    await infoApp.inject({ method: 'GET', url: '/healthz' });
    await infoApp.close();
    await new Promise((r) => setImmediate(r));
    const incoming = lines.filter((l) => l.msg === 'incoming request');
    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(incoming).toHaveLength(2);
    expect(completed.map((l) => l.reqId)).toEqual(incoming.map((l) => l.reqId));
    expect(new Set(incoming.map((l) => l.reqId)).size).toBe(2);

    let made = 0;
    const parent = {
      level: 'warn',
      isLevelEnabled: (level: string) => ['warn', 'error', 'fatal'].includes(level),
      child(bindings: Record<string, unknown>) {
        made++;
        const written: unknown[][] = [];
        return { level: 'warn', bindings: () => bindings, written, warn: (...args: unknown[]) => written.push(args), info: (...args: unknown[]) => written.push(args) };
      },
    };
    const quiet = new RequestLogger(parent, { reqId: 'req-1' }, {});
    quiet.info({ req: {} }, 'incoming request');
    quiet.debug('nothing');
    expect(made).toBe(0);
    expect(quiet.level).toBe('warn');
    quiet.warn('slow request');
    quiet.warn('again');
    expect(made).toBe(1);
    expect(quiet.bindings()).toEqual({ reqId: 'req-1' });
  });
});

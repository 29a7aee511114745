import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createTestApp, openTestDatabase, type TestApp } from '../test/harness';
import { journal } from './health';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(async () => {
  await t?.close();
});

const config = (webDist?: string) => ({ ...loadConfig({}), logLevel: 'silent', webDist });

describe('health checks for a load balancer', () => {
  it('GET /healthz: the process answers, plain JSON, never cached, no session needed', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'HEAD', url: '/healthz' })).statusCode).toBe(200);
  });

  it('GET /readyz: ready when the database answers and every migration of the journal is applied', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ status: 'ready', migrations: journal().length });
  });

  it('GET /readyz: 503 with the pending migrations on a database not migrated, 503 when the database is gone', async () => {
    const database = await openTestDatabase({ empty: true });
    const app = await buildApp(config(), database.db);
    try {
      const pending = await app.inject({ method: 'GET', url: '/readyz' });
      expect(pending.statusCode).toBe(503);
      expect(pending.headers['cache-control']).toBe('no-store');
      expect(pending.json()).toEqual({ status: 'unavailable', reason: 'migrations pending', pending: journal().map((m) => m.tag) });
      // still alive: the process answers
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

      await database.migrate();
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

      await database.close();
      const gone = await app.inject({ method: 'GET', url: '/readyz' });
      expect(gone.statusCode).toBe(503);
      expect(gone.json()).toEqual({ status: 'unavailable', reason: 'database unreachable' });
      expect(gone.body).not.toMatch(/closed|PGlite|Error/);
    } finally {
      await app.close();
    }
  });

  it('the web app shell does not swallow them', async () => {
    const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>app</title>');
    const app = await buildApp(config(webDist), t.db);
    try {
      expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
      expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({ status: 'ready' });
      expect((await app.inject({ method: 'GET', url: '/healthzz' })).body).toContain('<title>app</title>');
    } finally {
      await app.close();
      fs.rmSync(webDist, { recursive: true, force: true });
    }
  });
});

import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openPglite, type Database } from '../db/client';
import { seedDemoIfEmpty, syncMenus } from '../seed';

let database: Database;
let app: FastifyInstance;
let logs = '';

beforeAll(async () => {
  database = await openPglite();
  await database.migrate();
  await syncMenus(database.db);
  await seedDemoIfEmpty(database.db);
  const stream = new PassThrough();
  stream.on('data', (chunk) => {
    logs += chunk.toString();
  });
  app = await buildApp({ ...loadConfig({}), logLevel: 'debug', webDist: undefined }, database.db, { logStream: stream });
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

it('never writes session keys or passwords to the log', async () => {
  const login = await app.inject({ method: 'POST', url: '/adminapi/login/login', payload: { username: 'admin', password: 'demo1234' } });
  const key = login.json().datas.key as string;
  await app.inject({ method: 'GET', url: `/adminapi/equipment/list?key=${key}&limit=5` });
  await app.inject({ method: 'GET', url: '/adminapi/member/get_member', headers: { authorization: `Bearer ${key}` } });
  await app.inject({ method: 'POST', url: '/adminapi/member/modify_field', payload: { key, id: 1, field: 'password', value: 'short' } });
  await new Promise((r) => setTimeout(r, 50));
  expect(logs).toContain('/adminapi/equipment/list');
  expect(logs).toContain('[redacted]');
  expect(logs).not.toContain(key);
  expect(logs).not.toContain('demo1234');
});

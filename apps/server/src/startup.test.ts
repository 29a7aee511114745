import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journal } from './http/health';
import { DEMO_INSTITUTIONS } from './seed/foundation';
import { buildServer, freePort, until } from './test/child';

/*
 * Processes started together on one empty database (issue 34 §3): four built servers (`node dist/main.js`,
 * as production runs them) at once on a database created empty for this file, on the run's PostgreSQL
 * (DATABASE_URL: the test cluster, or CI's server). Every one comes up; the schema is migrated once and the
 * demo data seeded once, because start-up's writes run under one advisory lock (db/client.ts, `migrate`).
 */

const PG = process.env.DATABASE_URL!;
const PROCESSES = 4;

let build: ReturnType<typeof buildServer> | undefined;
let databaseName = '';
let databaseUrl = '';
let dataDir = '';
const children: { child: ChildProcess; exited: Promise<unknown>; stderr: () => string }[] = [];

async function admin<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

beforeAll(() => {
  build = buildServer();
  databaseName = `t_${randomBytes(6).toString('hex')}`;
  const url = new URL(PG);
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'startup-race-'));
});

afterAll(async () => {
  for (const c of children) {
    if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
    await c.exited;
  }
  build?.remove();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  if (databaseName) await admin(PG, `drop database if exists ${databaseName} with (force)`);
}, 60_000);

describe('processes started together on one empty database', { timeout: 180_000 }, () => {
  it('all come up; the migrations are applied once and the demo data seeded once', async () => {
    await admin(PG, `create database ${databaseName}`);
    const ports = await Promise.all(Array.from({ length: PROCESSES }, () => freePort()));
    for (const port of ports) {
      const child = spawn(process.execPath, [build!.main], {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          PORT: String(port),
          HOST: '127.0.0.1',
          SEED_DEMO: '1',
          LOG_LEVEL: 'silent',
          // One DATA_DIR for all, as the README asks of processes sharing a database (uploads, code.key).
          DATA_DIR: dataDir,
          WEB_DIST: path.join(dataDir, 'no-web'),
          METRICS_PORT: '',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (d) => {
        stderr += String(d);
      });
      children.push({ child, exited: new Promise((resolve) => child.once('exit', resolve)), stderr: () => stderr });
    }

    await until(
      'every process to answer /readyz',
      async () => {
        const answers = await Promise.all(
          ports.map(async (port, i) => {
            const c = children[i]!;
            if (c.child.exitCode !== null) throw new Error(`process ${i} exited with ${c.child.exitCode}: ${c.stderr()}`);
            try {
              return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200;
            } catch {
              return false;
            }
          }),
        );
        return answers.every(Boolean);
      },
      150_000,
      100,
    );

    const migrations = journal();
    const [applied] = await admin<{ n: number; hashes: number }>(databaseUrl, 'select count(*)::int as n, count(distinct hash)::int as hashes from drizzle.__drizzle_migrations');
    expect(applied).toEqual({ n: migrations.length, hashes: migrations.length });

    const [seeded] = await admin<{ admins: number; supers: number; institutions: number; menus: number; signs: number }>(
      databaseUrl,
      `select (select count(*)::int from admin_users where username = 'admin') as admins,
              (select count(*)::int from roles where is_super) as supers,
              (select count(*)::int from institutions) as institutions,
              (select count(*)::int from menus) as menus,
              (select count(distinct sign)::int from menus) as signs`,
    );
    expect(seeded).toMatchObject({ admins: 1, supers: 1, institutions: DEMO_INSTITUTIONS.length });
    expect(seeded!.menus).toBe(seeded!.signs);
    for (const c of children) expect(c.stderr()).toBe('');
  });
});

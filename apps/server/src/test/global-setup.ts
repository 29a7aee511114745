import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../db/client';
import { startEmbedded, type EmbeddedCluster } from '../db/embedded';
import { seedDemoIfEmpty, syncMenus } from '../seed';

/**
 * Once per run of the server tests: the PostgreSQL they run on and two template databases.
 *
 * - The database server: DATABASE_URL's when set (CI's second run), else a throw-away embedded cluster
 *   (the product's default engine: real PostgreSQL, several connections, so concurrency tests mean
 *   something in every run) in a temporary folder, without fsync.
 * - Templates, migrated and with every menu node: `bare`, and `seeded` with the demo data too. Each test
 *   file copies one (`CREATE DATABASE ... TEMPLATE`, test/harness.ts) instead of migrating and seeding
 *   (the demo accounts' password hashes alone take a second) again.
 */
export interface TestDatabaseServer {
  /** A connection string to the server (its own database); DATABASE_URL in the workers. */
  url: string;
  templates: { bare: string; seeded: string };
}

declare module 'vitest' {
  interface ProvidedContext {
    testDatabase: TestDatabaseServer;
  }
}

export function databaseUrl(server: string, database: string): string {
  const url = new URL(server);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function adminQuery(server: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  let cluster: EmbeddedCluster | undefined;
  let dir: string | undefined;
  let server = process.env.DATABASE_URL;
  if (!server) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'server-tests-'));
    // mkdtemp makes it 0700: started by root, the cluster's user must be able to pass through it.
    fs.chmodSync(dir, 0o755);
    cluster = await startEmbedded({ dir: path.join(dir, 'postgres'), durable: false });
    server = cluster.url;
  }
  const suffix = randomBytes(4).toString('hex');
  const templates = { bare: `tpl_bare_${suffix}`, seeded: `tpl_seeded_${suffix}` };

  await adminQuery(server, `create database ${templates.bare}`);
  const bare = await openPostgres(databaseUrl(server, templates.bare));
  await bare.migrate();
  await syncMenus(bare.db);
  await bare.close();
  await adminQuery(server, `create database ${templates.seeded} template ${templates.bare}`);
  const seeded = await openPostgres(databaseUrl(server, templates.seeded));
  await seedDemoIfEmpty(seeded.db);
  await seeded.close();

  project.provide('testDatabase', { url: server, templates });

  return async () => {
    if (cluster) {
      await cluster.stop();
      fs.rmSync(dir!, { recursive: true, force: true });
      return;
    }
    for (const name of Object.values(templates)) await adminQuery(server, `drop database if exists ${name} with (force)`);
  };
}

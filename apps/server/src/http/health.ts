import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Db, migrationsFolder } from '../db/client';

/*
 * For a load balancer or an orchestrator, outside the API (no session, not in the endpoint table):
 * - GET /healthz: the process answers (liveness);
 * - GET /readyz: the database answers and every migration of this build is applied (readiness): 503
 *   otherwise, with the reason, never the database's own error text.
 * Plain JSON, never cached.
 */

const CHECK_TIMEOUT_MS = 5_000;

/** The migrations this build ships: drizzle-kit's journal. */
export function journal(folder = migrationsFolder): { tag: string; when: number }[] {
  const text = fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8');
  return (JSON.parse(text) as { entries: { tag: string; when: number }[] }).entries.map(({ tag, when }) => ({ tag, when }));
}

export type Readiness = { ready: true; migrations: number } | { ready: false; reason: 'database unreachable' | 'migrations pending'; pending?: string[] };

const rowsOf = (result: unknown): Record<string, unknown>[] => ((result as { rows?: Record<string, unknown>[] }).rows ?? (result as Record<string, unknown>[])) as Record<string, unknown>[];

/**
 * Ready when the database answers and no migration of the journal is newer than the last one applied
 * (drizzle's own rule for what `migrate()` would still run).
 */
export async function readiness(db: Db, expected = journal()): Promise<Readiness> {
  try {
    await db.execute(sql`select 1`);
  } catch {
    return { ready: false, reason: 'database unreachable' };
  }
  let last = Number.NEGATIVE_INFINITY;
  let applied = 0;
  try {
    const rows = rowsOf(await db.execute(sql`select count(*)::int as n, max(created_at)::bigint as last from drizzle.__drizzle_migrations`));
    applied = Number(rows[0]?.n ?? 0);
    if (rows[0]?.last != null) last = Number(rows[0].last);
  } catch {
    // No migrations table: nothing applied yet.
  }
  const pending = expected.filter((m) => m.when > last).map((m) => m.tag);
  return pending.length ? { ready: false, reason: 'migrations pending', pending } : { ready: true, migrations: applied };
}

const withTimeout = <T>(p: Promise<T>, ms: number, fallback: T) =>
  new Promise<T>((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });

export async function healthRoutes(app: FastifyInstance) {
  const expected = journal();
  app.get('/healthz', { config: { metricsName: 'health' } }, async (_req, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));
  app.get('/readyz', { config: { metricsName: 'health' } }, async (_req, reply) => {
    const state = await withTimeout(readiness(app.db, expected), CHECK_TIMEOUT_MS, { ready: false, reason: 'database unreachable' } as Readiness);
    reply.header('cache-control', 'no-store');
    if (state.ready) return reply.send({ status: 'ready', migrations: state.migrations });
    return reply.status(503).send({ status: 'unavailable', reason: state.reason, ...(state.pending ? { pending: state.pending } : {}) });
  });
}

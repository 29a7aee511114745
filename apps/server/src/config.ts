import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** Folder for the embedded database and the code key (uploads are in the database; an earlier uploads/ here is moved in at start). */
  dataDir: string;
  /** When set, the PostgreSQL server there; otherwise the embedded PostgreSQL cluster in dataDir/postgres. */
  databaseUrl?: string;
  /** Seed demo data into an empty database. Default: on for the embedded database, off for DATABASE_URL. */
  seedDemo: boolean;
  /** Folder of the built web app to serve, if present. */
  webDist?: string;
  logLevel: string;
  /** Trust X-Forwarded-For from a proxy in front. */
  trustProxy: boolean;
  /** Prometheus metrics on a port of their own (GET /metrics); off when unset. */
  metricsPort?: number;
  /** Where the metrics port listens: loopback unless said otherwise. */
  metricsHost: string;
  /** On SIGTERM, how long in-flight requests may take to finish before their connections are cut. */
  shutdownTimeoutMs: number;
  /** Queries waiting for a pooled connection beyond which API requests are answered 503 (http/busy.ts). */
  dbQueueLimit: number;
  /**
   * Keep warm sessions' access-check rows in memory, emptied by LISTEN/NOTIFY (db/session-cache.ts). Unset:
   * on for the embedded database, off for DATABASE_URL's server, which may sit behind a transaction-mode
   * connection pooler that delivers no notices (`sessionCacheWanted`, db/client.ts).
   */
  sessionCache: boolean | undefined;
  /** Answers that take this long or longer are logged at warn as `slow request` (0: never). */
  slowRequestMs: number;
}

/** An on/off switch from the environment, or a start-up error naming the variable. */
function onOff<T extends boolean | undefined>(name: string, value: string | undefined, fallback: T): boolean | T {
  if (value === undefined || value === '') return fallback;
  const v = value.trim().toLowerCase();
  if (['on', '1', 'true'].includes(v)) return true;
  if (['off', '0', 'false'].includes(v)) return false;
  throw new Error(`${name} must be on or off, not "${value}"`);
}

/** A whole number from the environment, or a start-up error naming the variable. */
function whole(name: string, value: string, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > max) throw new Error(`${name} must be a whole number from 0 to ${max}, not "${value}"`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // npm runs workspace scripts inside the workspace folder; INIT_CWD is where the user typed the command.
  const dataDir = path.resolve(env.INIT_CWD ?? process.cwd(), env.DATA_DIR ?? './data');
  const databaseUrl = env.DATABASE_URL || undefined;
  const seed = env.SEED_DEMO;
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl,
    seedDemo: seed === undefined ? !databaseUrl : seed === '1' || seed === 'true',
    webDist: env.WEB_DIST ?? path.resolve(import.meta.dirname, '../../web/dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: env.TRUST_PROXY === '1',
    metricsPort: env.METRICS_PORT ? whole('METRICS_PORT', env.METRICS_PORT, 65_535) : undefined,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS ? whole('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 600_000) : 10_000,
    dbQueueLimit: env.DB_QUEUE_LIMIT ? whole('DB_QUEUE_LIMIT', env.DB_QUEUE_LIMIT, 100_000) : 100,
    sessionCache: onOff('SESSION_CACHE', env.SESSION_CACHE, undefined),
    slowRequestMs: env.SLOW_REQUEST_MS ? whole('SLOW_REQUEST_MS', env.SLOW_REQUEST_MS, 3_600_000) : 2_000,
  };
}

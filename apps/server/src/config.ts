import path from 'node:path';
import { z } from 'zod';

/*
 * The server's configuration: every environment variable it reads, in one zod schema (ENV), with its type,
 * default and allowed values. A bad value stops the process before anything starts, with one line naming
 * the variable, its value and what is allowed (`loadConfigOrExit`). The README's "Running" table and
 * `.env.example` list the same variables (config.test.ts compares the three).
 */

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
  /** CODE_KEY, checked: the activation codes' key (modules/codes/key.ts); unset: DATA_DIR/code.key. */
  codeKey?: string;
}

/** pino's levels, and `silent`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The words every on/off switch accepts (any case); anything else is refused. */
const SWITCH_WORDS: Record<string, boolean> = { on: true, off: false, true: true, false: false, '1': true, '0': false };
const SWITCH_ALLOWED = 'on or off (also true/false, 1/0)';

/** An empty value is an unset one (`PORT= npm start`, or an empty line of a .env file). */
const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const variable = <T extends z.ZodType>(schema: T) => z.preprocess(blank, schema);

const onOff = z.string().transform((v, ctx) => {
  const value = SWITCH_WORDS[v.trim().toLowerCase()];
  if (value === undefined) ctx.addIssue({ code: 'custom', message: SWITCH_ALLOWED });
  return value ?? false;
});

const whole = (min: number, max: number) =>
  z.string().transform((v, ctx) => {
    const n = Number(v.trim());
    if (!/^\d+$/.test(v.trim()) || n < min || n > max) ctx.addIssue({ code: 'custom', message: `a whole number from ${min} to ${max}` });
    return n;
  });

const hostName = z.string().regex(/^[^\s/]+$/, { message: 'a host name or an IP address (e.g. 0.0.0.0, 127.0.0.1, ::)' });

const postgresUrl = z.string().refine(
  (v) => {
    try {
      return ['postgres:', 'postgresql:'].includes(new URL(v.trim()).protocol);
    } catch {
      return false;
    }
  },
  { message: 'a PostgreSQL connection URL: postgres://user:password@host:5432/database' },
);

/** 32 bytes: 64 hex digits, or base64 (modules/codes/key.ts reads it the same way). */
export const codeKeyBytes = (value: string): Buffer => {
  const text = value.trim();
  return /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
};
const codeKey = z.string().refine((v) => codeKeyBytes(v).length === 32, { message: '32 bytes: 64 hex digits or base64 (e.g. `openssl rand -hex 32`)' });

/** Variables whose value is never printed, even when refused. */
export const SECRET_VARIABLES = new Set(['DATABASE_URL', 'CODE_KEY']);

/**
 * Every environment variable the server reads. INIT_CWD is npm's own (where the user typed the command:
 * npm runs workspace scripts inside the workspace), the folder DATA_DIR is relative to; it is not for
 * operators to set, so the README and `.env.example` leave it out.
 */
export const ENV = z.object({
  PORT: variable(whole(0, 65_535).default(8080)),
  HOST: variable(hostName.default('0.0.0.0')),
  DATA_DIR: variable(z.string().default('./data')),
  DATABASE_URL: variable(postgresUrl.optional()),
  SEED_DEMO: variable(onOff.optional()),
  WEB_DIST: variable(z.string().optional()),
  LOG_LEVEL: variable(
    z
      .string()
      .transform((v) => v.trim().toLowerCase())
      .pipe(z.enum(LOG_LEVELS, { message: LOG_LEVELS.join(', ') }))
      .default('info'),
  ),
  TRUST_PROXY: variable(onOff.default(false)),
  METRICS_PORT: variable(whole(0, 65_535).optional()),
  METRICS_HOST: variable(hostName.default('127.0.0.1')),
  SHUTDOWN_TIMEOUT_MS: variable(whole(0, 600_000).default(10_000)),
  CODE_KEY: variable(codeKey.optional()),
  DB_QUEUE_LIMIT: variable(whole(0, 100_000).default(100)),
  SLOW_REQUEST_MS: variable(whole(0, 3_600_000).default(2_000)),
  SESSION_CACHE: variable(onOff.optional()),
  INIT_CWD: variable(z.string().optional()),
});

/** The variables for operators: ENV's but npm's INIT_CWD. */
export const OPERATOR_VARIABLES = Object.keys(ENV.shape).filter((name) => name !== 'INIT_CWD');

/** A refused configuration: one line naming each bad variable, its value and what is allowed. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ENV.safeParse(env);
  if (!parsed.success) {
    const bad = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      const value = SECRET_VARIABLES.has(name) ? '(value not shown)' : JSON.stringify(env[name]);
      return `${name}=${value} is not allowed: ${issue.message}`;
    });
    throw new ConfigError(`configuration: ${[...new Set(bad)].join('; ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.INIT_CWD ?? process.cwd(), e.DATA_DIR),
    databaseUrl: e.DATABASE_URL?.trim(),
    seedDemo: e.SEED_DEMO ?? !e.DATABASE_URL,
    webDist: e.WEB_DIST ?? path.resolve(import.meta.dirname, '../../web/dist'),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    dbQueueLimit: e.DB_QUEUE_LIMIT,
    sessionCache: e.SESSION_CACHE,
    slowRequestMs: e.SLOW_REQUEST_MS,
    codeKey: e.CODE_KEY?.trim(),
  };
}

/** loadConfig for an entry point: a refused configuration ends the process (code 1) with its one line, no stack. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}

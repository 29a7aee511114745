import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** Folder for the embedded database and uploads. */
  dataDir: string;
  /** When set, PostgreSQL over node-postgres; otherwise embedded PGlite in dataDir/pgdata. */
  databaseUrl?: string;
  /** Seed demo data into an empty database. Default: on for the embedded database, off for DATABASE_URL. */
  seedDemo: boolean;
  /** Folder of the built web app to serve, if present. */
  webDist?: string;
  logLevel: string;
  /** Trust X-Forwarded-For from a proxy in front. */
  trustProxy: boolean;
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
  };
}

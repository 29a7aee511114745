import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { API_BASE } from '@app/contract';
import type { Config } from './config';
import type { Db } from './db/client';
import { REDACT_PATHS, redactUrl, serializeError } from './lib/log';
import envelope from './http/envelope';
import access from './http/access';
import drain from './http/drain';
import { healthRoutes } from './http/health';
import metrics from './http/metrics';
import security from './http/security';
import { serveWebApp } from './http/web';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
  }
}

const modulesDir = path.join(import.meta.dirname, 'modules');

/** Every feature module's routes.ts, in folder order: adding a module is adding its folder. */
async function loadModuleRoutes(): Promise<FastifyPluginAsync[]> {
  const names = fs
    .readdirSync(modulesDir)
    .filter((n) => fs.existsSync(path.join(modulesDir, n, 'routes.ts')))
    .sort();
  return Promise.all(names.map(async (n) => (await import(pathToFileURL(path.join(modulesDir, n, 'routes.ts')).href)).default as FastifyPluginAsync));
}

/** Composes plugins and feature modules; does not listen (tests use inject, main.ts listens). */
export async function buildApp(config: Config, db: Db, opts: { logStream?: NodeJS.WritableStream } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            ...(opts.logStream ? { stream: opts.logStream } : {}),
            // No secret in any log line (lib/log.ts): keys in URLs in any spelling, secret-named
            // fields, database errors without their values.
            redact: REDACT_PATHS,
            serializers: {
              req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
              err: serializeError,
            },
          },
  });
  app.decorate('db', db);
  app.decorate('config', config);

  await app.register(security);
  await app.register(metrics);
  await app.register(drain);
  await app.register(envelope);
  await app.register(access);
  await app.register(healthRoutes);
  const modules = await loadModuleRoutes();
  await app.register(
    async (api) => {
      for (const routes of modules) await api.register(routes);
    },
    { prefix: API_BASE },
  );

  if (config.webDist && fs.existsSync(path.join(config.webDist, 'index.html'))) await serveWebApp(app, config.webDist);
  return app;
}

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import fastifyStatic from '@fastify/static';
import { API_BASE } from '@app/contract';
import type { Config } from './config';
import type { Db } from './db/client';
import envelope from './http/envelope';
import access from './http/access';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
  }
}

/** Session keys travel in query strings (spec §7): never let one reach a log line. */
const redactUrl = (url: string) => url.replace(/([?&](?:key|password)=)[^&]*/gi, '$1[redacted]');

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
            redact: ['req.headers.authorization', 'req.headers.cookie', 'body.password', 'body.key', 'body.value'],
            serializers: {
              req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
            },
          },
  });
  app.decorate('db', db);
  app.decorate('config', config);

  await app.register(envelope);
  await app.register(access);
  const modules = await loadModuleRoutes();
  await app.register(
    async (api) => {
      for (const routes of modules) await api.register(routes);
    },
    { prefix: API_BASE },
  );

  if (config.webDist && fs.existsSync(path.join(config.webDist, 'index.html'))) {
    await app.register(fastifyStatic, { root: config.webDist, wildcard: false, index: false, maxAge: '1h', immutable: false });
    const indexHtml = fs.readFileSync(path.join(config.webDist, 'index.html'));
    // Client-side routes: any other GET that is not an API call gets the app shell.
    app.get('/*', async (req, reply) => {
      if (req.url.startsWith(`${API_BASE}/`) || req.url === API_BASE) return reply.callNotFound();
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
    });
  }
  return app;
}

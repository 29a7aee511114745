import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import { API_BASE, DEVICE_API_BASE } from '@app/contract';
import type { Config } from './config';
import type { Db } from './db/client';
import { lazyChildLogger, REDACT_PATHS, redactUrl, serializeError } from './lib/log';
import envelope from './http/envelope';
import access from './http/access';
import busy from './http/busy';
import drain from './http/drain';
import { healthRoutes } from './http/health';
import metrics from './http/metrics';
import security from './http/security';
import { serveWebApp } from './http/web';
import { moduleRoutes } from './modules';
import deviceApi from './modules/deviceapi/plugin';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
  }
}

/** Composes plugins and feature modules; does not listen (tests use inject, serve.ts listens). */
export async function buildApp(config: Config, db: Db, opts: { logStream?: NodeJS.WritableStream } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // request.log made at its first line, not for every request (lib/log.ts).
    childLoggerFactory: lazyChildLogger as unknown as FastifyServerOptions['childLoggerFactory'],
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            ...(opts.logStream ? { stream: opts.logStream } : {}),
            // No secret in any log line (lib/log.ts): keys in URLs in any spelling, secret-named
            // fields, database errors without their values.
            // biome-ignore lint/plugin/no-property-after-spread: the server's options, built once
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
  // Answers of 1 KB and more (JSON lists, the OpenAPI document, index.html) go out brotli or gzip when
  // the client accepts it; images and files already compressed are left alone (by their type), and so
  // are the web app's files, which the build compressed ahead (http/web.ts). Request bodies are never
  // inflated: a compressed upload would slip past the body limits. Brotli at quality 3, not the plugin's 4:
  // a 20-row device list (7.8 KB) in 40 us instead of 52 us for 1.8% more bytes (docs/benchmarks.md).
  // The bench's floor (bench/floor-server.mjs) compresses as set here: a change here goes there too.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    globalDecompression: false,
    // Compressed in one call up to 64 KB (a 100-row page), rather than the plugin's default of 8 KB on two
    // cores: above it the plugin streams through zlib's thread pool with chunked encoding, which made a
    // 50-row device page 0.6 ms slower than sending it uncompressed (docs/benchmarks.md).
    syncThreshold: 64 * 1024,
    // A 256 KB window (lgwin 18) rather than brotli's 4 MB: the window is allocated for every answer, and an
    // answer compressed in one call is at most 64 KB: the same bytes in 15% less time for a 20-row page
    // (docs/benchmarks.md). A streamed export over 256 KB compresses a few percent less.
    brotliOptions: {
      params: { [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_QUALITY]: 3, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 },
    },
  });
  await app.register(metrics);
  await app.register(drain);
  await app.register(busy);
  await app.register(envelope);
  await app.register(access);
  await app.register(healthRoutes);
  await app.register(
    async (api) => {
      // In folder order (modules/index.ts): a static list, so the server can be bundled.
      for (const name of Object.keys(moduleRoutes).sort()) await api.register(moduleRoutes[name]!);
    },
    { prefix: API_BASE },
  );
  // The device API (device-api.md): bearer-authenticated devices, outside the admin endpoint table.
  await app.register(deviceApi, { prefix: DEVICE_API_BASE });

  if (config.webDist && fs.existsSync(path.join(config.webDist, 'index.html'))) await serveWebApp(app, config.webDist);
  return app;
}

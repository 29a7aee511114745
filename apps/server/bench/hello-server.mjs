// The bench's reference: a bare Fastify hello-world, run by plain Node like the built server.
// BUSY_US=n spends n microseconds of CPU in each answer (default 0): what a server that does n us more
// work per request than the hello-world reaches on this box (docs/benchmarks.md, "How much work 0.5x allows").
import Fastify from 'fastify';

const busyMs = Number(process.env.BUSY_US ?? 0) / 1000;
const app = Fastify({ logger: false });
app.get('/', async () => {
  if (busyMs > 0) for (const end = performance.now() + busyMs; performance.now() < end; );
  return { hello: 'world' };
});
await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

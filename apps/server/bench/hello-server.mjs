// The bench's reference: a bare Fastify hello-world, run by plain Node like the built server.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

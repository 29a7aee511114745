import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { buildApp } from './app';
import { seedDemoIfEmpty, syncMenus } from './seed';
import { purgeExpiredSessions } from './lib/sessions';

const config = loadConfig();
const database = await openDatabase(config);
await database.migrate();
await syncMenus(database.db);
if (config.seedDemo) await seedDemoIfEmpty(database.db);

const app = await buildApp(config, database.db);
const housekeeping = setInterval(() => purgeExpiredSessions(database.db).catch((err) => app.log.error(err)), 10 * 60_000);
housekeeping.unref();

const shutdown = async () => {
  clearInterval(housekeeping);
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

await app.listen({ port: config.port, host: config.host });
app.log.info(`database: ${database.kind === 'pglite' ? `embedded in ${config.dataDir}` : 'PostgreSQL'}`);

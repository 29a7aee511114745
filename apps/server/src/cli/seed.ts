/** Seeds demo data into an empty database (also with DATABASE_URL): `npm run seed`. */
import { loadConfigOrExit } from '../config';
import { openDatabase } from '../db/client';
import { seedDemoIfEmpty, syncMenus } from '../seed';

const config = loadConfigOrExit();
// biome-ignore lint/plugin/no-property-after-spread: once per run of the command
const database = await openDatabase({ ...config, sessionCache: false });
let seeded = false;
await database.migrate(async (db) => {
  await syncMenus(db);
  seeded = await seedDemoIfEmpty(db);
});
console.log(seeded ? 'demo data seeded' : 'the database already has data: nothing seeded');
await database.close();

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { count } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { adminUsers } from '../db/schema';
import { seedFoundation } from './foundation';
export { syncMenus } from './menus';
export { DEMO_PASSWORD } from './foundation';

/** A module's demo data: `src/modules/<name>/seed.ts` exports `order` (lower first) and `seed(db)`. */
interface ModuleSeed {
  order: number;
  seed: (db: Tx) => Promise<unknown>;
}

async function moduleSeeds(): Promise<ModuleSeed[]> {
  const dir = path.join(import.meta.dirname, '../modules');
  const files = fs
    .readdirSync(dir)
    .map((n) => path.join(dir, n, 'seed.ts'))
    .filter((f) => fs.existsSync(f));
  const seeds = await Promise.all(files.map(async (f) => (await import(pathToFileURL(f).href)) as ModuleSeed));
  return seeds.sort((a, b) => a.order - b.order);
}

/** Seeds demo data when the database has no admin user yet: foundation first, then each module, in one transaction. */
export async function seedDemoIfEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(adminUsers);
  if (row!.n > 0) return false;
  const seeds = await moduleSeeds();
  await db.transaction(async (tx) => {
    await seedFoundation(tx);
    for (const s of seeds) await s.seed(tx);
  });
  return true;
}

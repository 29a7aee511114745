import { count } from 'drizzle-orm';
import type { Db } from '../db/client';
import { adminUsers } from '../db/schema';
import { type ModuleSeed, moduleSeeds } from '../modules';
import { seedFoundation } from './foundation';
export { syncMenus } from './menus';
export { DEMO_PASSWORD } from './foundation';

/** Each module's demo data (modules/index.ts), lower `order` first. */
function moduleSeedList(): ModuleSeed[] {
  return Object.values(moduleSeeds).sort((a, b) => a.order - b.order);
}

/** Seeds demo data when the database has no admin user yet: foundation first, then each module, in one transaction. */
export async function seedDemoIfEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(adminUsers);
  if (row!.n > 0) return false;
  const seeds = moduleSeedList();
  await db.transaction(async (tx) => {
    await seedFoundation(tx);
    for (const s of seeds) await s.seed(tx);
  });
  return true;
}

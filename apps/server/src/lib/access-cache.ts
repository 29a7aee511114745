import { asc, eq } from 'drizzle-orm';
import type { ParamValues } from '@app/contract';
import type { Db, Tx } from '../db/client';
import { menus, roleMenus, roles } from '../db/schema';
import { readParams } from './params';
import { together } from '../db/together';

/**
 * What the access check needs beyond the session and its account, cached in memory per database:
 * every role with its granted signs (and the menus, for the tree `get_member` answers), and the system
 * parameters. Each is stamped with the `cache_versions` counter it was loaded under; the access check
 * reads the current counters in its one joined query (lib/sessions.ts `resolveSession`) and reloads
 * only when one moved. Triggers bump the counters in the same transaction as any write to roles,
 * role_menus, menus or system_params (migration 0005), so a change made through any process is seen
 * by every process on its next request, and a stale value is never stamped with a newer version (the
 * reload runs after the counter was read, so it sees at least that state).
 */
export interface RoleGrant {
  id: number;
  name: string;
  description: string;
  isSuper: boolean;
  status: boolean;
  /** The menu ids the role holds (every menu for the super role). */
  menuIds: number[];
  /** Grants as role_data shows them (spec §6): every page and directory, buttons not hidden. */
  signs: Set<string>;
}

export type MenuRow = typeof menus.$inferSelect;

export interface Grants {
  version: number;
  roles: Map<number, RoleGrant>;
  /** Every menu, by sort then id. */
  menus: MenuRow[];
}

interface Cached {
  grants?: Grants;
  params?: { version: number; values: ParamValues };
}

/** Keyed by the database object: tests run several databases in one process. */
const caches = new WeakMap<object, Cached>();
const cacheOf = (db: Db): Cached => {
  const found = caches.get(db);
  if (found) return found;
  const fresh: Cached = {};
  caches.set(db, fresh);
  return fresh;
};

async function loadGrants(db: Tx, version: number): Promise<Grants> {
  const [roleRows, menuRows, held] = await together(db, [
    () => db.select().from(roles),
    () => db.select().from(menus).orderBy(asc(menus.sort), asc(menus.id)),
    () => db.select({ roleId: roleMenus.roleId, menuId: roleMenus.menuId }).from(roleMenus).innerJoin(menus, eq(menus.id, roleMenus.menuId)),
  ]);
  const byId = new Map(menuRows.map((m) => [m.id, m]));
  const shown = (m: MenuRow) => m.type !== 3 || m.hidden === 0;
  const map = new Map<number, RoleGrant>();
  for (const r of roleRows) {
    const menuIds = r.isSuper ? menuRows.map((m) => m.id) : held.filter((h) => h.roleId === r.id).map((h) => h.menuId);
    const signs = new Set(menuIds.map((id) => byId.get(id)).flatMap((m) => (m && shown(m) ? [m.sign] : [])));
    map.set(r.id, { id: r.id, name: r.name, description: r.description, isSuper: r.isSuper, status: r.status, menuIds, signs });
  }
  return { version, roles: map, menus: menuRows };
}

/** The role grants as of `version` from memory, or undefined when they must be (re)loaded. */
export function grantsInMemory(db: Db, version: number | null): Grants | undefined {
  const grants = version == null ? undefined : caches.get(db)?.grants;
  return grants && grants.version >= version! ? grants : undefined;
}

/** The system parameters as of `version` from memory, or undefined when they must be (re)read. */
export function paramsInMemory(db: Db, version: number | null): ParamValues | undefined {
  const params = version == null ? undefined : caches.get(db)?.params;
  return params && params.version >= version! ? params.values : undefined;
}

/** The role grants as of `version` (the counter just read): from memory, or reloaded when it moved. */
export async function grantsAt(db: Db, version: number | null): Promise<Grants> {
  if (version == null) return loadGrants(db, 0);
  const inMemory = grantsInMemory(db, version);
  if (inMemory) return inMemory;
  const c = cacheOf(db);
  const loaded = await loadGrants(db, version);
  if (!c.grants || c.grants.version < loaded.version) c.grants = loaded;
  return loaded;
}

/** The system parameters as of `version` (the counter just read): from memory, or reloaded when it moved. */
export async function paramsAt(db: Db, version: number | null): Promise<ParamValues> {
  if (version == null) return readParams(db);
  const inMemory = paramsInMemory(db, version);
  if (inMemory) return inMemory;
  const c = cacheOf(db);
  const values = await readParams(db);
  if (!c.params || c.params.version < version) c.params = { version, values };
  return values;
}

/**
 * The grants last validated for this database: within a request, as of its access check or later.
 * Undefined for a transaction or a database no access check has used (then read `currentGrants`).
 */
export function cachedGrants(db: Tx): Grants | undefined {
  return caches.get(db)?.grants;
}

/** The grants read from the database now (not cached). */
export const currentGrants = (db: Tx): Promise<Grants> => loadGrants(db, 0);

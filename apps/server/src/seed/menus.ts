import { sql } from 'drizzle-orm';
import { ROUTES, type RouteDef } from '@app/contract';
import type { Tx } from '../db/client';
import { menus, roleMenus } from '../db/schema';

/** Button keys that a role holding the page receives when the node is new (upgrade rule, docs/decisions.md "Exports"). */
const grantedWithPage = (key: string) => key.endsWith(':export');

/**
 * Makes sure every route and button of the permission table has its menu node. Runs at every start:
 * inserts only what is missing, never overwrites titles, icons, order or hidden flags edited in the
 * menu editor. An export button new to this database is granted to every role that holds its page:
 * those pages exported without a button before, so an upgrade takes no export away from a role. Later
 * starts leave it alone (a role it was taken from stays without it).
 */
export async function syncMenus(db: Tx) {
  const added: { menuId: number; pageId: number }[] = [];
  const existing = new Map((await db.select({ id: menus.id, sign: menus.sign }).from(menus)).map((m) => [m.sign, m.id]));
  const ensure = async (parentId: number | null, type: 1 | 2 | 3, sign: string, title: RouteDef['title'], icon: string | undefined, sort: number, hidden: boolean) => {
    const found = existing.get(sign);
    if (found) return found;
    const [row] = await db
      .insert(menus)
      .values({ parentId, type, sign, title, icon: icon ?? null, sort, hidden: hidden ? 1 : 0 })
      .returning({ id: menus.id });
    existing.set(sign, row!.id);
    return row!.id;
  };
  const walk = async (list: readonly RouteDef[], parentId: number | null) => {
    for (const [i, route] of list.entries()) {
      // An account's own page is open to every session: no menu node, no grant.
      if (route.personal) continue;
      const id = await ensure(parentId, route.children ? 1 : 2, route.name, route.title, route.icon, (i + 1) * 10, !!route.hidden);
      if (route.children) await walk(route.children, id);
      for (const [j, b] of (route.buttons ?? []).entries()) {
        const known = existing.has(b.key);
        const menuId = await ensure(id, 3, b.key, b.title, undefined, j + 1, false);
        if (!known && grantedWithPage(b.key)) added.push({ menuId, pageId: id });
      }
    }
  };
  await walk(ROUTES, null);
  for (const { menuId, pageId } of added) {
    await db.execute(sql`insert into ${roleMenus} (role_id, menu_id) select role_id, ${menuId} from ${roleMenus} where menu_id = ${pageId} on conflict do nothing`);
  }
}

/** Menu node ids by sign, for seeding roles. */
export async function menuIdsBySign(db: Tx, signs: string[]) {
  const rows = await db.select({ id: menus.id, sign: menus.sign }).from(menus);
  return rows.filter((r) => signs.includes(r.sign)).map((r) => r.id);
}

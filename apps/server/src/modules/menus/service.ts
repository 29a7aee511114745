import { asc, count, eq } from 'drizzle-orm';
import { flattenRoutes, type MenuAddBody, type MenuEditBody, type MenuNode, type MenuType } from '@app/contract';
import type { Db, Tx } from '../../db/client';
import { menus } from '../../db/schema';
import { badRequest, notFound } from '../../http/errors';
import { fieldError, isUniqueViolation } from '../../lib/form';

/**
 * Signs of the permission table (route names and button keys). syncMenus seeds a node for each at every
 * start; they are what the code checks, so they cannot be deleted and their sign, type and parent are fixed.
 */
export const BUILTIN_SIGNS: ReadonlySet<string> = new Set(flattenRoutes().flatMap((r) => [r.name, ...(r.buttons ?? []).map((b) => b.key)]));

/** Hiding this button would take the menu editor away from everyone, the super role included (spec §6). */
const LOCKOUT_SIGN = 'menu:edit';

type MenuRow = typeof menus.$inferSelect;

export async function allMenus(db: Tx): Promise<MenuRow[]> {
  return db.select().from(menus).orderBy(asc(menus.sort), asc(menus.id));
}

export function toMenuNode(m: MenuRow): MenuNode {
  return {
    id: m.id, parent_id: m.parentId, type: m.type as MenuType, sign: m.sign, title: m.title, icon: m.icon,
    sort: m.sort, hidden: m.hidden ? 1 : 0, builtin: BUILTIN_SIGNS.has(m.sign), children: [],
  };
}

/** Rows (already in display order) as a tree; a node whose parent is missing shows at the top level. */
export function buildTree<N extends { id: number; parent_id: number | null; children: N[] }>(nodes: N[]): N[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const roots: N[] = [];
  for (const n of nodes) {
    const parent = n.parent_id != null ? byId.get(n.parent_id) : undefined;
    (parent ? parent.children : roots).push(n);
  }
  return roots;
}

export async function menuTree(db: Tx): Promise<MenuNode[]> {
  return buildTree((await allMenus(db)).map(toMenuNode));
}

export async function menuDetail(db: Tx, id: number): Promise<MenuNode> {
  const [row] = await db.select().from(menus).where(eq(menus.id, id));
  if (!row) throw notFound();
  return toMenuNode(row);
}

/** The structure rules: a button under a page; a page under a directory or at the top; a directory likewise. */
async function assertParent(db: Tx, type: MenuType, parentId: number | null, selfId?: number) {
  if (parentId === null) {
    if (type === 3) throw fieldError('parent_id', 'menuButtonParent');
    return;
  }
  // Locks the parent against a concurrent delete (which locks the row it deletes, then counts children).
  await db.select({ id: menus.id }).from(menus).where(eq(menus.id, parentId)).for('share');
  const all = await db.select({ id: menus.id, parentId: menus.parentId, type: menus.type }).from(menus);
  const byId = new Map(all.map((m) => [m.id, m]));
  const parent = byId.get(parentId);
  if (!parent) throw fieldError('parent_id', 'unknownMenus', { ids: String(parentId) });
  if (type === 3 && parent.type !== 2) throw fieldError('parent_id', 'menuButtonParent');
  if (type === 2 && parent.type !== 1) throw fieldError('parent_id', 'menuPageParent');
  if (type === 1 && parent.type !== 1) throw fieldError('parent_id', 'menuDirectoryParent');
  if (selfId !== undefined) {
    // No cycles: the new parent may be neither the node itself nor one of its descendants.
    for (let at: number | null | undefined = parentId, hops = 0; at != null && hops <= all.length; at = byId.get(at)?.parentId, hops++) {
      if (at === selfId) throw fieldError('parent_id', 'menuCycle');
    }
  }
}

async function assertSignFree(db: Tx, sign: string, selfId?: number) {
  const [row] = await db.select({ id: menus.id }).from(menus).where(eq(menus.sign, sign));
  if (row && row.id !== selfId) throw fieldError('sign', 'duplicate', { field: sign });
}

export async function addMenu(db: Db, input: MenuAddBody): Promise<MenuNode> {
  if (input.sign === LOCKOUT_SIGN && input.hidden === 1) throw fieldError('hidden', 'menuLockout');
  try {
    return await db.transaction(async (tx) => {
      await assertParent(tx, input.type, input.parent_id);
      await assertSignFree(tx, input.sign);
      const [row] = await tx.insert(menus).values({
        parentId: input.parent_id, type: input.type, sign: input.sign, title: input.title, icon: input.icon, sort: input.sort, hidden: input.hidden,
      }).returning();
      return toMenuNode(row!);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw fieldError('sign', 'duplicate', { field: input.sign });
    throw err;
  }
}

export async function editMenu(db: Db, input: MenuEditBody): Promise<MenuNode> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(menus).where(eq(menus.id, input.id)).for('update');
    if (!row) throw notFound();
    const next = {
      parentId: input.parent_id === undefined ? row.parentId : input.parent_id,
      type: (input.type ?? row.type) as MenuType,
      sign: input.sign ?? row.sign,
      title: input.title ?? row.title,
      icon: input.icon === undefined ? row.icon : input.icon,
      sort: input.sort ?? row.sort,
      hidden: input.hidden ?? (row.hidden ? 1 : 0),
    };
    if (BUILTIN_SIGNS.has(row.sign) && (next.sign !== row.sign || next.type !== row.type || next.parentId !== row.parentId)) throw badRequest('menuBuiltin');
    if (next.sign === LOCKOUT_SIGN && next.hidden === 1) throw fieldError('hidden', 'menuLockout');
    if (next.parentId !== row.parentId || next.type !== row.type) await assertParent(tx, next.type, next.parentId, row.id);
    if (next.type !== row.type) {
      // The children must still fit: a directory holds directories and pages, a page holds buttons, a button nothing.
      const children = await tx.select({ type: menus.type }).from(menus).where(eq(menus.parentId, row.id));
      const fits = (t: number) => (next.type === 1 ? t === 1 || t === 2 : next.type === 2 ? t === 3 : false);
      if (!children.every((c) => fits(c.type))) throw fieldError('type', 'menuChildrenType');
    }
    if (next.sign !== row.sign) await assertSignFree(tx, next.sign, row.id);
    const [updated] = await tx.update(menus).set(next).where(eq(menus.id, row.id)).returning();
    return toMenuNode(updated!);
  }).catch((err) => {
    if (isUniqueViolation(err)) throw fieldError('sign', 'duplicate', { field: input.sign ?? '' });
    throw err;
  });
}

/** Deletes a node the code does not check and that has no children; its grants go with it. */
export async function deleteMenu(db: Db, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(menus).where(eq(menus.id, id)).for('update');
    if (!row) throw notFound();
    if (BUILTIN_SIGNS.has(row.sign)) throw badRequest('menuBuiltin');
    const [children] = await tx.select({ n: count() }).from(menus).where(eq(menus.parentId, id));
    if (children!.n > 0) throw badRequest('menuHasChildren', { count: children!.n });
    await tx.delete(menus).where(eq(menus.id, id));
  });
}

/** Ids of the nodes above the given ones (the given ones included). */
export function withAncestors(ids: Iterable<number>, all: { id: number; parentId: number | null }[]): Set<number> {
  const parentOf = new Map(all.map((m) => [m.id, m.parentId]));
  const out = new Set<number>();
  for (const id of ids) {
    for (let at: number | null | undefined = id; at != null && !out.has(at); at = parentOf.get(at)) out.add(at);
  }
  return out;
}

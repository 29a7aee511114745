import { asc, eq } from 'drizzle-orm';
import {
  flattenRoutes,
  typesFittingChildren,
  typesUnder,
  whyNotDeleteMenu,
  withAncestors as ancestorsOf,
  type IdInput,
  type MenuAddBody,
  type MenuEditBody,
  type MenuNode,
  type MenuType,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { menus } from '../../db/schema';
import type { Auth } from '../../http/access';
import { badRequest, notFound, refusal } from '../../lib/errors';
import { fieldError, isUniqueViolation } from '../../lib/form';

/*
 * Menu nodes of the permission tree (`/jurisdiction/menu`): directories (1), pages (2) and buttons (3).
 * The structure rules (what may sit under what, what may be deleted) are the shared ones of
 * `@app/contract` jurisdiction-rules.
 */

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
    id: m.id,
    parent_id: m.parentId,
    type: m.type as MenuType,
    sign: m.sign,
    title: m.title,
    icon: m.icon,
    sort: m.sort,
    hidden: m.hidden ? 1 : 0,
    builtin: BUILTIN_SIGNS.has(m.sign),
    children: [],
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

export async function menuTree(db: Tx, _auth: Auth): Promise<MenuNode[]> {
  return buildTree((await allMenus(db)).map(toMenuNode));
}

export async function menuDetail(db: Tx, _auth: Auth, { id }: IdInput): Promise<MenuNode> {
  const [row] = await db.select().from(menus).where(eq(menus.id, id));
  if (!row) throw notFound();
  return toMenuNode(row);
}

/** The audit trail's view of a node: as stored (no children); null once deleted. */
export async function snapshotMenu(db: Tx, id: number | null): Promise<Omit<MenuNode, 'children'> | null> {
  if (id == null) return null;
  const [row] = await db.select().from(menus).where(eq(menus.id, id));
  if (!row) return null;
  const { children: _, ...node } = toMenuNode(row);
  return node;
}

const PARENT_MESSAGE = { 1: 'menuDirectoryParent', 2: 'menuPageParent', 3: 'menuButtonParent' } as const;

/** The structure rules (typesUnder): a button under a page; a page under a directory or at the top; a directory likewise. */
async function assertParent(db: Tx, type: MenuType, parentId: number | null, selfId?: number) {
  if (parentId === null) {
    if (!typesUnder(null).includes(type)) throw fieldError('parent_id', PARENT_MESSAGE[type]);
    return;
  }
  // Locks the parent against a concurrent delete (which locks the row it deletes, then counts children).
  await db.select({ id: menus.id }).from(menus).where(eq(menus.id, parentId)).for('share');
  const all = await db.select({ id: menus.id, parentId: menus.parentId, type: menus.type }).from(menus);
  const byId = new Map(all.map((m) => [m.id, m]));
  const parent = byId.get(parentId);
  if (!parent) throw fieldError('parent_id', 'unknownMenus', { ids: String(parentId) });
  if (!typesUnder(parent.type as MenuType).includes(type)) throw fieldError('parent_id', PARENT_MESSAGE[type]);
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

export async function menuAdd(db: Tx, _auth: Auth, input: MenuAddBody): Promise<MenuNode> {
  if (input.sign === LOCKOUT_SIGN && input.hidden === 1) throw fieldError('hidden', 'menuLockout');
  try {
    await assertParent(db, input.type, input.parent_id);
    await assertSignFree(db, input.sign);
    const [row] = await db
      .insert(menus)
      .values({
        parentId: input.parent_id,
        type: input.type,
        sign: input.sign,
        title: input.title,
        icon: input.icon,
        sort: input.sort,
        hidden: input.hidden,
      })
      .returning();
    return toMenuNode(row!);
  } catch (err) {
    if (isUniqueViolation(err)) throw fieldError('sign', 'duplicate', { field: input.sign });
    throw err;
  }
}

export async function menuEdit(db: Tx, _auth: Auth, input: MenuEditBody): Promise<MenuNode> {
  try {
    const [row] = await db.select().from(menus).where(eq(menus.id, input.id)).for('update');
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
    if (next.parentId !== row.parentId || next.type !== row.type) await assertParent(db, next.type, next.parentId, row.id);
    if (next.type !== row.type) {
      // The children must still fit: a directory holds directories and pages, a page holds buttons, a button nothing.
      const children = await db.select({ type: menus.type }).from(menus).where(eq(menus.parentId, row.id));
      if (!typesFittingChildren(children.map((c) => ({ type: c.type as MenuType }))).includes(next.type)) throw fieldError('type', 'menuChildrenType');
    }
    if (next.sign !== row.sign) await assertSignFree(db, next.sign, row.id);
    const [updated] = await db.update(menus).set(next).where(eq(menus.id, row.id)).returning();
    return toMenuNode(updated!);
  } catch (err) {
    if (isUniqueViolation(err)) throw fieldError('sign', 'duplicate', { field: input.sign ?? '' });
    throw err;
  }
}

/** Deletes a node the code does not check and that has no children (whyNotDeleteMenu); its grants go with it. */
export async function menuRemove(db: Tx, _auth: Auth, { id }: IdInput): Promise<null> {
  const [row] = await db.select().from(menus).where(eq(menus.id, id)).for('update');
  if (!row) throw notFound();
  const children = await db.select({ id: menus.id }).from(menus).where(eq(menus.parentId, id));
  const why = whyNotDeleteMenu({ builtin: BUILTIN_SIGNS.has(row.sign), children });
  if (why) throw refusal(why, { count: children.length });
  await db.delete(menus).where(eq(menus.id, id));
  return null;
}

/** Ids of the nodes above the given ones (the given ones included). */
export function withAncestors(ids: Iterable<number>, all: { id: number; parentId: number | null }[]): Set<number> {
  return ancestorsOf(ids, new Map(all.map((m) => [m.id, m.parentId])));
}

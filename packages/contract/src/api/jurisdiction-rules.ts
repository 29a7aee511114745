/**
 * The access-control rules of `/jurisdiction`, stated once for both sides: the server's services
 * (apps/server/src/modules/jurisdiction and auth's modify_field) refuse with them, the web disables
 * what they refuse and says why. Pure functions without zod, unit-tested in jurisdiction-rules.test.ts.
 */
import type { MessageKey } from '../messages';
import type { MemberInfo } from './auth';
import type { AdminRow, GrantNode, MenuNode, MenuType, RoleRow } from './jurisdiction';

// ------------------------------------------------------------------------------------------ the actor

/**
 * Who acts. While a super-admin views the console as another role it acts as that role in every respect
 * (grants, "own role", super-admin exemptions), exactly as the server's access check does.
 */
export interface Actor {
  adminId: number | null;
  roleId: number | null;
  isSuper: boolean;
}

/** The actor of an admin whose own role is `own`, viewing as `viewRoleId` (null: not viewing). */
export function actorFrom(adminId: number | null, own: { id: number; isSuper: boolean } | null, viewRoleId: number | null): Actor {
  if (!own) return { adminId, roleId: null, isSuper: false };
  return { adminId, roleId: viewRoleId ?? own.id, isSuper: own.isSuper && !viewRoleId };
}

/** From the admin's user info (or the session's copy of it: role and viewing_as) and the session's user id. */
export interface ActorSource {
  id?: number | null;
  role: MemberInfo['role'] | null;
  viewing_as: MemberInfo['viewing_as'];
}
export function actorOf(member: ActorSource | null | undefined, userId: number | null): Actor {
  const adminId = member?.id ?? userId;
  const role = member?.role;
  return actorFrom(adminId, role ? { id: role.id, isSuper: role.is_super } : null, member?.viewing_as?.id ?? null);
}

/** Why an action is refused: a key of the feature's `why.*` strings, or null when allowed. */
export type Why =
  | 'superRoleFixed'
  | 'superRoleEdit'
  | 'ownRole'
  | 'roleInUse'
  | 'viewAsNotSuper'
  | 'viewAsSuperRole'
  | 'roleDisabled'
  | 'selfDelete'
  | 'selfStatus'
  | 'superOnly'
  | 'builtinDelete'
  | 'hasChildren'
  | 'viewing';

/** The server's answer to each refusal (`hasChildren` and `roleInUse` take `{ count }`). */
export const WHY_MESSAGE: Record<Why, MessageKey> = {
  superRoleFixed: 'superRoleFixed',
  superRoleEdit: 'superOnly',
  ownRole: 'ownRole',
  roleInUse: 'roleInUse',
  viewAsNotSuper: 'viewAsNotSuper',
  viewAsSuperRole: 'viewAsSuperRole',
  roleDisabled: 'viewAsRoleDisabled',
  viewing: 'viewAsViewing',
  selfDelete: 'selfDelete',
  selfStatus: 'forbidden',
  superOnly: 'superOnly',
  builtinDelete: 'menuBuiltin',
  hasChildren: 'menuHasChildren',
};

// ------------------------------------------------------------------------------------------- roles

export function whyNotEditRole(role: Pick<RoleRow, 'id' | 'is_super'>, actor: Actor): Why | null {
  if (role.is_super) return actor.isSuper ? null : 'superRoleEdit';
  if (!actor.isSuper && role.id === actor.roleId) return 'ownRole';
  return null;
}

export function whyNotToggleRole(role: Pick<RoleRow, 'id' | 'is_super'>, actor: Actor): Why | null {
  if (role.is_super) return 'superRoleFixed';
  return whyNotEditRole(role, actor);
}

export function whyNotDeleteRole(role: Pick<RoleRow, 'id' | 'is_super' | 'user_count'>, actor: Actor): Why | null {
  if (role.is_super) return 'superRoleFixed';
  if (!actor.isSuper && role.id === actor.roleId) return 'ownRole';
  if (role.user_count > 0) return 'roleInUse';
  return null;
}

/** View as: super-admins only (not while already viewing), never the super role; a disabled role grants nothing. */
export function whyNotViewAs(role: Pick<RoleRow, 'is_super' | 'status'>, actor: Actor, viewing: boolean): Why | null {
  if (viewing) return 'viewing';
  if (!actor.isSuper) return 'viewAsNotSuper';
  if (role.is_super) return 'viewAsSuperRole';
  if (!role.status) return 'roleDisabled';
  return null;
}

// ------------------------------------------------------------------------------------------- admins

type AdminTarget = Pick<AdminRow, 'id' | 'role_is_super'>;

export function whyNotEditAdmin(row: AdminTarget, actor: Actor): Why | null {
  return row.role_is_super && !actor.isSuper ? 'superOnly' : null;
}

/** The role field of the edit form: nobody changes its own role. */
export function whyNotChangeAdminRole(row: AdminTarget, actor: Actor): Why | null {
  return row.id === actor.adminId ? 'ownRole' : whyNotEditAdmin(row, actor);
}

export function whyNotDeleteAdmin(row: AdminTarget, actor: Actor): Why | null {
  if (row.id === actor.adminId) return 'selfDelete';
  return whyNotEditAdmin(row, actor);
}

export function whyNotToggleAdmin(row: AdminTarget, actor: Actor): Why | null {
  if (row.id === actor.adminId) return 'selfStatus';
  return whyNotEditAdmin(row, actor);
}

export function whyNotResetPassword(row: AdminTarget, actor: Actor): Why | null {
  return row.id === actor.adminId ? null : whyNotEditAdmin(row, actor);
}

// -------------------------------------------------------------------------------------------- menus

/** Types a node may have under a parent of this type (null = top level). */
export function typesUnder(parentType: MenuType | null): MenuType[] {
  if (parentType === null || parentType === 1) return [1, 2];
  if (parentType === 2) return [3];
  return [];
}

/** Types a node may take given its children: a directory holds directories and pages, a page buttons. */
export function typesFittingChildren(children: readonly Pick<MenuNode, 'type'>[]): MenuType[] {
  const types = new Set(children.map((c) => c.type));
  if (!types.size) return [1, 2, 3];
  if (types.has(3)) return types.size === 1 ? [2] : [];
  return types.has(1) || types.has(2) ? [1] : [];
}

export function whyNotDeleteMenu(node: Pick<MenuNode, 'builtin'> & { children: readonly unknown[] }): Why | null {
  if (node.builtin) return 'builtinDelete';
  if (node.children.length) return 'hasChildren';
  return null;
}

/** The ids given and every node above them (`parentOf`: each node's parent, null at the top). */
export function withAncestors(ids: Iterable<number>, parentOf: ReadonlyMap<number, number | null>): Set<number> {
  const out = new Set<number>();
  for (const id of ids) {
    for (let at: number | null | undefined = id; at != null && !out.has(at); at = parentOf.get(at)) out.add(at);
  }
  return out;
}

/** The node with this id and every node below it. */
export function subtreeIds<N extends { id: number; children: N[] }>(nodes: N[], id: number): Set<number> {
  const out = new Set<number>();
  const add = (n: N) => {
    out.add(n.id);
    n.children.forEach(add);
  };
  const find = (list: N[]): boolean =>
    list.some((n) => {
      if (n.id !== id) return find(n.children);
      add(n);
      return true;
    });
  find(nodes);
  return out;
}

export function findNode<N extends { id: number; children: N[] }>(nodes: N[], id: number | null | undefined): N | undefined {
  if (id == null) return undefined;
  for (const n of nodes) {
    if (n.id === id) return n;
    const hit = findNode(n.children, id);
    if (hit) return hit;
  }
  return undefined;
}

/** Keeps the nodes matching `test` and the nodes above them (a tree search). */
export function filterTree<N extends { children: N[] }>(nodes: N[], test: (n: N) => boolean): N[] {
  return nodes.flatMap((n) => {
    const children = filterTree(n.children, test);
    return test(n) || children.length ? [Object.assign({}, n, { children })] : [];
  });
}

// -------------------------------------------------------------------------------------- grant editor

export interface GrantIndex {
  parent: Map<number, number | null>;
  children: Map<number, number[]>;
  grantable: Map<number, boolean>;
  type: Map<number, MenuType>;
  all: number[];
}

export function indexGrants(nodes: GrantNode[]): GrantIndex {
  const idx: GrantIndex = { parent: new Map(), children: new Map(), grantable: new Map(), type: new Map(), all: [] };
  const walk = (list: GrantNode[], parent: number | null) =>
    list.forEach((n) => {
      idx.parent.set(n.id, parent);
      idx.children.set(
        n.id,
        n.children.map((c) => c.id),
      );
      idx.grantable.set(n.id, n.grantable);
      idx.type.set(n.id, n.type);
      idx.all.push(n.id);
      walk(n.children, n.id);
    });
  walk(nodes, null);
  return idx;
}

function descendants(idx: GrantIndex, id: number): number[] {
  const out: number[] = [];
  const walk = (at: number) =>
    (idx.children.get(at) ?? []).forEach((c) => {
      out.push(c);
      walk(c);
    });
  walk(id);
  return out;
}

function ancestors(idx: GrantIndex, id: number): number[] {
  const out: number[] = [];
  for (let at = idx.parent.get(id); at != null; at = idx.parent.get(at)) out.push(at);
  return out;
}

/**
 * Checking a node grants it, the nodes above it (checking a button checks its page and directory) and
 * every grantable node below it; unchecking takes it and the grantable nodes below it away. Nodes the
 * caller may not grant are never added nor removed.
 */
export function toggleGrant(idx: GrantIndex, checked: ReadonlySet<number>, id: number, on: boolean): Set<number> {
  const next = new Set(checked);
  if (!idx.grantable.get(id)) return next;
  if (on) {
    next.add(id);
    for (const a of ancestors(idx, id)) if (idx.grantable.get(a)) next.add(a);
    for (const d of descendants(idx, id)) if (idx.grantable.get(d)) next.add(d);
  } else {
    const below = descendants(idx, id);
    for (const d of below) if (idx.grantable.get(d)) next.delete(d);
    // A node still holding grants the caller cannot take away stays (the server would add it back).
    if (!below.some((d) => next.has(d))) next.delete(id);
  }
  return next;
}

/** What the server stores: the checked nodes and every node above them, known ids only. */
export function normalizeGrants(idx: GrantIndex, ids: Iterable<number>): number[] {
  const known = [...ids].filter((id) => idx.parent.has(id));
  return [...withAncestors(known, idx.parent)].sort((a, b) => a - b);
}

/**
 * The grants a caller may hand out: only nodes it holds itself (a super-admin holds every node), so no
 * one raises rights above its own. The first node it does not hold, or null.
 */
export function firstNotGrantable(actor: Pick<Actor, 'isSuper'>, held: ReadonlySet<number>, wanted: Iterable<number>): number | null {
  if (actor.isSuper) return null;
  for (const id of wanted) if (!held.has(id)) return id;
  return null;
}

/** Every grantable node, with what is already checked (select all). */
export function grantAll(idx: GrantIndex, checked: ReadonlySet<number>): Set<number> {
  const next = new Set(checked);
  for (const id of idx.all) if (idx.grantable.get(id)) next.add(id);
  return new Set(normalizeGrants(idx, next));
}

/** Clears what the caller may take away (clear all). */
export function grantNone(idx: GrantIndex, checked: ReadonlySet<number>): Set<number> {
  return new Set(
    normalizeGrants(
      idx,
      [...checked].filter((id) => !idx.grantable.get(id)),
    ),
  );
}

/** Counts of granted pages and buttons (the summary above the tree). */
export function grantSummary(idx: GrantIndex, checked: ReadonlySet<number>): { pages: number; buttons: number } {
  let pages = 0;
  let buttons = 0;
  for (const id of checked) {
    const type = idx.type.get(id);
    if (type === 2) pages++;
    else if (type === 3) buttons++;
  }
  return { pages, buttons };
}

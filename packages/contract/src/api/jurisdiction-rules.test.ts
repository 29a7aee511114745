import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages';
import type { MemberInfo } from './auth';
import type { GrantNode, MenuType } from './jurisdiction';
import {
  actorFrom,
  actorOf,
  filterTree,
  firstNotGrantable,
  WHY_MESSAGE,
  withAncestors,
  grantAll,
  grantNone,
  grantSummary,
  indexGrants,
  normalizeGrants,
  subtreeIds,
  toggleGrant,
  typesFittingChildren,
  typesUnder,
  whyNotChangeAdminRole,
  whyNotDeleteAdmin,
  whyNotDeleteMenu,
  whyNotDeleteRole,
  whyNotEditRole,
  whyNotResetPassword,
  whyNotToggleAdmin,
  whyNotToggleRole,
  whyNotViewAs,
} from './jurisdiction-rules';

const title = { zh: 'x', en: 'x', es: '', ja: '' };
function node(id: number, type: MenuType, children: GrantNode[] = [], grantable = true): GrantNode {
  return { id, parent_id: null, type, sign: `s${id}`, title, icon: null, sort: 0, hidden: 0, builtin: false, grantable, children };
}
// 1 directory > 2 page > (3, 4, 5 buttons); 1 > 6 page; 7 directory > 8 page > 9 button (not grantable)
const tree = [node(1, 1, [node(2, 2, [node(3, 3), node(4, 3), node(5, 3)]), node(6, 2)]), node(7, 1, [node(8, 2, [node(9, 3, [], false)])])];
const idx = indexGrants(tree);
const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);

const member = (over: Partial<MemberInfo>): MemberInfo => ({
  id: 1,
  username: 'admin',
  name: 'Admin',
  avatar: '',
  introduction: '',
  role_data: [],
  role: { id: 1, name: 'Super', is_super: true },
  viewing_as: null,
  ...over,
});

describe('actor', () => {
  it('is the super-admin unless viewing as a role, which it then acts as', () => {
    expect(actorOf(member({}), 1)).toEqual({ adminId: 1, roleId: 1, isSuper: true });
    expect(actorOf(member({ viewing_as: { id: 5, name: 'Ops' } }), 1)).toEqual({ adminId: 1, roleId: 5, isSuper: false });
    expect(actorOf(null, 3)).toEqual({ adminId: 3, roleId: null, isSuper: false });
    // The session's copy (lib/session keeps role and viewing_as): the admin id comes from the session.
    expect(actorOf({ role: { id: 2, name: 'Ops', is_super: false }, viewing_as: null }, 7)).toEqual({ adminId: 7, roleId: 2, isSuper: false });
    expect(actorOf({ role: null, viewing_as: null }, 7)).toEqual({ adminId: 7, roleId: null, isSuper: false });
  });
  it('the server derives the same actor from a session', () => {
    expect(actorFrom(1, { id: 1, isSuper: true }, null)).toEqual({ adminId: 1, roleId: 1, isSuper: true });
    expect(actorFrom(1, { id: 1, isSuper: true }, 5)).toEqual({ adminId: 1, roleId: 5, isSuper: false });
    expect(actorFrom(2, { id: 5, isSuper: false }, null)).toEqual({ adminId: 2, roleId: 5, isSuper: false });
  });
  it('every refusal has a server message', () => {
    for (const key of Object.values(WHY_MESSAGE)) expect(MESSAGES).toHaveProperty(key);
  });
});

describe('role rules', () => {
  const sup = { adminId: 1, roleId: 1, isSuper: true };
  const ops = { adminId: 2, roleId: 5, isSuper: false };
  const superRole = { id: 1, is_super: true, user_count: 1, status: true };
  it('the super role cannot be deleted or disabled; only a super-admin edits it', () => {
    expect(whyNotDeleteRole(superRole, sup)).toBe('superRoleFixed');
    expect(whyNotToggleRole(superRole, sup)).toBe('superRoleFixed');
    expect(whyNotEditRole(superRole, sup)).toBeNull();
    expect(whyNotEditRole(superRole, ops)).toBe('superRoleEdit');
  });
  it('a non-super admin cannot touch its own role; roles in use are not deleted', () => {
    expect(whyNotEditRole({ id: 5, is_super: false }, ops)).toBe('ownRole');
    expect(whyNotDeleteRole({ id: 5, is_super: false, user_count: 0 }, ops)).toBe('ownRole');
    expect(whyNotEditRole({ id: 5, is_super: false }, sup)).toBeNull();
    expect(whyNotDeleteRole({ id: 6, is_super: false, user_count: 2 }, sup)).toBe('roleInUse');
    expect(whyNotDeleteRole({ id: 6, is_super: false, user_count: 0 }, ops)).toBeNull();
  });
  it('view as: super-admins only, not the super role, not a disabled role, not while viewing', () => {
    expect(whyNotViewAs({ is_super: false, status: true }, sup, false)).toBeNull();
    expect(whyNotViewAs({ is_super: false, status: true }, ops, false)).toBe('viewAsNotSuper');
    expect(whyNotViewAs({ is_super: true, status: true }, sup, false)).toBe('viewAsSuperRole');
    expect(whyNotViewAs({ is_super: false, status: false }, sup, false)).toBe('roleDisabled');
    expect(whyNotViewAs({ is_super: false, status: true }, sup, true)).toBe('viewing');
  });
});

describe('admin rules', () => {
  const ops = { adminId: 2, roleId: 5, isSuper: false };
  const sup = { adminId: 1, roleId: 1, isSuper: true };
  it('nobody deletes or disables itself or changes its own role', () => {
    expect(whyNotDeleteAdmin({ id: 2, role_is_super: false }, ops)).toBe('selfDelete');
    expect(whyNotToggleAdmin({ id: 2, role_is_super: false }, ops)).toBe('selfStatus');
    expect(whyNotChangeAdminRole({ id: 1, role_is_super: true }, sup)).toBe('ownRole');
    expect(whyNotResetPassword({ id: 2, role_is_super: false }, ops)).toBeNull();
  });
  it('only a super-admin manages super-admin accounts', () => {
    expect(whyNotDeleteAdmin({ id: 1, role_is_super: true }, ops)).toBe('superOnly');
    expect(whyNotResetPassword({ id: 1, role_is_super: true }, ops)).toBe('superOnly');
    expect(whyNotToggleAdmin({ id: 3, role_is_super: true }, sup)).toBeNull();
  });
});

describe('menu rules', () => {
  it('buttons under pages, pages and directories under directories or the top', () => {
    expect(typesUnder(null)).toEqual([1, 2]);
    expect(typesUnder(1)).toEqual([1, 2]);
    expect(typesUnder(2)).toEqual([3]);
    expect(typesUnder(3)).toEqual([]);
  });
  it('a type change must fit the children', () => {
    expect(typesFittingChildren([])).toEqual([1, 2, 3]);
    expect(typesFittingChildren([{ type: 3 }])).toEqual([2]);
    expect(typesFittingChildren([{ type: 2 }, { type: 1 }])).toEqual([1]);
  });
  it('built-in nodes and nodes with children cannot be deleted', () => {
    expect(whyNotDeleteMenu({ builtin: true, children: [] })).toBe('builtinDelete');
    expect(whyNotDeleteMenu({ builtin: false, children: [node(1, 3)] })).toBe('hasChildren');
    expect(whyNotDeleteMenu({ builtin: false, children: [] })).toBeNull();
  });
  it('subtree and search helpers', () => {
    expect(sorted(subtreeIds(tree, 2))).toEqual([2, 3, 4, 5]);
    const found = filterTree(tree, (n) => n.id === 4);
    expect(found.map((n) => n.id)).toEqual([1]);
    expect(found[0]!.children.map((n) => n.id)).toEqual([2]);
    expect(found[0]!.children[0]!.children.map((n) => n.id)).toEqual([4]);
  });
});

describe('grant editor', () => {
  it('checking a button checks its page and directory', () => {
    expect(sorted(toggleGrant(idx, new Set(), 4, true))).toEqual([1, 2, 4]);
  });
  it('checking a page checks its buttons; unchecking one button keeps the page', () => {
    const page = toggleGrant(idx, new Set(), 2, true);
    expect(sorted(page)).toEqual([1, 2, 3, 4, 5]);
    expect(sorted(toggleGrant(idx, page, 5, false))).toEqual([1, 2, 3, 4]);
  });
  it('unchecking a directory clears what is below it', () => {
    const all = toggleGrant(idx, new Set(), 1, true);
    expect(sorted(all)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(sorted(toggleGrant(idx, all, 1, false))).toEqual([]);
  });
  it('never adds or removes nodes the caller cannot grant', () => {
    expect(sorted(toggleGrant(idx, new Set(), 9, true))).toEqual([]);
    expect(sorted(toggleGrant(idx, new Set(), 8, true))).toEqual([7, 8]);
    const held = new Set([7, 8, 9]);
    expect(sorted(toggleGrant(idx, held, 8, false))).toEqual([7, 8, 9]);
    expect(sorted(grantNone(idx, held))).toEqual([7, 8, 9]);
    expect(sorted(grantAll(idx, new Set()))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
  it('grants only what the caller holds (a super-admin holds everything)', () => {
    expect(firstNotGrantable({ isSuper: false }, new Set([1, 2]), [1, 2])).toBeNull();
    expect(firstNotGrantable({ isSuper: false }, new Set([1, 2]), [1, 3, 4])).toBe(3);
    expect(firstNotGrantable({ isSuper: true }, new Set(), [3])).toBeNull();
  });
  it('adds the nodes above given ids, unknown parents ending the walk', () => {
    const parentOf = new Map<number, number | null>([
      [1, null],
      [2, 1],
      [3, 2],
      [6, 1],
    ]);
    expect(sorted(withAncestors([3], parentOf))).toEqual([1, 2, 3]);
    expect(sorted(withAncestors([6, 42], parentOf))).toEqual([1, 6, 42]);
  });
  it('normalizes to known ids with their ancestors and counts pages and buttons', () => {
    expect(normalizeGrants(idx, [5, 999])).toEqual([1, 2, 5]);
    expect(grantSummary(idx, new Set([1, 2, 3, 6]))).toEqual({ pages: 2, buttons: 1 });
  });
});

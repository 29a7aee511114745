/**
 * Platform access control (issue "Platform modules" item 8): menus, roles, admin users and "view as",
 * through the UI, against the real server. The key scenario: a role that sees only the acupoint page
 * with add/edit but not delete, an admin user holding it, and the server refusing the missing button.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { buildMenu, type Viewer } from '@app/contract/access';
import type { RoleNode } from '@app/contract/api/auth';
import { api, DEMO_PASSWORD, e2eSuite, screenshot, sessionKey as browserKey, settle, signIn } from '../harness';

const ROLE = 'Acupoint editor';
const USER = 'acu.editor';
const USER_PASSWORD = 'Acu-2024x';

/** Whether another feature already registers the acupoint page (it is being built in parallel). */
function acupointPageBuilt(): boolean {
  const features = path.resolve(import.meta.dirname, '../../apps/web/src/features');
  return fs.readdirSync(features).some((f) => {
    const file = path.join(features, f, 'pages.ts');
    return fs.existsSync(file) && /\bAcupointManage\s*:/.test(fs.readFileSync(file, 'utf8'));
  });
}

/** expect.poll with a timeout fit for a browser (the default second is too short under load). */
const poll = <T>(fn: () => T | Promise<T>, opts: { timeout?: number } = {}) => expect.poll(fn, { timeout: 15_000, ...opts });

const suite = e2eSuite('jurisdiction');
let context: BrowserContext;
let page: Page;

const login = (p: Page, username: string, password: string) => signIn(p, suite.server.url, username, 'platform', { password });

async function logout(p: Page) {
  await p.getByTestId('user-dropdown').click();
  await p.getByTestId('user-menu-logout').click();
  await p.waitForURL((u) => u.pathname.startsWith('/login'));
}

async function sessionKey(ctx: BrowserContext): Promise<string> {
  const key = await browserKey(ctx);
  expect(key, 'Admin-Token cookie').toBeTruthy();
  return key!;
}

/** The visible sidebar entries (route names of the menu-<name> test ids), top level and opened submenus. */
async function menuNames(p: Page): Promise<string[]> {
  const ids = await p.locator('[data-testid="sidebar-menu"] [data-testid^="menu-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
  return ids.map((id) => id.replace(/^menu-/, ''));
}

function signsOf(nodes: RoleNode[], out: string[] = []): string[] {
  for (const n of nodes) {
    out.push(n.sign);
    signsOf(n.children ?? [], out);
  }
  return out;
}

/** The menu the client builds from role_data (lib/access does the same), every page assumed built. */
function menuFromRoleData(roleData: RoleNode[]): string[] {
  const granted = new Set<string>();
  const hidden = new Set<string>();
  const walk = (nodes: RoleNode[]) =>
    nodes.forEach((n) => {
      if (n.type !== 3 || n.hidden === 0) granted.add(n.sign);
      if (n.type !== 3 && n.hidden === 1) hidden.add(n.sign);
      walk(n.children ?? []);
    });
  walk(roleData);
  const viewer: Viewer = { isAdmin: true, grade: 0, roles: ['admin'], granted };
  const names: string[] = [];
  const flat = (entries: ReturnType<typeof buildMenu>) =>
    entries.forEach((e) => {
      names.push(e.name);
      flat(e.children ?? []);
    });
  flat(buildMenu(viewer, { menuHidden: hidden }));
  return names;
}

/** Checks (or unchecks) the grant-tree checkbox of the node with this sign. */
async function toggleGrant(p: Page, sign: string) {
  const node = p.locator('.ant-tree-treenode', { has: p.getByTestId(`grant-${sign}`) });
  await node.locator('.ant-tree-checkbox').click();
}

async function isGrantChecked(p: Page, sign: string): Promise<boolean> {
  const box = p.locator('.ant-tree-treenode', { has: p.getByTestId(`grant-${sign}`) }).locator('.ant-tree-checkbox');
  return (await box.getAttribute('class'))!.includes('ant-tree-checkbox-checked');
}

/** The visible antd Select dropdown's option with this text. */
async function pickOption(p: Page, select: string, text: string) {
  await p.getByTestId(select).click();
  await p.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first().click();
  // The closing dropdown lies over the dialog's footer for a moment.
  await poll(() => p.locator('.ant-select-dropdown:visible').count()).toBe(0);
}

async function shot(p: Page, name: string) {
  await settle(p);
  await screenshot(p, name);
}

const saveButton = (dialog: Locator) => dialog.getByRole('button', { name: /^Save$/ });

beforeAll(async () => {
  ({ context, page } = await suite.open());
});

afterAll(async () => {
  await context?.close();
});

describe('platform access control', () => {
  it('admin signs in and creates a role that sees only the acupoint page, with add/edit but not delete', async () => {
    await login(page, 'admin', DEMO_PASSWORD);
    await page.goto(`${suite.server.url}/jurisdiction`);
    await page.waitForURL('**/jurisdiction/role');
    await poll(() => page.getByTestId('role-row-Super administrator').count()).toBe(1);
    // The super role: lock, no delete, no status switch.
    const superRow = page.locator('tr', { has: page.getByTestId('role-row-Super administrator') });
    await poll(() => superRow.getByTestId('super-lock').count()).toBe(1);
    expect(await superRow.getByTestId('row-action-delete').isDisabled()).toBe(true);
    expect(await superRow.locator('.ant-switch').isDisabled()).toBe(true);
    await shot(page, 'jurisdiction-roles-list');

    await page.getByTestId('role-create').click();
    const drawer = page.locator('.ant-drawer-section');
    await drawer.waitFor();
    await page.getByTestId('role-form-name').fill(ROLE);
    await page.getByTestId('role-form-description').fill('Maintains the acupoint catalogue; cannot delete');
    await page.getByTestId('grant-tree').waitFor();
    await poll(() => page.getByTestId('grant-AcupointManage').count()).toBeGreaterThan(0);
    await page.getByTestId('grant-search').fill('acupoint');
    // Checking the page checks its buttons; then take delete away.
    await toggleGrant(page, 'AcupointManage');
    expect(await isGrantChecked(page, 'acupoint:delete')).toBe(true);
    await toggleGrant(page, 'acupoint:delete');
    expect(await isGrantChecked(page, 'acupoint:delete')).toBe(false);
    expect(await isGrantChecked(page, 'AcupointManage')).toBe(true);
    expect(await isGrantChecked(page, 'acupoint:add')).toBe(true);
    expect(await isGrantChecked(page, 'acupoint:edit')).toBe(true);
    expect(await isGrantChecked(page, 'AcupointAction')).toBe(false);
    await poll(() => page.getByTestId('grant-summary').textContent()).toContain('1 pages, 2 buttons');
    await shot(page, 'jurisdiction-roles-form');
    await saveButton(drawer).click();
    await drawer.waitFor({ state: 'hidden' });
    await poll(() => page.getByTestId(`role-row-${ROLE}`).count()).toBe(1);

    // What the server stored: the page, its directory, add and edit.
    const key = await sessionKey(context);
    const list = await api(suite.server.url, 'GET', '/role/list', { key, keyword: ROLE });
    const role = list.datas.list[0];
    const detail = await api(suite.server.url, 'GET', '/role/detail', { key, id: role.id });
    const tree = await api(suite.server.url, 'GET', '/menu/tree', { key });
    const signById = new Map<number, string>();
    const index = (nodes: any[]) =>
      nodes.forEach((n) => {
        signById.set(n.id, n.sign);
        index(n.children);
      });
    index(tree.datas);
    expect(detail.datas.menu_ids.map((id: number) => signById.get(id)).sort()).toEqual(['Acupoint', 'AcupointManage', 'acupoint:add', 'acupoint:edit'].sort());
  });

  it('creates an admin user with that role; validation shows at the fields', async () => {
    await page.goto(`${suite.server.url}/jurisdiction/admin_user`);
    await poll(() => page.getByTestId('admin-row-admin').count()).toBe(1);
    // Oneself: no delete, no status switch.
    const me = page.locator('tr', { has: page.getByTestId('admin-row-admin') });
    expect(await me.getByTestId('row-action-delete').isDisabled()).toBe(true);
    await shot(page, 'jurisdiction-admins-list');

    await page.getByTestId('admin-create').click();
    const dialog = page.locator('.ant-modal-container', { has: page.getByTestId('admin-form-username') });
    await dialog.waitFor();
    await saveButton(dialog).click();
    await poll(() => dialog.locator('.ant-form-item-explain-error').count()).toBeGreaterThanOrEqual(4);
    await page.getByTestId('admin-form-username').fill(USER);
    await page.getByTestId('admin-form-name').fill('Ada Acupoint');
    await page.getByTestId('admin-form-phone').fill('+86 137 0013 7999');
    await pickOption(page, 'admin-form-role', ROLE);
    await page.getByTestId('admin-form-password').fill(USER_PASSWORD);
    await page.getByTestId('admin-form-confirm').fill(`${USER_PASSWORD}!`);
    await saveButton(dialog).click();
    await poll(() => dialog.locator('.ant-form-item-explain-error').allTextContents()).toContain('The two passwords do not match');
    await page.getByTestId('admin-form-confirm').fill(USER_PASSWORD);
    await shot(page, 'jurisdiction-admins-form');
    await saveButton(dialog).click();
    await dialog.waitFor({ state: 'hidden' });
    await poll(() => page.getByTestId(`admin-row-${USER}`).count()).toBe(1);
    const row = page.locator('tr', { has: page.getByTestId(`admin-row-${USER}`) });
    expect(await row.textContent()).toContain(ROLE);
    expect(await row.textContent()).toContain('Never');

    // A taken username comes back from the server and shows under the field. The dialog reopens after a
    // save: its Save button must be named exactly "Save" again (no "loading" icon left from the last save).
    await page.getByTestId('admin-create').click();
    await dialog.waitFor();
    await page.getByTestId('admin-form-username').fill('ADMIN');
    await page.getByTestId('admin-form-name').fill('Dup');
    await pickOption(page, 'admin-form-role', ROLE);
    await page.getByTestId('admin-form-password').fill(USER_PASSWORD);
    await page.getByTestId('admin-form-confirm').fill(USER_PASSWORD);
    await saveButton(dialog).click();
    await poll(() => dialog.locator('.ant-form-item-explain-error').allTextContents()).toContain('ADMIN already exists');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // The form holds what was typed: closing it asks first (the unsaved-changes guard).
    await page.getByRole('button', { name: 'Discard' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it("a refused status change shows the server's message and the switch reverts; passwords are reset in a dialog", async () => {
    // A user that another admin deletes while this list is on screen: the server refuses the change.
    const key = await sessionKey(context);
    const roleId = (await api(suite.server.url, 'GET', '/role/list', { key, keyword: ROLE })).datas.list[0].id;
    const temp = await api(suite.server.url, 'POST', '/admin/add', { key, username: 'temp.user', name: 'Temp', role_id: roleId, password: USER_PASSWORD });
    expect(temp.code).toBe(200);
    await page.reload();
    const sw = page.getByTestId('admin-status-temp.user');
    await sw.waitFor();
    expect(await sw.getAttribute('aria-checked')).toBe('true');
    expect((await api(suite.server.url, 'POST', '/admin/del', { key, id: temp.datas.id })).code).toBe(200);
    await sw.click();
    await poll(() => page.locator('.ant-message-error').count()).toBeGreaterThan(0);
    await poll(() => sw.getAttribute('aria-checked')).toBe('true');

    // Reset the new user's password (it signs in with the new one below).
    const row = page.locator('tr', { has: page.getByTestId(`admin-row-${USER}`) });
    await row.getByTestId('row-action-reset-password').click();
    const dialog = page.locator('.ant-modal-container', { has: page.getByTestId('reset-password-value') });
    await dialog.waitFor();
    // Below the client minimum (3): refused at the field before any call.
    await page.getByTestId('reset-password-value').fill('x');
    await page.getByTestId('reset-password-confirm').fill('x');
    await dialog.getByRole('button', { name: 'Reset password' }).click();
    await poll(() => dialog.locator('.ant-form-item-explain-error').allTextContents()).toContain('Password length cannot be less than 3');
    // Below the system parameter (8 by default): the server's message shows at the field.
    await page.getByTestId('reset-password-value').fill('abcd');
    await page.getByTestId('reset-password-confirm').fill('abcd');
    await dialog.getByRole('button', { name: 'Reset password' }).click();
    await poll(async () => (await dialog.locator('.ant-form-item-explain-error').allTextContents()).join(' ')).toMatch(/8/);
    await page.getByTestId('reset-password-value').fill(`${USER_PASSWORD}2`);
    await page.getByTestId('reset-password-confirm').fill(`${USER_PASSWORD}2`);
    await dialog.getByRole('button', { name: 'Reset password' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('menus: tree with built-in locks; a custom node is added and deleted', async () => {
    await page.goto(`${suite.server.url}/jurisdiction/menu`);
    await page.getByTestId('menu-row-AcupointManage').waitFor();
    const acuRow = page.locator('tr', { has: page.getByTestId('menu-row-AcupointManage') });
    expect(await acuRow.getByTestId('builtin-lock').count()).toBe(1);
    expect(await acuRow.getByTestId('row-action-delete').isDisabled()).toBe(true);
    await shot(page, 'jurisdiction-menus-list');

    // A built-in node: sign, type and parent are read-only.
    await acuRow.getByTestId('row-action-edit').click();
    const dialog = page.locator('.ant-modal-container', { has: page.getByTestId('menu-form-sign') });
    await dialog.waitFor();
    expect(await page.getByTestId('menu-form-sign').isDisabled()).toBe(true);
    expect(await dialog.getByTestId('builtin-alert').count()).toBe(1);
    await shot(page, 'jurisdiction-menus-form');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // A custom top-level directory, then a page under it (a button is not offered at the top).
    await page.getByTestId('menu-create').click();
    await dialog.waitFor();
    expect(await dialog.locator('.ant-radio-button-wrapper-disabled').allTextContents()).toEqual(['Button']);
    await page.getByTestId('menu-form-title-zh').fill('报表');
    await page.getByTestId('menu-form-title-en').fill('Reports');
    await page.getByTestId('menu-form-sign').fill('bad sign');
    await saveButton(dialog).click();
    await poll(() => dialog.locator('.ant-form-item-explain-error').count()).toBeGreaterThan(0);
    await page.getByTestId('menu-form-sign').fill('ReportsDir');
    await saveButton(dialog).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('menu-row-ReportsDir').waitFor();
    const custom = page.locator('tr', { has: page.getByTestId('menu-row-ReportsDir') });
    expect(await custom.getByTestId('builtin-lock').count()).toBe(0);
    await custom.getByTestId('row-action-delete').click();
    await page.getByTestId('confirm-delete-ok').click();
    // The dialog closes once the deletion succeeded (it stays open when the call fails): a failure here
    // tells a refused deletion from a list that did not refresh (the next line).
    await page.getByTestId('confirm-delete-ok').waitFor({ state: 'hidden' });
    await poll(() => page.getByTestId('menu-row-ReportsDir').count()).toBe(0);
  });

  it("view as: the banner shows, the menu becomes the role's, return restores it", async () => {
    await page.goto(`${suite.server.url}/jurisdiction/role`);
    await poll(() => menuNames(page)).toContain('Jurisdiction');
    const before = await menuNames(page);
    const row = page.locator('tr', { has: page.getByTestId('role-row-Auditor') });
    await row.getByTestId('row-action-view-as').click();
    await page.getByTestId('view-as-ok').click();
    await page.getByTestId('viewing-as').waitFor({ timeout: 20_000 });
    await page.getByTestId('view-as-return').waitFor();
    expect(await page.getByTestId('viewing-as').textContent()).toContain('Auditor');
    // The auditor reads devices and inspections: no access-control menu.
    await poll(() => menuNames(page)).not.toContain('Jurisdiction');
    const during = await menuNames(page);
    expect(during.length).toBeGreaterThan(0);
    expect(during.length).toBeLessThan(before.length);
    expect(new URL(page.url()).pathname).toBe('/dashboard/index');
    await shot(page, 'jurisdiction-view-as');

    await page.getByTestId('view-as-return').click();
    await poll(() => page.getByTestId('viewing-as').count(), { timeout: 20_000 }).toBe(0);
    await poll(() => menuNames(page)).toContain('Jurisdiction');
    await page.waitForURL('**/jurisdiction/role');
    expect(await page.getByTestId('view-as-return').count()).toBe(0);
  });

  it('view as a role with no page: the 401 page still offers the way back', async () => {
    const key = await sessionKey(context);
    // Leaving view-as made a new session, which has not re-authenticated: adding a role is a step-up call.
    expect((await api(suite.server.url, 'POST', '/auth/reauth', { key, password: DEMO_PASSWORD })).code).toBe(200);
    expect((await api(suite.server.url, 'POST', '/role/add', { key, name: 'Empty role', menu_ids: [] })).code).toBe(200);
    await page.goto(`${suite.server.url}/jurisdiction/role`);
    const row = page.locator('tr', { has: page.getByTestId('role-row-Empty role') });
    await row.getByTestId('row-action-view-as').click();
    await page.getByTestId('view-as-ok').click();
    // Nothing to open: the 401 page says so, with the "viewing as" tag and the return button.
    const forbidden = page.getByTestId('page-401');
    await forbidden.waitFor({ timeout: 20_000 });
    await forbidden.getByTestId('view-as-return').waitFor();
    expect(await forbidden.getByTestId('viewing-as').textContent()).toContain('Empty role');
    await shot(page, 'jurisdiction-view-as-empty');
    await forbidden.getByTestId('view-as-return').click();
    await page.waitForURL('**/jurisdiction/role', { timeout: 20_000 });
    await poll(() => menuNames(page)).toContain('Jurisdiction');
    expect(await page.getByTestId('viewing-as').count()).toBe(0);
    expect(await page.getByTestId('view-as-return').count()).toBe(0);
  });

  it('the new user sees only acupoints, and the server refuses acupoint:delete', async () => {
    await logout(page);
    await login(page, USER, `${USER_PASSWORD}2`);
    const key = await sessionKey(context);

    const info = await api(suite.server.url, 'GET', '/member/get_member', { key });
    expect(info.code).toBe(200);
    const signs = signsOf(info.datas.role_data);
    expect(signs.sort()).toEqual(['Acupoint', 'AcupointManage', 'acupoint:add', 'acupoint:edit'].sort());
    expect(menuFromRoleData(info.datas.role_data)).toEqual(['AcupointManage']);

    // The key works for what the role holds, and the missing button is refused as a business error (not an expired session).
    expect((await api(suite.server.url, 'GET', '/acupoint/list', { key })).code).toBe(200);
    const refused = await api(suite.server.url, 'POST', '/acupoint/del', { key, id: 1 });
    expect(refused.code).toBe(400);
    expect((await api(suite.server.url, 'GET', '/role/list', { key })).code).toBe(400);

    if (acupointPageBuilt()) {
      await page.goto(`${suite.server.url}/acupoint/management`);
      await page.getByTestId('sidebar-menu').waitFor();
      await poll(() => menuNames(page)).toEqual(['AcupointManage']);
      await page.locator('.ant-table-row').first().waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('row-action-edit').count()).toBeGreaterThan(0);
      expect(await page.getByTestId('row-action-delete').count()).toBe(0);
      await shot(page, 'jurisdiction-restricted-user');
    } else {
      // No acupoint page in the client yet: the user has no page at all, so the shell shows no sidebar entry.
      const names = (await page.getByTestId('sidebar-menu').count()) ? await menuNames(page) : [];
      expect(names).toEqual([]);
    }
  });
});

/**
 * Platform modules 5-7 in a real browser: packages, doctors, users and system parameters (grade 0).
 * Signs in through the login page, opens each page, takes screenshots (test-artifacts/people-*.png),
 * creates a package through the UI, checks the commission-sum rule at the field, the masked phone in
 * the users list against the full one in the detail drawer, and that button permissions decide what a
 * narrower role sees.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { animationsDone, api, DEMO_PASSWORD, e2eSuite, screenshot, settle, signIn as signInAt } from '../harness';

const suite = e2eSuite('people');

/** Waits for the list rows (or the given test id) of the page that is opening, and lets it settle. */
async function ready(page: Page, selector: string) {
  await page.locator(selector).first().waitFor({ state: 'visible', timeout: 20_000 });
  // Let fonts, spinners and animations settle before screenshots. Not 'networkidle': the notices stream
  // stays open for as long as the page does, so the network is never idle.
  await page.evaluate(() => document.fonts.ready);
  await settle(page);
}

/** Opens a page by its address (a second app load) and waits for it (see ready). */
async function open(page: Page, path: string, selector: string) {
  await page.goto(`${suite.server.url}${path}`);
  await ready(page, selector);
}

/** Signs in on the login page that opens `path` (the app loads once) and waits for it (see ready). */
async function signInTo(page: Page, path: string, selector: string, username = 'admin', password = DEMO_PASSWORD) {
  await signInAt(page, suite.server.url, username, 'platform', { password, to: path });
  await ready(page, selector);
}

const rows = (page: Page, list: string) => page.locator(`[data-testid="${list}"] .ant-table-tbody tr.ant-table-row`);
const modal = (page: Page, testId: string) => page.locator(`.ant-modal[data-testid="${testId}"], [data-testid="${testId}"] .ant-modal`).first();
/** The error texts shown under a form item. */
const fieldErrors = (item: ReturnType<Page['locator']>) => item.locator('.ant-form-item-explain-error');

describe('packages', () => {
  it('lists, validates the commission sum at the field, and creates a package through the UI', async () => {
    const { context, page } = await suite.open();
    await signInTo(page, '/package-manage/index', '[data-testid="package-list"] .ant-table-row');
    expect(await rows(page, 'package-list').count()).toBe(6);
    // Price as money, rates as percentages.
    const first = rows(page, 'package-list').first();
    await expect.poll(() => first.innerText()).toMatch(/10 inspections/);
    expect(await first.innerText()).toMatch(/CN¥99\.00/);
    expect(await first.innerText()).toMatch(/20%/);
    await screenshot(page, 'people-packages-list');

    await page.getByTestId('package-create').click();
    const form = page.getByTestId('package-form-form');
    await form.waitFor({ state: 'visible' });
    await page.getByTestId('package-name').fill('E2E 12 inspections');
    await page.getByTestId('package-uses').fill('12');
    await page.getByTestId('package-price').fill('129.90');
    await page.getByTestId('package-rate-l1').fill('60');
    await page.getByTestId('package-rate-l2').fill('50');
    await page.getByTestId('package-sort').fill('70');
    await page.getByTestId('package-name').click();
    // The live hint and the field error: 110% is refused before anything is sent.
    await expect.poll(() => page.getByTestId('package-rate-total').innerText()).toMatch(/110%/);
    const okButton = modal(page, 'package-form').locator('.ant-modal-footer .ant-btn-primary');
    await okButton.click();
    const l2Item = form.locator('.ant-form-item').filter({ has: page.getByTestId('package-rate-l2') });
    await expect.poll(() => fieldErrors(l2Item).allInnerTexts()).toEqual([expect.stringMatching(/cannot exceed 100%/)]);
    await animationsDone(page);
    await screenshot(page, 'people-packages-form-error');

    await page.getByTestId('package-rate-l2').fill('10');
    await page.getByTestId('package-name').click();
    await expect.poll(() => fieldErrors(l2Item).count()).toBe(0);
    await expect.poll(() => page.getByTestId('package-rate-total').innerText()).toMatch(/70%.*CN¥90\.93/);
    await animationsDone(page);
    await screenshot(page, 'people-packages-form');
    await okButton.click();
    await form.waitFor({ state: 'hidden' });

    // The new package is in the list (7 rows), with exact cents and basis points on the server.
    await expect.poll(() => rows(page, 'package-list').count()).toBe(7);
    const created = rows(page, 'package-list').filter({ hasText: 'E2E 12 inspections' });
    expect(await created.innerText()).toMatch(/CN¥129\.90[\s\S]*60%[\s\S]*10%/);
    const key = (await api(suite.server.url, 'POST', '/login/login', { username: 'admin', password: DEMO_PASSWORD })).datas.key;
    const list = await api(suite.server.url, 'GET', '/package/list', { key, keyword: 'E2E' });
    expect(list.datas.list[0]).toMatchObject({ price_cents: 12990, commission_rate_l1_bp: 6000, commission_rate_l2_bp: 1000, uses: 12, status: 'off_sale' });

    // A server field error lands at the field: the name is already taken.
    await page.getByTestId('package-create').click();
    await form.waitFor({ state: 'visible' });
    await page.getByTestId('package-name').fill('10 inspections');
    await page.getByTestId('package-uses').fill('10');
    await page.getByTestId('package-price').fill('1');
    await okButton.click();
    const nameItem = form.locator('.ant-form-item').filter({ has: page.getByTestId('package-name') });
    await expect.poll(() => fieldErrors(nameItem).allInnerTexts()).toEqual([expect.stringMatching(/already exists/)]);
    await modal(page, 'package-form').locator('.ant-modal-footer .ant-btn').first().click();
    // The form holds what was typed: closing it asks first (the unsaved-changes guard).
    await page.getByRole('button', { name: 'Discard' }).click();
    await form.waitFor({ state: 'hidden' });

    // Status switch in the row: put the new package on sale.
    const status = created.locator('button[role="switch"]');
    expect(await status.getAttribute('aria-checked')).toBe('false');
    await status.click();
    await expect.poll(() => status.getAttribute('aria-checked')).toBe('true');

    // Delete: refused with a hint while on sale; an off-sale package goes after confirmation.
    await created.getByTestId('row-action-delete').click();
    await expect.poll(() => page.locator('.ant-message').innerText()).toMatch(/off sale before deleting/);
    const trial = rows(page, 'package-list').filter({ hasText: 'Trial: 1 inspection' });
    await trial.getByTestId('row-action-delete').click();
    await page.getByTestId('confirm-delete-ok').click();
    // The dialog closes once the deletion succeeded (it stays open when the call fails).
    await page.getByTestId('confirm-delete-ok').waitFor({ state: 'hidden' });
    await expect.poll(() => trial.count()).toBe(0);
    await expect.poll(() => rows(page, 'package-list').count()).toBe(6);

    // Filters live in the URL.
    await page.getByTestId('filter-keyword').fill('E2E');
    await page.getByTestId('filter-search').click();
    await expect.poll(() => rows(page, 'package-list').count()).toBe(1);
    expect(page.url()).toMatch(/keyword=E2E/);
    await context.close();
  });

  it('shows the packages list in Chinese', async () => {
    const { context, page } = await suite.open({ locale: 'zh-CN' });
    await signInTo(page, '/package-manage/index', '[data-testid="package-list"] .ant-table-row');
    const text = await page.getByTestId('package-list').innerText();
    expect(text).toMatch(/套餐名称/);
    expect(text).toMatch(/¥99\.00/);
    await screenshot(page, 'people-packages-list-zh');
    await context.close();
  });
});

describe('a save while the network is down', () => {
  it('says so at once and keeps the dialog with its values; back online, the same Save goes through', async () => {
    const { context, page } = await suite.open();
    await signInTo(page, '/package-manage/index', '[data-testid="package-list"] .ant-table-row');
    await page.getByTestId('package-create').click();
    const form = page.getByTestId('package-form-form');
    await form.waitFor({ state: 'visible' });
    await page.getByTestId('package-name').fill('Offline package');
    await page.getByTestId('package-uses').fill('3');
    await page.getByTestId('package-price').fill('9.90');
    const okButton = modal(page, 'package-form').locator('.ant-modal-footer .ant-btn-primary');
    // The browser says it is offline (and fires "offline"): the call fails at once, it is not held back
    // until the browser says it is online again.
    await context.setOffline(true);
    await okButton.click();
    await expect.poll(() => page.locator('.ant-message').innerText()).toMatch(/try again later/);
    await expect.poll(() => okButton.getAttribute('class')).not.toMatch(/ant-btn-loading/);
    expect(await page.getByTestId('package-name').inputValue()).toBe('Offline package');
    await screenshot(page, 'people-packages-offline');
    await context.setOffline(false);
    await okButton.click();
    await form.waitFor({ state: 'hidden' });
    await expect.poll(() => rows(page, 'package-list').filter({ hasText: 'Offline package' }).count()).toBe(1);
    await context.close();
  });
});

describe('doctors', () => {
  it('lists masked phones, shows the full one in the detail drawer, and opens the form', async () => {
    const { context, page } = await suite.open();
    await signInTo(page, '/searchers/management', '[data-testid="doctor-list"] .ant-table-row');
    expect(await rows(page, 'doctor-list').count()).toBeGreaterThan(5);
    const masked = await page.getByTestId('doctor-phone-masked').first().innerText();
    expect(masked).toContain('****');
    await screenshot(page, 'people-doctors-list');

    await rows(page, 'doctor-list').first().getByTestId('row-action-view').click();
    const phone = page.getByTestId('doctor-detail-phone');
    await phone.waitFor({ state: 'visible' });
    const full = (await phone.innerText()).trim();
    expect(full).not.toContain('*');
    expect(full.startsWith(masked.split('*')[0]!)).toBe(true);
    expect(full.endsWith(masked.split('*').at(-1)!)).toBe(true);
    await animationsDone(page);
    await screenshot(page, 'people-doctors-detail');
    await page.locator('.ant-drawer-close').click();

    await rows(page, 'doctor-list').first().getByTestId('row-action-edit').click();
    await page.getByTestId('doctor-form-form').waitFor({ state: 'visible' });
    // Edit starts from the detail: the full phone, not the masked one.
    expect(await page.getByTestId('doctor-phone').inputValue()).toBe(full);
    await page.getByTestId('doctor-phone').fill('12ab');
    await page.getByTestId('doctor-name').click();
    const phoneItem = page
      .getByTestId('doctor-form-form')
      .locator('.ant-form-item')
      .filter({ has: page.getByTestId('doctor-phone') });
    await expect.poll(() => fieldErrors(phoneItem).allInnerTexts()).toEqual([expect.stringMatching(/5 to 20 digits/)]);
    await animationsDone(page);
    await screenshot(page, 'people-doctors-form');
    await modal(page, 'doctor-form').locator('.ant-modal-footer .ant-btn').first().click();
    // The form holds what was typed: closing it asks first (the unsaved-changes guard).
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.getByTestId('doctor-form-form').waitFor({ state: 'hidden' });

    // Create through the UI: the institution comes from the tree select.
    await page.getByTestId('doctor-create').click();
    await page.getByTestId('doctor-form-form').waitFor({ state: 'visible' });
    await page.getByTestId('doctor-name').fill('E2E Doctor');
    await page.getByTestId('doctor-phone').fill('139 0000 1234');
    await page.getByTestId('doctor-institution').click();
    await page.locator('.ant-select-tree-node-content-wrapper').filter({ hasText: 'West Lake Wellness Clinic' }).first().click();
    await modal(page, 'doctor-form').locator('.ant-modal-footer .ant-btn-primary').click();
    await page.getByTestId('doctor-form-form').waitFor({ state: 'hidden' });
    const added = rows(page, 'doctor-list').filter({ hasText: 'E2E Doctor' });
    await expect.poll(() => added.count()).toBe(1);
    expect(await added.innerText()).toMatch(/139\*{4}1234[\s\S]*West Lake Wellness Clinic/);
    await context.close();
  });
});

describe('users', () => {
  it('masks phone and ID in the list and shows them in full in the detail drawer', async () => {
    const { context, page } = await suite.open();
    await signInTo(page, '/user/management', '[data-testid="user-list"] .ant-table-row');
    expect(await page.getByTestId('list-total').innerText()).toMatch(/40/);
    await screenshot(page, 'people-users-list');

    const row = rows(page, 'user-list')
      .filter({ has: page.getByTestId('user-phone-masked') })
      .first();
    const masked = (await row.getByTestId('user-phone-masked').innerText()).trim();
    expect(masked).toContain('****');
    await row.getByTestId('row-action-view').click();
    const phone = page.getByTestId('user-detail-phone');
    await phone.waitFor({ state: 'visible' });
    const full = (await phone.innerText()).trim();
    expect(full).not.toContain('*');
    expect(full.length).toBeGreaterThan(masked.replace(/\*+/, '').length);
    expect(full.startsWith(masked.split('*')[0]!)).toBe(true);
    expect(full.endsWith(masked.split('*').at(-1)!)).toBe(true);
    const id = page.getByTestId('user-detail-id-number');
    if (await id.count()) expect(await id.innerText()).not.toContain('*');
    await animationsDone(page);
    await screenshot(page, 'people-users-detail');

    // Edit from the drawer: phone and ID are not required in full; saving keeps them.
    await page.getByTestId('user-detail').getByRole('button', { name: /Edit/ }).click();
    const form = page.getByTestId('user-form-form');
    await form.waitFor({ state: 'visible' });
    expect(await page.getByTestId('user-phone').inputValue()).toBe('');
    await animationsDone(page);
    await screenshot(page, 'people-users-form');
    const name = page.getByTestId('user-name');
    const newName = `${await name.inputValue()} E2E`;
    await name.fill(newName);
    await modal(page, 'user-form').locator('.ant-modal-footer .ant-btn-primary').click();
    await form.waitFor({ state: 'hidden' });
    const edited = rows(page, 'user-list').filter({ hasText: newName });
    await expect.poll(() => edited.count()).toBe(1);
    expect((await edited.getByTestId('user-phone-masked').innerText()).trim()).toBe(masked);
    await context.close();
  });
});

describe('system parameters', () => {
  it('renders the typed form, marks changes, refuses bad values at the field and saves', async () => {
    const { context, page } = await suite.open();
    await signInTo(page, '/system/params-setting', '[data-testid="params-form"]');
    expect(await page.getByTestId('params-dirty').getAttribute('data-count')).toBe('0');
    expect(await page.getByTestId('param-min_payout_cents').inputValue()).toBe('100.00');
    await screenshot(page, 'people-params-list');

    // The rule between parameters, at the field.
    await page.getByTestId('param-session_absolute_hours').fill('1');
    await page.getByTestId('param-site_title').click();
    const idle = page.getByTestId('param-item-session_idle_minutes');
    await expect.poll(() => fieldErrors(idle).allInnerTexts()).toEqual([expect.stringMatching(/idle timeout cannot be longer/)]);
    await page.getByTestId('param-reset-session_absolute_hours').click();
    await expect.poll(() => fieldErrors(idle).count()).toBe(0);

    await page.getByTestId('param-site_title').fill('E2E Console');
    await page.getByTestId('param-min_payout_cents').fill('50.5');
    await page.getByTestId('param-site_title').click();
    await expect.poll(() => page.getByTestId('params-dirty').getAttribute('data-count')).toBe('2');
    expect(await page.getByTestId('param-modified-site_title').isVisible()).toBe(true);
    await screenshot(page, 'people-params-form');
    await page.getByTestId('params-group-reports').scrollIntoViewIfNeeded();
    await screenshot(page, 'people-params-form-bottom');
    await page.getByTestId('params-save').click();
    await expect.poll(() => page.getByTestId('params-dirty').getAttribute('data-count')).toBe('0');
    const pub = await api(suite.server.url, 'GET', '/params/public');
    expect(pub.datas.site_title).toBe('E2E Console');
    // The browser tab shows the new title at once.
    await expect.poll(() => page.title()).toMatch(/ - E2E Console$/);
    expect(await page.getByTestId('param-min_payout_cents').inputValue()).toBe('50.50');
    await context.close();
  });
});

describe('button permissions', () => {
  it('a role without user:detail and params:edit sees no "view" action and a read-only parameters form', async () => {
    const login = await api(suite.server.url, 'POST', '/login/login', { username: 'admin', password: DEMO_PASSWORD });
    const key = login.datas.key as string;
    const tree = await api(suite.server.url, 'GET', '/menu/tree', { key });
    const ids = new Map<string, number>();
    const walk = (nodes: { id: number; sign: string; children: unknown[] }[]) =>
      nodes.forEach((n) => {
        ids.set(n.sign, n.id);
        walk(n.children as never);
      });
    walk(tree.datas);
    const signs = ['UserParent', 'UserManage', 'user:edit', 'System', 'ParamsSetting'];
    const role = await api(suite.server.url, 'POST', '/role/add', { key, name: 'E2E user clerk', menu_ids: signs.map((s) => ids.get(s)) });
    expect(role.code).toBe(200);
    const roleId = role.datas.id ?? (await api(suite.server.url, 'GET', '/role/list', { key, keyword: 'E2E user clerk' })).datas.list[0].id;
    const admin = await api(suite.server.url, 'POST', '/admin/add', { key, username: 'e2e-clerk', password: 'clerk-pass-1', name: 'E2E Clerk', role_id: roleId });
    expect(admin.code).toBe(200);

    const { context, page } = await suite.open();
    await signInTo(page, '/user/management', '[data-testid="user-list"] .ant-table-row', 'e2e-clerk', 'clerk-pass-1');
    expect(await page.getByTestId('row-action-view').count()).toBe(0);
    expect(await page.getByTestId('row-action-edit').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('row-action-delete').count()).toBe(0);
    expect(await page.getByTestId('user-create').count()).toBe(0);

    await open(page, '/system/params-setting', '[data-testid="params-form"]');
    expect(await page.getByTestId('params-readonly').isVisible()).toBe(true);
    expect(await page.getByTestId('param-site_title').isDisabled()).toBe(true);
    expect(await page.getByTestId('params-save').count()).toBe(0);
    await screenshot(page, 'people-params-readonly');
    await context.close();
  });
});

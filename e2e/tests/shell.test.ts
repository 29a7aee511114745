/**
 * The admin shell end to end (issue "Foundation" e2e): menus per grade and role, the navigation
 * guard, the tags view and keep-alive, the language picker, change password, the 999 and 998
 * contracts and the mobile drawer, in Chromium against the real server (demo seed, fresh data).
 * Screenshots: test-artifacts/shell-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page, Response } from 'playwright-core';
import { api, builtPages, DEMO_PASSWORD, e2eSuite, type LoginKind, pickDropdownItem, poll, screenshot, sessionKey, settle, signIn as signInAt, submitLogin } from '../harness';

type Kind = LoginKind;

const suite = e2eSuite('shell');
const open = suite.open;

const signIn = (page: Page, username: string, kind: Kind, password = DEMO_PASSWORD) => signInAt(page, suite.server.url, username, kind, { password });

const pageFrame = (page: Page, routeName: string) => page.locator(`.page-frame[data-page="${routeName}"]`);
const tableRows = (scope: Locator) => scope.locator('.ant-table-tbody tr.ant-table-row');

// ---------------------------------------------------------------------------------------------
// Expected menus: packages/contract/src/access.test.ts, limited to the screens that are built.

const BUILT = builtPages();

/** `Name@/path` leaves (and the page that must be built, when it differs from Name), or `{ Parent: leaves }`. */
type Shape = string | { [parent: string]: string[] };
const INSTITUTIONAL: Shape = {
  Institutional: ['InstitutionList@/institutional/index', 'InspectionApply@/institutional/inspection-apply', 'InstitutionEndRecord@/institutional/institution-end-record'],
};
const FINANCE: Shape = { FinanceRecord: ['FinanceRecordList@/finance-record/index', 'PayoutManage@/finance-record/payout-manage', 'DeviceEndRecord@/finance-record/device-end-record'] };
const MENU_ADMIN: Shape[] = [
  'EquipmentStats@/stats/equipment',
  'DeviceList@/dashboard/index',
  INSTITUTIONAL,
  'PackageManage@/package-manage/index',
  FINANCE,
  'DistributionRecord@/distribution-record/index',
  'DoctorManage@/searchers/management',
  'UserManage@/user/management',
  'InspectionList@/inspection/management',
  { Disease: ['DiseaseManage@/disease/management', 'SystemManage@/disease/management2'] },
  'AcupointManage@/acupoint/management',
  'SchematicManage@/schematic/management',
  { Jurisdiction: ['RoleManage@/jurisdiction/role', 'MenuManage@/jurisdiction/menu', 'AdminUserManage@/jurisdiction/admin_user'] },
  { System: ['ParamsSetting@/system/params-setting', 'AuditLog@/system/audit-log'] },
];
const MENU_AUDITOR: Shape[] = ['DeviceList@/dashboard/index', 'InspectionList@/inspection/management'];
// "Stats" opens finance stats: it is there when FinanceStats is built.
const MENU_GRADE_1_2: Shape[] = ['Stats@/stats/finance#FinanceStats', 'DeviceList@/dashboard/index', INSTITUTIONAL, FINANCE, 'InspectionList@/inspection/management'];
const MENU_GRADE_3: Shape[] = ['DeviceList@/dashboard/index', INSTITUTIONAL, 'InspectionList@/inspection/management'];

interface Leaf {
  name: string;
  path: string;
}
/** The menu the sidebar must show: entry names in order (parents before their children) and leaf paths. */
function expectedMenu(shape: Shape[], built = BUILT): { names: string[]; leaves: Leaf[] } {
  const leaf = (s: string): Leaf & { page: string } => {
    const [, name, p, page] = /^(\w+)@([^#]+)(?:#(\w+))?$/.exec(s)!;
    return { name: name!, path: p!, page: page ?? name! };
  };
  const names: string[] = [];
  const leaves: Leaf[] = [];
  for (const entry of shape) {
    if (typeof entry === 'string') {
      const l = leaf(entry);
      if (built.has(l.page)) {
        names.push(l.name);
        leaves.push({ name: l.name, path: l.path });
      }
      continue;
    }
    const [parent, children] = Object.entries(entry)[0]!;
    const kept = children.map(leaf).filter((l) => built.has(l.page));
    if (kept.length > 1) names.push(parent);
    for (const l of kept) {
      names.push(l.name);
      leaves.push({ name: l.name, path: l.path });
    }
  }
  return { names, leaves };
}

/** Opens every submenu of the sidebar, then reads the entries (menu-<name> test ids) and the leaf paths (menu keys). */
async function sidebarMenu(page: Page): Promise<{ names: string[]; leaves: Leaf[] }> {
  const menu = page.getByTestId('sidebar-menu');
  await menu.waitFor();
  for (let i = 0; i < 20; i++) {
    const closed = menu.locator('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
    if (!(await closed.count())) break;
    await closed.first().click();
  }
  await poll(() => menu.locator('.ant-menu-submenu-inline:not(.ant-menu-submenu-open)').count()).toBe(0);
  return menu.evaluate((root) => {
    const names = [...root.querySelectorAll('[data-testid^="menu-"]')].map((e) => e.getAttribute('data-testid')!.slice('menu-'.length));
    const leaves = [...root.querySelectorAll('li.ant-menu-item')].map((li) => {
      const id = li.getAttribute('data-menu-id') ?? '';
      return { name: li.querySelector('[data-testid^="menu-"]')!.getAttribute('data-testid')!.slice('menu-'.length), path: id.slice(id.indexOf('-/') + 1) };
    });
    return { names, leaves };
  });
}

// ---------------------------------------------------------------------------------------------
// Demo institution tree (apps/server/src/seed/foundation.ts): institution names per subtree.
const INST = {
  agent1: 'East China Regional Agency',
  agent2: 'Hangzhou Sub-agency',
  clinic3: 'West Lake Wellness Clinic',
  overdue3: 'Binjiang Health Store',
  agent1b: 'South China Regional Agency',
  agent2b: 'Guangzhou Sub-agency',
  clinic3b: 'Tianhe Recovery Clinic',
};
const ALL_INST = Object.values(INST);

interface Account {
  username: string;
  kind: Kind;
  menu: Shape[];
  subtree: string[] | 'all';
}
const ACCOUNTS: Account[] = [
  { username: 'admin', kind: 'platform', menu: MENU_ADMIN, subtree: 'all' },
  { username: 'auditor', kind: 'platform', menu: MENU_AUDITOR, subtree: 'all' },
  { username: 'agent1', kind: 'institution', menu: MENU_GRADE_1_2, subtree: [INST.agent1, INST.agent2, INST.clinic3, INST.overdue3] },
  { username: 'agent2', kind: 'institution', menu: MENU_GRADE_1_2, subtree: [INST.agent2, INST.clinic3, INST.overdue3] },
  { username: 'clinic3', kind: 'institution', menu: MENU_GRADE_3, subtree: [INST.clinic3] },
  { username: 'agent1b', kind: 'institution', menu: MENU_GRADE_1_2, subtree: [INST.agent1b, INST.agent2b, INST.clinic3b] },
  { username: 'clinic3b', kind: 'institution', menu: MENU_GRADE_3, subtree: [INST.clinic3b] },
];

describe('menus and scope per account', () => {
  it('the expected menus agree with the contract test for what is built now', () => {
    // Guards the helper above: with today's features the admin sees exactly these entries.
    const today = new Set([
      'DeviceList',
      'PackageManage',
      'DoctorManage',
      'UserManage',
      'DiseaseManage',
      'SystemManage',
      'AcupointManage',
      'SchematicManage',
      'RoleManage',
      'MenuManage',
      'AdminUserManage',
      'ParamsSetting',
      'AuditLog',
    ]);
    expect(expectedMenu(MENU_ADMIN, today).names).toEqual([
      'DeviceList',
      'PackageManage',
      'DoctorManage',
      'UserManage',
      'Disease',
      'DiseaseManage',
      'SystemManage',
      'AcupointManage',
      'SchematicManage',
      'Jurisdiction',
      'RoleManage',
      'MenuManage',
      'AdminUserManage',
      'System',
      'ParamsSetting',
      'AuditLog',
    ]);
    for (const shape of [MENU_AUDITOR, MENU_GRADE_1_2, MENU_GRADE_3]) expect(expectedMenu(shape, today).names).toEqual(['DeviceList']);
    for (const name of today) expect(BUILT.has(name), `${name} is built`).toBe(true);
  });

  it.each(ACCOUNTS)('$username ($kind) sees its menu and only its subtree in the device list', async (account) => {
    const { context, page } = await open();
    await signIn(page, account.username, account.kind);
    const expected = expectedMenu(account.menu);
    // Lands on the device list (the home page, `/`), which every account may open; Stats comes first in the menu.
    await page.waitForURL((u) => u.pathname === '/dashboard/index');
    const shown = await sidebarMenu(page);
    expect(shown.names).toEqual(expected.names);
    expect(shown.leaves).toEqual(expected.leaves);

    // Device list: the whole subtree on one page, compared with what the server gives this key.
    const key = await sessionKey(context);
    expect(key).toBeTruthy();
    const answer = await api(suite.server.url, 'GET', '/equipment/list', { key: key!, page: 1, limit: 100 });
    expect(answer.code).toBe(200);
    const serverNames = new Set<string>(answer.datas.list.map((d: { institution_name: string | null }) => d.institution_name ?? '(stock)'));
    const allowed = account.subtree === 'all' ? [...ALL_INST, '(stock)'] : account.subtree;
    expect(
      [...serverNames].every((n) => allowed.includes(n)),
      `server scope ${[...serverNames].join(', ')}`,
    ).toBe(true);
    if (account.subtree !== 'all') expect([...serverNames].sort()).toEqual([...account.subtree].sort());

    await page.goto(`${suite.server.url}/dashboard/index?limit=100`);
    const list = pageFrame(page, 'DeviceList').getByTestId('device-list');
    await poll(() => tableRows(list).count(), 20_000).toBe(answer.datas.total);
    expect(await list.getByTestId('list-total').innerText()).toMatch(new RegExp(`\\b${answer.datas.total}\\b`));
    const headers = await list.locator('.ant-table-thead th').allInnerTexts();
    const col = headers.findIndex((h) => h.trim() === 'Institution');
    expect(col).toBeGreaterThanOrEqual(0);
    const cells = await tableRows(list)
      .locator(`td:nth-child(${col + 1})`)
      .allInnerTexts();
    const shownNames = new Set(cells.map((c) => (c.trim() === 'Platform stock' ? '(stock)' : c.trim())));
    expect([...shownNames].sort()).toEqual([...serverNames].sort());
    if (account.subtree !== 'all') for (const other of ALL_INST.filter((n) => !account.subtree.includes(n))) expect(cells).not.toContain(other);
    await context.close();
  });
});

describe('navigation guard', () => {
  it('sends a visitor to /login with ?redirect= and back after signing in; /login with a key goes to the app; unknown paths 404', async () => {
    const { context, page } = await open();
    await page.goto(`${suite.server.url}/package-manage/index`);
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/package-manage/index');
    expect(page.url()).toMatch(/redirect=%2Fpackage-manage%2Findex/);
    await page.getByTestId('login-form').waitFor();
    await submitLogin(page, 'admin', 'platform');
    await page.waitForURL((u) => u.pathname === '/package-manage/index', { timeout: 20_000 });
    await tableRows(pageFrame(page, 'PackageManage')).first().waitFor({ timeout: 20_000 });

    // With a key, /login leads into the app.
    await page.goto(`${suite.server.url}/login`);
    await page.waitForURL((u) => u.pathname === '/dashboard/index');
    await pageFrame(page, 'DeviceList').getByTestId('device-list').waitFor();
    expect(await page.getByTestId('login-form').count()).toBe(0);

    // An unknown path shows the 404 page.
    await page.goto(`${suite.server.url}/no-such/page`);
    await page.waitForURL((u) => u.pathname === '/404');
    await page.getByTestId('page-404').waitFor();

    // A refresh on a deep link lands on that page with its state (page 2 of the acupoints).
    await page.goto(`${suite.server.url}/acupoint/management?page=2`);
    const acupoints = pageFrame(page, 'AcupointManage');
    await tableRows(acupoints).first().waitFor({ timeout: 20_000 });
    const activePage = acupoints.locator('.ant-pagination-item-active');
    expect(await activePage.innerText()).toBe('2');
    const secondPage = await tableRows(acupoints).allInnerTexts();
    await page.reload();
    await tableRows(pageFrame(page, 'AcupointManage')).first().waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/acupoint/management');
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await pageFrame(page, 'AcupointManage').locator('.ant-pagination-item-active').innerText()).toBe('2');
    await poll(() => tableRows(pageFrame(page, 'AcupointManage')).allInnerTexts()).toEqual(secondPage);
    expect(await page.locator('[data-testid="tag"][aria-selected="true"]').getAttribute('data-path')).toBe('/acupoint/management');
    await context.close();
  });

  it('a grade-3 user opening a grade-0 page gets 401, not the page', async () => {
    const { context, page } = await open();
    await signIn(page, 'clinic3', 'institution');
    await page.goto(`${suite.server.url}/package-manage/index`);
    await page.waitForURL((u) => u.pathname === '/401');
    await page.getByTestId('page-401').waitFor();
    expect(await page.locator('[data-page="PackageManage"]').count()).toBe(0);
    expect(await page.getByTestId('menu-PackageManage').count()).toBe(0);
    await context.close();
  });
});

describe('tags view and keep-alive', () => {
  it('opens, closes, closes others, closes all; the home tag stays; keep-alive survives a tab switch but not a refresh', async () => {
    const { context, page } = await open();
    await signIn(page, 'admin', 'platform');
    const tags = () => page.getByTestId('tag').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
    const tag = (p: string) => page.locator(`[data-testid="tag"][data-path="${p}"]`);
    const go = async (name: string, p: string) => {
      await page.getByTestId(`menu-${name}`).click();
      await page.waitForURL((u) => u.pathname === p);
      await poll(() => tag(p).getAttribute('aria-selected')).toBe('true');
    };
    await sidebarMenu(page); // opens the submenus
    await go('PackageManage', '/package-manage/index');
    await go('DoctorManage', '/searchers/management');
    await go('AcupointManage', '/acupoint/management');
    await go('UserManage', '/user/management');
    expect(await tags()).toEqual(['/dashboard/index', '/package-manage/index', '/searchers/management', '/acupoint/management', '/user/management']);
    // The home tag is affixed: no close button; the others have one.
    expect(await tag('/dashboard/index').getAttribute('data-affix')).toBe('1');
    expect(await tag('/dashboard/index').getByTestId('tag-close').count()).toBe(0);
    for (const p of ['/package-manage/index', '/searchers/management', '/acupoint/management', '/user/management']) expect(await tag(p).getByTestId('tag-close').count()).toBe(1);

    // Close one that is not active: the page stays.
    await tag('/searchers/management').getByTestId('tag-close').click();
    await poll(tags).toEqual(['/dashboard/index', '/package-manage/index', '/acupoint/management', '/user/management']);
    expect(new URL(page.url()).pathname).toBe('/user/management');
    expect(await page.locator('[data-page="DoctorManage"]').count()).toBe(0);
    // Close the active one: its left neighbour opens.
    await tag('/user/management').getByTestId('tag-close').click();
    await page.waitForURL((u) => u.pathname === '/acupoint/management');
    await poll(tags).toEqual(['/dashboard/index', '/package-manage/index', '/acupoint/management']);

    // Close others (context menu of the active tag): the affix tag and this one stay.
    await go('DoctorManage', '/searchers/management');
    await tag('/acupoint/management').click();
    await page.waitForURL((u) => u.pathname === '/acupoint/management');
    await tag('/acupoint/management').click({ button: 'right' });
    await pickDropdownItem(page, 'tag-action-close-others');
    await poll(tags).toEqual(['/dashboard/index', '/acupoint/management']);
    expect(new URL(page.url()).pathname).toBe('/acupoint/management');

    // Close all (actions button): only the affix tag is left, and it opens.
    await go('PackageManage', '/package-manage/index');
    await page.getByTestId('tags-actions').click();
    await pickDropdownItem(page, 'tag-action-close-all');
    await poll(tags).toEqual(['/dashboard/index']);
    await page.waitForURL((u) => u.pathname === '/dashboard/index');
    await poll(() => page.locator('[data-page="PackageManage"], [data-page="AcupointManage"]').count()).toBe(0);

    // Keep-alive: a typed (not submitted) filter survives switching to another tab and back…
    const keyword = pageFrame(page, 'DeviceList').getByTestId('filter-keyword');
    await keyword.fill('BE2400');
    await go('PackageManage', '/package-manage/index');
    expect(await keyword.isVisible()).toBe(false);
    await tag('/dashboard/index').click();
    await page.waitForURL((u) => u.pathname === '/dashboard/index');
    await keyword.waitFor({ state: 'visible' });
    expect(await keyword.inputValue()).toBe('BE2400');
    expect(new URL(page.url()).searchParams.get('keyword')).toBeNull();
    // …and "Refresh" remounts the page: the input is empty again.
    await page.getByTestId('tags-actions').click();
    await pickDropdownItem(page, 'tag-action-refresh');
    await page.waitForURL((u) => u.pathname === '/dashboard/index');
    await poll(() => keyword.inputValue()).toBe('');
    await tableRows(pageFrame(page, 'DeviceList')).first().waitFor();
    expect(await tags()).toEqual(['/dashboard/index', '/package-manage/index']);
    await context.close();
  });
});

describe('languages', () => {
  const LANGS = [
    { lang: 'zh', html: 'zh-CN', device: '设备列表', perPage: '条/页', column: '所属机构' },
    { lang: 'en', html: 'en-US', device: 'Device list', perPage: '/ page', column: 'Institution' },
    { lang: 'es', html: 'es-ES', device: 'Lista de equipos', perPage: '/ página', column: 'Institución' },
    { lang: 'ja', html: 'ja-JP', device: '機器一覧', perPage: '件 / ページ', column: '所属機関' },
  ] as const;

  it('switches among 中文, English, Español and 日本語; a reload keeps the choice', async () => {
    const { context, page } = await open();
    await signIn(page, 'admin', 'platform');
    const list = pageFrame(page, 'DeviceList').getByTestId('device-list');
    await tableRows(list).first().waitFor();
    const texts = async () => ({
      html: await page.evaluate(() => document.documentElement.lang),
      device: (await page.getByTestId('menu-DeviceList').innerText()).trim(),
      perPage: (await list.locator('.ant-pagination-options').innerText()).trim(),
      column: (await list.locator('.ant-table-thead th').allInnerTexts()).map((h) => h.trim()),
    });
    const check = async (l: (typeof LANGS)[number]) => {
      await poll(async () => {
        const s = await texts();
        return { html: s.html, device: s.device, perPage: s.perPage.includes(l.perPage), column: s.column.includes(l.column) };
      }).toEqual({ html: l.html, device: l.device, perPage: true, column: true });
    };
    await check(LANGS[1]);
    for (const l of [LANGS[0], LANGS[2], LANGS[3], LANGS[1]]) {
      await page.getByTestId('lang-picker').click();
      await pickDropdownItem(page, `lang-${l.lang}`);
      await check(l);
      await page.reload();
      await tableRows(list).first().waitFor({ timeout: 20_000 });
      await check(l);
      await settle(page);
      await screenshot(page, `shell-home-${l.lang}`);
    }
    await context.close();
  });

  it('without a saved choice, starts in the browser language (ja-JP) or falls back to English (fr-FR)', async () => {
    for (const { locale, html, submit, title } of [
      { locale: 'ja-JP', html: 'ja-JP', submit: 'ログイン', title: '生体電気診療管理システム' },
      { locale: 'fr-FR', html: 'en-US', submit: 'Log in', title: 'Bioelectric Diagnosis & Treatment Management System' },
    ]) {
      const { context, page } = await open({ locale });
      await page.goto(`${suite.server.url}/login`);
      await poll(() => page.getByTestId('login-submit').innerText()).toBe(submit);
      expect(await page.getByTestId('login-title').innerText()).toBe(title);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(html);
      if (locale === 'ja-JP') {
        await submitLogin(page, 'admin', 'platform');
        await poll(() => page.getByTestId('menu-DeviceList').innerText()).toBe('機器一覧');
      }
      await context.close();
    }
  });
});

describe('change password', () => {
  it('refuses empty and short values on the client, shows the server minimum, succeeds only once the server confirms', async () => {
    const account = 'agent2b';
    const newPassword = 'Fresh-pass-2024';
    const { context, page } = await open();
    await signIn(page, account, 'institution');
    const calls: number[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/adminapi/member/modify_field')) calls.push(Date.now());
    });

    await page.getByTestId('user-dropdown').click();
    await pickDropdownItem(page, 'user-menu-password');
    const input = page.getByTestId('change-password-input');
    await input.waitFor({ state: 'visible' });
    const dialog = page.locator('.ant-modal').filter({ has: input });
    // The current password is asked first (step-up); the rules below are the new password's.
    await page.getByTestId('change-password-current').fill('demo1234');
    const ok = dialog.locator('.ant-modal-footer .ant-btn-primary');
    const fieldError = dialog.locator('.ant-form-item-explain-error');

    await ok.click();
    await poll(() => fieldError.allInnerTexts()).toEqual(['Password cannot be empty']);
    await input.fill('  ab ');
    await ok.click();
    await poll(() => fieldError.allInnerTexts()).toEqual(['Password length cannot be less than 3']);
    expect(calls).toHaveLength(0);

    // Passes the client rule; the server's minimum (8) answers, and nothing claims success.
    await input.fill('abcd');
    await ok.click();
    await poll(() => fieldError.allInnerTexts()).toEqual(['The password must have at least 8 characters']);
    await poll(() => page.locator('.ant-message-error').allInnerTexts()).toEqual([expect.stringMatching(/at least 8 characters/)]);
    expect(calls).toHaveLength(1);
    expect(await page.locator('.ant-message-success').count()).toBe(0);
    expect(await input.isVisible()).toBe(true);

    // Esc with typed passwords asks before dropping them; keeping them leaves the dialog as it was.
    await page.keyboard.press('Escape');
    await page.getByTestId('dirty-keep').click();
    await page.getByTestId('dirty-keep').waitFor({ state: 'hidden' });
    expect(await input.inputValue()).toBe('abcd');

    // A valid password: while the server has not answered there is no success message.
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route('**/adminapi/member/modify_field', async (route) => {
      await held;
      await route.continue();
    });
    await input.fill(newPassword);
    const answered = page.waitForResponse((r) => r.url().includes('/adminapi/member/modify_field'));
    await ok.click();
    await poll(() => calls.length).toBe(2);
    await page.waitForTimeout(600);
    expect(await page.locator('.ant-message-success').count()).toBe(0);
    expect(await input.isVisible()).toBe(true);
    expect(await ok.getAttribute('class')).toMatch(/ant-btn-loading/);
    release();
    expect(((await (await answered).json()) as { code: number }).code).toBe(200);
    await poll(() => page.locator('.ant-message-success').innerText()).toMatch(/Password changed/);
    await input.waitFor({ state: 'hidden' });
    await page.unroute('**/adminapi/member/modify_field');

    // Sign out; the old password is refused, the new one works.
    await page.getByTestId('user-dropdown').click();
    await pickDropdownItem(page, 'user-menu-logout');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(await sessionKey(context)).toBeFalsy();
    await submitLogin(page, account, 'institution');
    await poll(() => page.getByTestId('login-error').count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.getByTestId('login-password').fill(newPassword);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((u) => u.pathname === '/dashboard/index', { timeout: 20_000 });
    await pageFrame(page, 'DeviceList').getByTestId('device-list').waitFor();
    expect((await api(suite.server.url, 'POST', '/login/institution_login', { username: account, password: DEMO_PASSWORD })).code).not.toBe(200);
    await context.close();
  });
});

describe('session contracts', () => {
  it('999: a session ended on the server shows ONE login-expired box; "log in again" leads to /login', async () => {
    const { context, page } = await open();
    await signIn(page, 'admin', 'platform');
    await sidebarMenu(page);
    await tableRows(pageFrame(page, 'DeviceList')).first().waitFor();
    const expired: string[] = [];
    page.on('response', async (r: Response) => {
      if (!r.url().includes('/adminapi/')) return;
      const body = (await r.json().catch(() => null)) as { code?: number } | null;
      if (body?.code === 999) expired.push(r.url());
    });
    const key = await sessionKey(context);
    expect((await api(suite.server.url, 'POST', '/login/logout', { key: key! })).code).toBe(200);

    // Two requests at once: the list refresh and opening another page.
    await page.evaluate(() => {
      (document.querySelector('.page-frame[data-page="DeviceList"] [data-testid="list-refresh"]') as HTMLElement).click();
      (document.querySelector('[data-testid="menu-PackageManage"]') as HTMLElement).click();
    });
    await page.getByTestId('session-expired').waitFor();
    await poll(() => expired.length).toBeGreaterThanOrEqual(2);
    await page.waitForTimeout(500);
    expect(await page.getByTestId('session-expired').count()).toBe(1);
    expect(await page.locator('.ant-modal-confirm:visible').count()).toBe(1);
    expect(await page.locator('.ant-modal-confirm').innerText()).toMatch(/Login expired/);
    await settle(page);
    await screenshot(page, 'shell-999');

    await page.getByTestId('session-expired-relogin').click();
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 20_000 });
    await page.getByTestId('login-form').waitFor();
    expect(await sessionKey(context)).toBeFalsy();
    await context.close();
  });

  it('998: an overdue institution sees the notice and its key is replaced by the one the 998 answer carries', async () => {
    const { context, page } = await open();
    const overdueKeys: string[] = [];
    let loginKey: string | undefined;
    page.on('response', async (r: Response) => {
      if (!r.url().includes('/adminapi/')) return;
      const body = (await r.json().catch(() => null)) as { code?: number; datas?: any } | null;
      if (r.url().includes('/login/institution_login') && body?.code === 200) loginKey = body.datas.key;
      if (body?.code === 998) overdueKeys.push(body.datas.error.data.key);
    });
    await signIn(page, 'overdue3', 'institution');
    await page.getByTestId('overdue-notice').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('overdue-notice').innerText()).toMatch(/term has expired/);
    expect(loginKey).toBeTruthy();
    await poll(() => overdueKeys.length).toBeGreaterThan(0);
    // The cookie holds the latest 998 key, no longer the one the login gave.
    await poll(async () => (await sessionKey(context)) === overdueKeys.at(-1)).toBe(true);
    const key = (await sessionKey(context))!;
    expect(key).not.toBe(loginKey);
    // The restricted key still reaches the user info, and business calls answer 998.
    expect((await api(suite.server.url, 'GET', '/institution/get_institution_info', { key })).code).toBe(200);
    expect((await api(suite.server.url, 'GET', '/equipment/list', { key })).code).toBe(998);
    // The list says why it is empty.
    const empty = pageFrame(page, 'DeviceList').getByTestId('list-empty');
    await poll(() => empty.getAttribute('data-reason')).toBe('error');
    expect(await empty.innerText()).toMatch(/term has expired/);
    await settle(page);
    await screenshot(page, 'shell-overdue');
    await context.close();
  });
});

describe('mobile', () => {
  it('at 800 px the sidebar is a drawer that closes after navigating', async () => {
    const { context, page } = await open({ width: 800, height: 900 });
    await signIn(page, 'admin', 'platform');
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    expect(await page.getByTestId('sidebar-menu').count()).toBe(0);
    await page.getByTestId('hamburger').click();
    const drawer = page.locator('.sidebar-drawer');
    const entry = drawer.getByTestId('menu-PackageManage');
    await entry.waitFor({ state: 'visible' });
    // Slides in from the left, 210 px wide.
    await poll(async () => {
      const box = await drawer.locator('nav.sidebar').boundingBox();
      return box && [Math.round(box.x), Math.round(box.width)];
    }).toEqual([0, 210]);
    await settle(page);
    await screenshot(page, 'shell-mobile');
    await entry.click();
    await page.waitForURL((u) => u.pathname === '/package-manage/index');
    await poll(() => entry.isVisible()).toBe(false);
    await tableRows(pageFrame(page, 'PackageManage')).first().waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('hamburger').getAttribute('aria-expanded')).toBe('false');
    await context.close();
  });
});

/**
 * The navbar tools and saved settings of the shell (issue "Foundation", point 4), in Chromium against the
 * real server: menu search (fuzzy, pinyin in Chinese, the pinyin switch), the settings drawer (theme
 * presets, tags view, sidebar logo; saved across a reload; reset), the size picker, the sidebar collapse
 * state, the error log, fullscreen, and a logout that leaves nothing of the previous account behind.
 * Screenshots: test-artifacts/shell-tools-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2eSuite, pickDropdownItem, poll, screenshot, sessionKey, settle, signIn, visible } from '../harness';

const suite = e2eSuite('shell-tools');
const open = suite.open;

const searchButton = (page: Page) => visible(page, 'filter-search').first();
const backgroundOf = (page: Page, testId: string) =>
  visible(page, testId)
    .first()
    .evaluate((e) => getComputedStyle(e).backgroundColor);
const heightOf = async (page: Page, testId: string) => (await visible(page, testId).first().boundingBox())!.height;
const widthOf = async (page: Page, testId: string) => (await page.getByTestId(testId).boundingBox())!.width;

/** Opens the menu search (if closed) and types into it. */
async function typeSearch(page: Page, text: string) {
  if (!(await page.locator('.menu-search-select').count())) await page.getByTestId('menu-search-toggle').click();
  await page.locator('.menu-search-select input').fill(text);
}
/** The titles the open search offers. fuse.js and pinyin-pro load lazily: poll positive answers. */
const options = (page: Page) => page.locator('.ant-select-dropdown:visible .ant-select-item-option').allInnerTexts();
/** Types a query and expects "no match" (only once fuse.js has answered something else before). */
async function expectNoMatch(page: Page, text: string) {
  await typeSearch(page, text);
  await poll(() => page.locator('.ant-select-dropdown:visible .ant-select-item-empty').count()).toBe(1);
  expect(await options(page)).toEqual([]);
}

async function closeSearch(page: Page) {
  await page.keyboard.press('Escape');
  await page.locator('body').click({ position: { x: 700, y: 600 } });
  await poll(() => page.locator('.menu-search-select').count()).toBe(0);
}

async function openSettings(page: Page) {
  await page.getByTestId('settings-button').click();
  await visible(page, 'setting-tagsView').waitFor();
}

async function closeSettings(page: Page) {
  await page.locator('.ant-drawer-close:visible').click();
  await poll(() => page.locator('.ant-drawer-content-wrapper:visible').count()).toBe(0);
}

describe('menu search', () => {
  it('finds pages fuzzily in English and navigates to the one picked', async () => {
    const { context, page } = await open();
    await signIn(page, suite.server.url, 'admin');
    // A typo still finds the page (threshold 0.4); a path fragment does too.
    await typeSearch(page, 'acupont');
    await poll(() => options(page)).toContain('Acupoints');
    await typeSearch(page, 'params-setting');
    await poll(async () => (await options(page)).some((t) => t.includes('Parameters'))).toBe(true);
    await expectNoMatch(page, 'zzzzqqqq');
    await typeSearch(page, 'acupont');
    await poll(() => options(page)).toContain('Acupoints');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Acupoints' }).first().click();
    await page.waitForURL((u) => u.pathname === '/acupoint/management');
    // Only pages the account may open are offered: the auditor finds no acupoints.
    await context.close();
    const other = await open();
    await signIn(other.page, suite.server.url, 'auditor');
    await typeSearch(other.page, 'devce');
    await poll(() => options(other.page)).toEqual(['Devices > Device list']);
    await expectNoMatch(other.page, 'acupoint');
    await other.context.close();
  });

  it('matches pinyin in Chinese (full and initials) until the setting turns it off', async () => {
    const { context, page } = await open({ locale: 'zh-CN' });
    await signIn(page, suite.server.url, 'admin');
    await poll(() => page.getByTestId('menu-AcupointManage').innerText()).toBe('穴位管理');
    for (const query of ['穴位', 'xuewei', 'xwgl']) {
      await typeSearch(page, query);
      await poll(() => options(page)).toContain('穴位管理');
    }
    await screenshot(page, 'shell-tools-search-pinyin');
    await closeSearch(page);

    await openSettings(page);
    await page.getByTestId('setting-pinyinSearch').click();
    await closeSettings(page);
    await typeSearch(page, '穴位');
    await poll(() => options(page)).toContain('穴位管理');
    await expectNoMatch(page, 'xwgl');
    await context.close();
  });
});

describe('settings drawer, size and sidebar', () => {
  it('applies the theme presets, tags view and logo at once, keeps them across a reload, and resets', async () => {
    const { context, page } = await open();
    await signIn(page, suite.server.url, 'admin');
    await searchButton(page).waitFor();
    // #1890ff by default, darkened by the same hue until white text on it reaches 4.5:1 (lib/contrast.ts readablePrimary)
    expect(await backgroundOf(page, 'filter-search')).toBe('rgb(18, 108, 191)');

    await openSettings(page);
    await page.getByTestId('theme-preset-6959CD').click();
    await poll(() => backgroundOf(page, 'filter-search')).toBe('rgb(105, 89, 205)');
    await page.getByTestId('setting-tagsView').click();
    await page.getByTestId('setting-sidebarLogo').click();
    await poll(() => page.getByTestId('tags-view').count()).toBe(0);
    await poll(() => page.getByTestId('sidebar-logo').count()).toBe(0);
    await settle(page);
    await screenshot(page, 'shell-tools-settings');
    await closeSettings(page);

    await page.reload();
    await searchButton(page).waitFor();
    expect(await backgroundOf(page, 'filter-search')).toBe('rgb(105, 89, 205)');
    expect(await page.getByTestId('tags-view').count()).toBe(0);
    expect(await page.getByTestId('sidebar-logo').count()).toBe(0);

    await openSettings(page);
    await page.getByTestId('settings-reset').click();
    await poll(() => backgroundOf(page, 'filter-search')).toBe('rgb(18, 108, 191)');
    await poll(() => page.getByTestId('tags-view').count()).toBe(1);
    await poll(() => page.getByTestId('sidebar-logo').count()).toBe(1);
    await context.close();
  });

  it('dark mode: every option reads whole, the page is dark from its first frame (no script yet), and "System" follows the device', async () => {
    const { context, page } = await open();
    await signIn(page, suite.server.url, 'admin');
    await searchButton(page).waitFor();
    await openSettings(page);
    // No label of the appearance control is cut off.
    const cut = () =>
      page.evaluate(() => [...document.querySelectorAll('[data-testid="setting-appearance"] .ant-segmented-item-label')].filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent));
    expect(await page.locator('[data-testid="setting-appearance"] .ant-segmented-item-label').count()).toBe(3);
    expect(await cut()).toEqual([]);
    await page.getByTestId('setting-appearance-dark').click();
    await poll(() => page.evaluate(() => document.documentElement.dataset.appearance)).toBe('dark');
    await closeSettings(page);

    // Before any script: the server marks <html> from the saved appearance and the inlined CSS paints it dark.
    const firstFrame = async (path: string) => {
      await page.route('**/*.js', (r) => r.abort());
      await page.goto(`${suite.server.url}${path}`);
      const seen = await page.evaluate(() => ({ mark: document.documentElement.dataset.appearance ?? '', bg: getComputedStyle(document.body).backgroundColor }));
      await page.unroute('**/*.js');
      return seen;
    };
    expect(await firstFrame('/login')).toEqual({ mark: 'dark', bg: 'rgb(0, 0, 0)' });
    expect(await firstFrame('/dashboard/index')).toEqual({ mark: 'dark', bg: 'rgb(0, 0, 0)' });

    // "System": the first frame follows the device before any script, and the app follows it live.
    await page.goto(`${suite.server.url}/dashboard/index`);
    await openSettings(page);
    await page.getByTestId('setting-appearance-system').click();
    await visible(page, 'setting-appearance-hint').waitFor();
    await page.emulateMedia({ colorScheme: 'light' });
    await poll(() => page.evaluate(() => document.documentElement.dataset.appearance)).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await poll(() => page.evaluate(() => document.documentElement.dataset.appearance)).toBe('dark');
    expect(await firstFrame('/login')).toEqual({ mark: 'system', bg: 'rgb(0, 0, 0)' });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await firstFrame('/login')).toEqual({ mark: 'system', bg: 'rgb(240, 242, 245)' });
    await context.close();
  });

  it('changes the component size (medium by default) and keeps it', async () => {
    const { context, page } = await open();
    await signIn(page, suite.server.url, 'admin');
    await searchButton(page).waitFor();
    const medium = await heightOf(page, 'filter-search');
    expect(medium).toBe(32);

    const pickSize = async (size: string) => {
      await page.getByTestId('size-picker').click();
      await pickDropdownItem(page, `size-${size}`);
    };
    await pickSize('small');
    await poll(() => heightOf(page, 'filter-search')).toBe(24);
    await pickSize('default');
    await poll(() => heightOf(page, 'filter-search')).toBe(40);
    await page.reload();
    await searchButton(page).waitFor();
    expect(await heightOf(page, 'filter-search')).toBe(40);
    await pickSize('medium');
    await poll(() => heightOf(page, 'filter-search')).toBe(medium);
    await context.close();
  });

  it('collapses the 210 px sidebar and remembers it after a reload', async () => {
    const { context, page } = await open();
    await signIn(page, suite.server.url, 'admin');
    expect(await widthOf(page, 'sidebar')).toBe(210);
    await page.getByTestId('hamburger').click();
    await poll(() => widthOf(page, 'sidebar')).toBeLessThan(100);
    await page.reload();
    await page.getByTestId('sidebar').waitFor();
    expect(await widthOf(page, 'sidebar')).toBeLessThan(100);
    await page.getByTestId('hamburger').click();
    await poll(() => widthOf(page, 'sidebar')).toBe(210);
    await context.close();
  });
});

describe('error log and fullscreen', () => {
  it('collects uncaught UI errors of the production build, shows them and clears them', async () => {
    const { context, page } = await open();
    await signIn(page, suite.server.url, 'admin');
    expect(await page.getByTestId('error-log-badge').count()).toBe(0);
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('e2e: an uncaught error');
      });
      void Promise.reject(new Error('e2e: an unhandled rejection'));
    });
    await poll(() => page.getByTestId('error-log-badge').textContent()).toBe('2');
    await page.getByTestId('error-log-button').click();
    const dialog = page.locator('.ant-modal:visible');
    await poll(() => dialog.locator('.ant-table-row').count()).toBe(2);
    await poll(() => dialog.innerText()).toContain('e2e: an uncaught error');
    await poll(() => dialog.innerText()).toContain('e2e: an unhandled rejection');
    await settle(page);
    await screenshot(page, 'shell-tools-error-log');
    await dialog.getByTestId('error-log-clear').click();
    await poll(() => dialog.locator('.ant-table-row').count()).toBe(0);
    await poll(() => page.getByTestId('error-log-badge').count()).toBe(0);
    await context.close();
  });

  it('enters and leaves fullscreen, or warns where the browser refuses it', async () => {
    const { context, page } = await open();
    await signIn(page, suite.server.url, 'admin');
    await page.getByTestId('fullscreen-toggle').click();
    const isFullscreen = () => page.evaluate(() => !!document.fullscreenElement);
    await poll(async () => (await isFullscreen()) || (await page.locator('.ant-message-warning').count()) > 0).toBe(true);
    if (await isFullscreen()) {
      await page.getByTestId('fullscreen-toggle').click();
      await poll(isFullscreen).toBe(false);
    }
    // Where the API is missing altogether, the warning is the answer.
    await page.evaluate(() => Object.defineProperty(document, 'fullscreenEnabled', { value: false, configurable: true }));
    await page.getByTestId('fullscreen-toggle').click();
    await poll(() => page.locator('.ant-message-warning').count()).toBeGreaterThan(0);
    await context.close();
  });
});

describe('logout', () => {
  it('clears the key, the stored identity, tabs and cached data; the next account starts clean', async () => {
    const { context, page } = await open();
    await signIn(page, suite.server.url, 'admin', 'platform', { to: '/acupoint/management' });
    await page.getByTestId('menu-AcupointManage').waitFor();
    await poll(() => page.getByTestId('tag').count()).toBe(2);
    expect(await sessionKey(context)).toBeTruthy();

    await page.getByTestId('user-dropdown').click();
    await pickDropdownItem(page, 'user-menu-logout');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(await sessionKey(context)).toBeUndefined();
    const stored = await page.evaluate(() => Object.keys(localStorage).filter((k) => /isAdmin|grade|userId/.test(k)));
    expect(stored).toEqual([]);

    await signIn(page, suite.server.url, 'clinic3', 'institution');
    await poll(() => page.getByTestId('tag').allInnerTexts()).toEqual(['Device list']);
    expect(await page.getByTestId('menu-AcupointManage').count()).toBe(0);
    // Cached admin lists are gone: the device list shows the clinic's own devices only.
    const institutions = page.locator('.ant-table-tbody tr.ant-table-row td:nth-child(4)');
    await poll(() => institutions.count()).toBeGreaterThan(0);
    expect(new Set(await institutions.allInnerTexts())).toEqual(new Set(['West Lake Wellness Clinic']));
    await context.close();
  });
});

/**
 * Lists people can shape (issue 36 item 5), in a real browser: the admin hides and moves columns of the device
 * list and saves a view (filters and sort) as the default; in a new browser context (another browser, the
 * same account) the list opens with that view and those columns. A bulk disable answers per row. A form with
 * unsaved changes asks before Esc drops it. Screenshots in en and zh: test-artifacts/list-shaping-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2eSuite, poll, screenshot, settle, signIn, visible } from '../harness';

const suite = e2eSuite('list-shaping');

const headers = (page: Page) => page.locator('[data-testid="device-list"] .ant-table-thead th:visible').allInnerTexts();
const rows = (page: Page) => page.locator('[data-testid="device-list"] .ant-table-tbody tr.ant-table-row');
const popover = (page: Page, testId: string) => page.locator(`.ant-popover:visible [data-testid="${testId}"]`);

describe('column settings and saved views', () => {
  it('the admin hides and moves columns and saves the filtered, sorted list as the default view', async () => {
    const url = suite.server.url;
    const { page } = await suite.open();
    await signIn(page, url, 'admin', 'platform', { to: '/dashboard/index?status=active&sort=serial&order=descend' });
    await poll(() => rows(page).count()).toBeGreaterThan(1);
    expect(await headers(page)).toContain('Model');

    // Columns: hide Model, move Status up one (before Institution).
    await visible(page, 'column-settings').click();
    await popover(page, 'column-toggle-model').click();
    await poll(() => headers(page)).not.toContain('Model');
    await popover(page, 'column-up-status').click();
    await poll(async () => {
      const h = await headers(page);
      return h.indexOf('Status') < h.indexOf('Institution');
    }).toBe(true);
    await settle(page);
    await screenshot(page, 'list-shaping-columns-en');
    await page.keyboard.press('Escape');

    // The current filters and sort saved as the default view.
    await visible(page, 'saved-views').click();
    await popover(page, 'saved-view-save').click();
    await page.getByTestId('saved-view-name').fill('Active, newest serial first');
    await page.getByTestId('saved-view-default').check();
    await page.locator('[data-testid="saved-view-dialog"] .ant-modal-footer .ant-btn-primary').click();
    await poll(() => visible(page, 'saved-views').innerText()).toContain('Active, newest serial first');
    await visible(page, 'saved-views').click();
    await popover(page, 'saved-views-panel').waitFor();
    await settle(page);
    await screenshot(page, 'list-shaping-views-en');
    await page.keyboard.press('Escape');
  });

  it('a new browser context of the same account opens the list with them; a bulk disable answers per row', async () => {
    const url = suite.server.url;
    // Another browser (in Chinese), same account: the bare address opens with the default view and the columns.
    const other = await suite.open({ locale: 'zh-CN' });
    const zh = other.page;
    await signIn(zh, url, 'admin', 'platform', { to: '/dashboard/index' });
    await poll(() => zh.url()).toMatch(/status=active/);
    expect(zh.url()).toMatch(/sort=serial/);
    expect(zh.url()).toMatch(/order=descend/);
    await poll(() => visible(zh, 'saved-views').innerText()).toContain('Active, newest serial first');
    await poll(() => rows(zh).count()).toBeGreaterThan(1);
    const shown = await headers(zh);
    expect(shown).not.toContain('型号');
    expect(shown.indexOf('状态')).toBeLessThan(shown.indexOf('所属机构'));
    expect(await rows(zh).first().innerText()).toMatch(/已激活/);
    await visible(zh, 'column-settings').click();
    await popover(zh, 'column-settings-panel').waitFor();
    expect(await zh.locator('.ant-popover:visible').innerText()).toContain('显示的列');
    await settle(zh);
    await screenshot(zh, 'list-shaping-columns-zh');
    await zh.keyboard.press('Escape');
    await visible(zh, 'saved-views').click();
    await popover(zh, 'saved-views-panel').waitFor();
    expect(await zh.locator('.ant-popover:visible').innerText()).toContain('保存当前视图');
    await settle(zh);
    await screenshot(zh, 'list-shaping-views-zh');
    await zh.keyboard.press('Escape');

    // Bulk: two devices disabled, each by the single action's rule, the answer per row.
    await rows(zh).nth(0).locator('.ant-checkbox-input').check();
    await rows(zh).nth(1).locator('.ant-checkbox-input').check();
    await poll(() => visible(zh, 'bulk-count').innerText()).toBe('已选 2 项');
    await settle(zh);
    await screenshot(zh, 'list-shaping-bulk-bar-zh');
    await visible(zh, 'bulk-disable').click();
    await zh.getByTestId('bulk-disable-ok').click();
    const report = zh.getByTestId('bulk-report');
    await poll(() => report.isVisible()).toBe(true);
    expect(await zh.getByTestId('bulk-done').innerText()).toMatch(/, /);
    await settle(zh);
    await screenshot(zh, 'list-shaping-bulk-zh');
  });
});

describe('unsaved changes', () => {
  it('Esc on a dirty form asks before dropping it; an untouched form closes at once', async () => {
    const url = suite.server.url;
    const { page } = await suite.open();
    await signIn(page, url, 'admin', 'platform', { to: '/dashboard/index' });
    const dialog = page.locator('.ant-modal[data-testid="device-add"], [data-testid="device-add"] .ant-modal').first();

    // Untouched: Esc closes it, no question.
    await visible(page, 'device-add-button').click();
    await dialog.getByTestId('device-add-serial').focus();
    await page.keyboard.press('Escape');
    await poll(() => dialog.isVisible()).toBe(false);
    expect(await page.getByTestId('dirty-discard').count()).toBe(0);

    // Typed in: Esc asks; "keep editing" keeps the text; Esc again and "discard" closes it.
    await visible(page, 'device-add-button').click();
    await dialog.getByTestId('device-add-serial').fill('HALF-TYPED-1');
    await page.keyboard.press('Escape');
    await page.getByTestId('dirty-keep').waitFor();
    await settle(page);
    await screenshot(page, 'list-shaping-dirty-en');
    await page.getByTestId('dirty-keep').click();
    await poll(() => page.getByTestId('dirty-keep').count()).toBe(0);
    expect(await dialog.getByTestId('device-add-serial').inputValue()).toBe('HALF-TYPED-1');
    await page.keyboard.press('Escape');
    await page.getByTestId('dirty-discard').click();
    await poll(() => dialog.isVisible()).toBe(false);

    // The browser's forward button (a move inside the app) while the form is dirty: asked, and the address stays.
    await visible(page, 'device-codes-link').click();
    await poll(() => page.url()).toContain('/activation-code/index');
    await page.goBack({ waitUntil: 'commit' });
    await poll(() => page.url()).toContain('/dashboard/index');
    await visible(page, 'device-add-button').click();
    await dialog.getByTestId('device-add-serial').fill('HALF-TYPED-2');
    await page.goForward({ waitUntil: 'commit' });
    await page.getByTestId('dirty-keep').waitFor();
    await poll(() => page.url()).toContain('/dashboard/index');
    await page.getByTestId('dirty-keep').click();
    expect(await dialog.getByTestId('device-add-serial').inputValue()).toBe('HALF-TYPED-2');
    // Discarding lets the move happen.
    await page.goForward({ waitUntil: 'commit' });
    await page.getByTestId('dirty-discard').click();
    await poll(() => page.url()).toContain('/activation-code/index');
  });
});

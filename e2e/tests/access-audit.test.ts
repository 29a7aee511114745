/**
 * The access audit in a real browser (trust-api.md "Access audit"): an admin signs in with a wrong
 * password, then the right one, and opens an inspection's report; the audit page, filtered by outcome
 * (refused) and then by change (read) with its own filter controls, shows the refused sign-in and the read
 * of that inspection in words, and the detail drawer says what happened.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, e2eSuite, poll, screenshot, sessionKey, settle, signIn, submitLogin } from '../harness';

const suite = e2eSuite('access-audit');

const rows = (page: Page) => page.locator('[data-testid="audit-list"] .ant-table-tbody tr.ant-table-row');

/** Picks an option of one of the page's filter selects (they apply at once). */
async function pickFilter(page: Page, testId: string, text: string) {
  await page.getByTestId(testId).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first().click();
  await poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
}

describe('access audit', () => {
  it('a wrong password, then the right one, then a report opened: both found on the audit page by outcome and by change', async () => {
    const url = suite.server.url;
    const wrong = 'not-the-password-42';
    const { context, page } = await suite.open();

    await page.goto(`${url}/login`);
    await submitLogin(page, 'admin', 'platform', wrong);
    await poll(() => page.getByTestId('login-error').count()).toBe(1);
    await signIn(page, url, 'admin');

    const key = (await sessionKey(context))!;
    const list = await api(url, 'GET', '/inspection/list', { key, limit: 1 });
    const id = list.datas.list[0].id as number;
    await page.goto(`${url}/inspection/report/${id}`);
    await page.locator('.report-screen [data-testid="report-sheet"]').waitFor();

    // Refused: the wrong password, said in words, with the account name tried.
    await page.goto(`${url}/system/audit-log`);
    await poll(() => rows(page).count()).toBeGreaterThan(0);
    await pickFilter(page, 'filter-outcome', 'Refused');
    await poll(() => page.url()).toMatch(/outcome=refused/);
    await poll(async () => (await rows(page).allInnerTexts()).join('\n')).toMatch(/Sign-in refused: wrong user name or password/);
    // Every row shown is refused once the filtered page has replaced the unfiltered one.
    await poll(async () => (await rows(page).allInnerTexts()).every((r) => /Refused/.test(r))).toBe(true);
    const refused = await rows(page).allInnerTexts();
    expect(refused.find((r) => /Sign-in refused/.test(r))).toMatch(/admin[\s\S]*auth\.login[\s\S]*None[\s\S]*Refused/);
    await settle(page);
    await screenshot(page, 'access-audit-refused');

    // Read: the report opened, by change, outcome cleared.
    await page.goto(`${url}/system/audit-log`);
    await poll(() => rows(page).count()).toBeGreaterThan(0);
    await pickFilter(page, 'filter-change', 'Read');
    await poll(() => page.url()).toMatch(/change=read/);
    const readRow = rows(page)
      .filter({ hasText: `Read inspection #${id}` })
      .filter({ hasText: 'inspections.report' });
    await poll(() => readRow.count()).toBe(1);
    expect(await readRow.innerText()).toMatch(/admin[\s\S]*Read inspection[\s\S]*inspection #\d+[\s\S]*Read[\s\S]*OK/);
    await poll(async () => (await rows(page).allInnerTexts()).every((r) => /\bRead\b/.test(r))).toBe(true);
    await settle(page);
    await screenshot(page, 'access-audit-read');

    await readRow.getByTestId('row-action-view').click();
    const drawer = page.getByTestId('audit-detail');
    await poll(() => drawer.getByTestId('audit-detail-summary').count()).toBe(1);
    expect(await drawer.getByTestId('audit-detail-summary').innerText()).toBe(`Read inspection #${id}`);
    const text = await drawer.innerText();
    expect(text).toMatch(/Event\s+Read/);
    expect(text).toMatch(/Outcome\s+OK/);
    expect(text).toMatch(/Mozilla|Chrom/);
    expect(text).not.toContain(wrong);
    expect(text).not.toContain(key);
    await settle(page);
    await screenshot(page, 'access-audit-read-detail');
  });

  it('reads in Chinese: the refused sign-in and the read said in words, outcome and change filters labelled', async () => {
    const url = suite.server.url;
    const { page } = await suite.open({ locale: 'zh-CN' });
    await signIn(page, url, 'admin', 'platform', { to: '/system/audit-log?outcome=refused' });
    await poll(async () => (await rows(page).allInnerTexts()).join('\n')).toMatch(/登录被拒绝：用户名或密码错误[\s\S]*被拒绝/);
    const form = await page.locator('form').first().innerText();
    expect(form).toMatch(/变更[\s\S]*结果[\s\S]*事件/);
    await settle(page);
    await screenshot(page, 'access-audit-refused-zh');
    await page.goto(`${url}/system/audit-log?change=read`);
    await poll(async () => (await rows(page).allInnerTexts()).join('\n')).toMatch(/查看检测记录 #\d+[\s\S]*查看[\s\S]*成功/);
  });
});

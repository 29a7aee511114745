/**
 * The audit log in a real browser: a package is created, edited and deleted (through the API, as any
 * client would), and the grade-0 "Audit log" page lists the three writes, filters them, and shows the
 * edit's before and after; a role without the page's grant is refused it.
 */
import { describe, expect, it } from 'vitest';
import { api, DEMO_PASSWORD, e2eSuite, poll, screenshot, settle, signIn, submitLogin } from '../harness';

const suite = e2eSuite('audit');

const rows = (page: import('playwright-core').Page) => page.locator('[data-testid="audit-list"] .ant-table-tbody tr.ant-table-row');

describe('audit log', () => {
  it("lists a package's create, edit and delete and shows the edit's before and after", async () => {
    const url = suite.server.url;
    const key = (await api(url, 'POST', '/login/login', { username: 'admin', password: DEMO_PASSWORD })).datas.key;
    const created = await api(url, 'POST', '/package/add', { key, name: 'Audit trail pack', kind: 'count', uses: 5, price_cents: 500 });
    expect(created.code).toBe(200);
    const id = created.datas.id;
    expect((await api(url, 'POST', '/package/edit', { key, id, name: 'Audit trail pack v2', kind: 'count', uses: 6, price_cents: 650 })).code).toBe(200);
    expect((await api(url, 'POST', '/package/del', { key, id })).code).toBe(200);

    const { page } = await suite.open();
    await signIn(page, url, 'admin', 'platform', { to: `/system/audit-log?record_type=package&record_id=${id}` });
    await poll(() => rows(page).count()).toBe(3);
    const texts = await rows(page).allInnerTexts();
    expect(texts[0]).toMatch(/packages\.remove/);
    expect(texts[1]).toMatch(/packages\.edit[\s\S]*name[\s\S]*uses/);
    expect(texts[2]).toMatch(/packages\.add/);
    await settle(page);
    await screenshot(page, 'audit-list');

    await rows(page).nth(1).getByTestId('row-action-view').click();
    const drawer = page.getByTestId('audit-detail');
    const diff = drawer.getByTestId('audit-diff');
    await poll(() => diff.locator('tbody tr').count()).toBeGreaterThan(2);
    const lines = await diff.locator('tbody tr').allInnerTexts();
    expect(lines.find((l) => l.startsWith('name'))).toMatch(/Audit trail pack\s+Audit trail pack v2/);
    expect(lines.find((l) => l.startsWith('price_cents'))).toMatch(/500\s+650/);
    expect(lines.some((l) => l.startsWith('kind'))).toBe(false);
    await settle(page);
    await screenshot(page, 'audit-detail');

    // All fields, unchanged ones included.
    await drawer.getByTestId('audit-changed-only').click();
    await poll(() => diff.locator('tbody tr').filter({ hasText: 'kind' }).count()).toBe(1);
  });

  it('reads in Chinese: columns, account types and the created tag', async () => {
    const { page } = await suite.open({ locale: 'zh-CN' });
    await signIn(page, suite.server.url, 'admin', 'platform', { to: '/system/audit-log?record_type=package' });
    await poll(() => rows(page).count()).toBeGreaterThan(0);
    const header = await page.locator('[data-testid="audit-list"] thead').innerText();
    expect(header).toMatch(/时间[\s\S]*操作人[\s\S]*操作[\s\S]*记录[\s\S]*变更字段/);
    expect(await rows(page).allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/管理员[\s\S]*packages\.add[\s\S]*新建/)]));
    await settle(page);
    await screenshot(page, 'audit-list-zh');
  });

  it('is refused to a role without the Audit log grant', async () => {
    const { page } = await suite.open();
    // Not signIn(): the refused page leaves the shell for /401, so there is no sidebar to wait for.
    await page.goto(`${suite.server.url}/login?redirect=${encodeURIComponent('/system/audit-log')}`);
    await submitLogin(page, 'auditor', 'platform');
    await page.waitForURL((u) => u.pathname === '/401', { timeout: 20_000 });
    await page.getByTestId('page-401').waitFor();
    expect(await rows(page).count()).toBe(0);
  });
});

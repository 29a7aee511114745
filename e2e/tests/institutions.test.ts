/**
 * Institutions and branch setup in a real browser: the admin's tree (expanded by level, filtered by
 * region), a sub-agent creating its own child through the form with the region cascader (the generated
 * password shown once, and good for signing in), and the platform approving a pending branch
 * application, which the applicant then sees approved. Screenshots in English and Chinese
 * (test-artifacts/institutions-*.png).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, e2eSuite, poll, screenshot, settle, signIn } from '../harness';

const suite = e2eSuite('institutions');

const rows = (page: Page, list: string) => page.locator(`[data-testid="${list}"] .ant-table-tbody tr.ant-table-row`);
const row = (page: Page, list: string, text: string | RegExp) => rows(page, list).filter({ hasText: text }).first();

/** Types into a region cascader and picks the first search result that has `pick`. */
async function pickRegion(page: Page, testId: string, search: string, pick: RegExp) {
  const cascader = page.locator(`.ant-cascader[data-testid="${testId}"], [data-testid="${testId}"]`).first();
  await cascader.click();
  await page.keyboard.type(search);
  const item = page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item').filter({ hasText: pick }).first();
  await item.waitFor();
  await item.click();
}

describe('the institution tree', () => {
  it('admins see the whole tree by level, filter it by region and read an institution’s counts (en)', async () => {
    const { page } = await suite.open();
    await signIn(page, suite.server.url, 'admin', 'platform', { to: '/institutional/index' });
    await poll(() => rows(page, 'institution-list').count()).toBe(2);
    expect(await rows(page, 'institution-list').allInnerTexts()).toEqual([
      expect.stringMatching(/East China Regional Agency[\s\S]*Agent \(grade 1\)[\s\S]*agent1[\s\S]*Xuhui Qu, Shanghai Shi/),
      expect.stringMatching(/South China Regional Agency[\s\S]*Tianhe Qu, Guangzhou Shi, Guangdong Sheng/),
    ]);
    // Expand everything: three levels below the agents.
    await page.getByTestId('institution-level').getByText('Level 4').click();
    await poll(() => rows(page, 'institution-list').count()).toBe(7);
    expect(await row(page, 'institution-list', 'Binjiang Health Store').innerText()).toMatch(/Overdue/);
    await settle(page);
    await screenshot(page, 'institutions-tree-en');

    // The region filter: any level of the cascader, the list turns flat.
    await pickRegion(page, 'filter-region', 'hangzhou', /Hangzhou Shi/);
    await page.keyboard.press('Escape');
    await poll(() => rows(page, 'institution-list').count()).toBe(3);
    expect(page.url()).toContain('region=330100');
    await settle(page);
    await screenshot(page, 'institutions-filter-region-en');

    // agent2 has a pending payout in the demo data: the count is read from the payouts.
    await row(page, 'institution-list', 'Hangzhou Sub-agency').getByTestId('row-action-view').click();
    const counts = page.getByTestId('institution-counts');
    await poll(() => counts.innerText()).toMatch(/Direct branches\s+2[\s\S]*All branches\s+2[\s\S]*Devices\s+\d+[\s\S]*Open payouts\s+[1-9]/);
    await settle(page);
    await screenshot(page, 'institutions-detail-en');
  });

  it('a sub-agent creates its own child: region cascader, password shown once, then it signs in (zh)', async () => {
    const { page } = await suite.open({ locale: 'zh-CN' });
    await signIn(page, suite.server.url, 'agent2', 'institution', { to: '/institutional/index' });
    await poll(() => rows(page, 'institution-list').count()).toBe(1);
    // The region's name arrives with the region table (loaded on first use): never its bare codes meanwhile.
    const firstRow = () => rows(page, 'institution-list').first().innerText();
    expect(await firstRow()).not.toMatch(/330000/);
    await poll(firstRow).toMatch(/Hangzhou Sub-agency[\s\S]*二级代理[\s\S]*浙江省杭州市西湖区/);
    await page.getByTestId('institution-create').click();
    const form = page.getByTestId('institution-form-form');
    await form.waitFor({ state: 'visible' });
    await page.getByTestId('institution-form-name').fill('拱墅康复门店');
    await page.getByTestId('institution-form-username').fill('gongshu3');
    await page.getByTestId('institution-form-contact').fill('钱芳');
    await page.getByTestId('institution-form-phone').fill('138 0013 8099');
    await pickRegion(page, 'institution-form-region', '拱墅', /拱墅区/);
    await page.getByTestId('institution-form-address').fill('湖墅南路 88 号');
    await settle(page);
    await screenshot(page, 'institutions-create-zh');
    await page.locator('.ant-drawer:visible .ant-drawer-extra .ant-btn-primary').click();

    const once = page.locator('.ant-modal[data-testid="password-once"], [data-testid="password-once"] .ant-modal').first();
    await once.waitFor({ state: 'visible' });
    expect(await page.getByTestId('password-once-username').innerText()).toBe('gongshu3');
    const password = (await page.getByTestId('password-once-value').innerText()).trim();
    expect(password).toMatch(/^[A-Za-z2-9]{12}$/);
    await settle(page);
    await screenshot(page, 'institutions-password-once-zh');
    await page.getByTestId('password-once-close').click();

    // The new grade-3 store is under agent2, with the region and the agent's term.
    await page.locator('[data-testid="institution-list"] .ant-table-row-expand-icon').first().click();
    await poll(() => rows(page, 'institution-list').count()).toBe(4);
    expect(await row(page, 'institution-list', '拱墅康复门店').innerText()).toMatch(/诊所\/门店（三级）[\s\S]*gongshu3[\s\S]*浙江省杭州市拱墅区/);
    await settle(page);
    await screenshot(page, 'institutions-tree-zh');

    const login = await api(suite.server.url, 'POST', '/login/institution_login', { username: 'gongshu3', password });
    expect(login.code).toBe(200);
  });
});

describe('branch setup', () => {
  it('the platform approves a pending application; the password is shown once (en)', async () => {
    const { page } = await suite.open();
    await signIn(page, suite.server.url, 'admin', 'platform', { to: '/institutional/inspection-apply' });
    await poll(() => rows(page, 'branch-list').count()).toBe(4);
    await settle(page);
    await screenshot(page, 'institutions-branches-en');

    const pending = row(page, 'branch-list', 'xiaoshan3');
    expect(await pending.innerText()).toMatch(/Xiaoshan Health Store[\s\S]*Hangzhou Sub-agency[\s\S]*Xiaoshan Qu, Hangzhou Shi[\s\S]*Pending/);
    await pending.getByTestId('row-action-approve').click();
    const dialog = page.locator('.ant-modal[data-testid="branch-approve"], [data-testid="branch-approve"] .ant-modal').first();
    await dialog.waitFor({ state: 'visible' });
    await settle(page);
    await screenshot(page, 'institutions-approve-en');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();

    await page.getByTestId('password-once-value').waitFor();
    const password = (await page.getByTestId('password-once-value').innerText()).trim();
    await settle(page);
    await screenshot(page, 'institutions-approved-password-en');
    await page.getByTestId('password-once-close').click();
    await poll(() => page.getByTestId('state-xiaoshan3').innerText()).toBe('Approved');
    expect(await row(page, 'branch-list', 'xiaoshan3').getByTestId('row-action-approve').count()).toBe(0);

    // The branch exists under the applicant, and its login works with the password shown once.
    const login = await api(suite.server.url, 'POST', '/login/institution_login', { username: 'xiaoshan3', password });
    expect(login.code).toBe(200);
    const info = await api(suite.server.url, 'GET', '/institution/get_institution_info', { key: login.datas.key });
    expect(info.datas).toMatchObject({ username: 'xiaoshan3', institution_grade: 3 });
  });

  it('an institution files an application and sees the states of its subtree’s applications (zh)', async () => {
    const { page } = await suite.open({ locale: 'zh-CN' });
    await signIn(page, suite.server.url, 'agent1', 'institution', { to: '/institutional/inspection-apply' });
    // agent1's own rejected application and agent2's, approved above.
    await poll(() => rows(page, 'branch-list').count()).toBe(2);
    expect(await page.getByTestId('state-suzhou2').innerText()).toBe('已驳回');
    expect(await page.getByTestId('state-xiaoshan3').innerText()).toBe('已通过');
    expect(await row(page, 'branch-list', 'suzhou2').innerText()).toMatch(/原因: Suzhou is already covered/);

    await page.getByTestId('branch-apply').click();
    await page.getByTestId('branch-form-name').waitFor();
    await page.getByTestId('branch-form-name').fill('无锡二级代理');
    await page.getByTestId('branch-form-username').fill('wuxi2');
    await page.getByTestId('branch-form-contact').fill('周亮');
    await page.getByTestId('branch-form-phone').fill('13800138123');
    await pickRegion(page, 'branch-form-region', '梁溪', /梁溪区/);
    await settle(page);
    await screenshot(page, 'institutions-apply-zh');
    await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn-primary').click();
    await poll(() => rows(page, 'branch-list').count()).toBe(3);
    expect(await page.getByTestId('state-wuxi2').innerText()).toBe('待审核');
    expect(await row(page, 'branch-list', 'wuxi2').innerText()).toMatch(/江苏省无锡市梁溪区/);
    await settle(page);
    await screenshot(page, 'institutions-branches-zh');

    // A taken account name is refused at the field.
    await page.getByTestId('branch-apply').click();
    await page.getByTestId('branch-form-name').fill('重复账号');
    await page.getByTestId('branch-form-username').fill('clinic3');
    await page.getByTestId('branch-form-contact').fill('周亮');
    await page.getByTestId('branch-form-phone').fill('13800138123');
    await pickRegion(page, 'branch-form-region', '梁溪', /梁溪区/);
    await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn-primary').click();
    const usernameItem = page.locator('.ant-modal:visible .ant-form-item').filter({ has: page.getByTestId('branch-form-username') });
    await poll(() => usernameItem.locator('.ant-form-item-explain-error').allInnerTexts()).toEqual(['账号“clinic3”已被使用']);
  });
});

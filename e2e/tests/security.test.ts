/**
 * The account's Security page in a real browser (trust-api.md, "Sessions"): an institution signed in on
 * two browsers sees both sessions (this one marked), ends the other from the page, and that browser's
 * next call sends it to the sign-in; the platform signs an institution out everywhere from the
 * institution list. Screenshots in Chinese and English (test-artifacts/security-*.png).
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { api, e2eSuite, pickDropdownItem, poll, screenshot, sessionKey, settle, signIn, visible } from '../harness';

const suite = e2eSuite('security');

const sessionRows = (page: Page) => visible(page, 'session-list').locator('[data-testid="session-row"]');

/**
 * Turns a signed-in admin's session into one that has not re-authenticated (a password sign-in counts as
 * one): view as another role and back, which makes a new session, and hands its key to the browser.
 */
async function dropStepUp(url: string, context: BrowserContext): Promise<string> {
  const first = (await sessionKey(context))!;
  const roles = (await api(url, 'GET', '/role/list', { key: first, limit: 50 })).datas.list as { id: number; is_super: boolean }[];
  const other = roles.find((r) => !r.is_super)!;
  const viewing = (await api(url, 'POST', '/role/view_as', { key: first, role_id: other.id })).datas.key as string;
  const key = (await api(url, 'POST', '/role/view_as_exit', { key: viewing })).datas.key as string;
  await context.addCookies([{ name: 'Admin-Token', value: encodeURIComponent(key), url }]);
  return key;
}

describe('step-up', () => {
  it('approving a payout asks for the password in place, then goes through without losing the form (en)', async () => {
    const url = suite.server.url;
    const { page, context } = await suite.open({ locale: 'en-US' });
    await signIn(page, url, 'admin');
    const key = await dropStepUp(url, context);
    const pending = (await api(url, 'GET', '/payout/list', { key, status: 'pending', limit: 5 })).datas.list as { id: number }[];
    expect(pending.length).toBeGreaterThan(0);
    // The server would refuse the approval as it stands.
    expect((await api(url, 'POST', '/payout/approve', { key, id: pending[0]!.id })).datas.error.reason).toBe('reauth_required');
    await page.goto(`${url}/finance-record/payout-manage?status=pending`);
    const list = visible(page, 'payout-list').locator('.ant-table-tbody tr.ant-table-row');
    await poll(() => list.count()).toBe(pending.length);
    await list.first().getByTestId('row-action-approve').click();
    const approve = page.locator('.ant-modal[data-testid="payout-approve"], [data-testid="payout-approve"] .ant-modal').first();
    await approve.waitFor();
    await approve.locator('.ant-modal-footer .ant-btn-primary').click();
    // Refused with reauth_required: the prompt opens over the form, which stays.
    const prompt = page.getByTestId('reauth-password');
    await prompt.waitFor();
    await prompt.fill('not-the-password');
    await page.getByTestId('reauth-ok').click();
    await poll(() => page.locator('.ant-modal .ant-form-item-explain-error').allInnerTexts()).toEqual(['The password is not correct']);
    await settle(page);
    await screenshot(page, 'security-step-up-en');
    await prompt.fill('demo1234');
    await page.getByTestId('reauth-ok').click();
    // The approval is sent again and goes through.
    await poll(() => list.count()).toBe(pending.length - 1);
    const status = (await api(url, 'GET', '/payout/list', { key, limit: 50 })).datas.list.find((p: { id: number }) => p.id === pending[0]!.id)?.status;
    expect(status).toBe('paid');
  });
});

describe('the Security page', () => {
  it('lists where the account is signed in and ends another browser’s session (zh)', async () => {
    const laptop = await suite.open({ locale: 'en-US' });
    await signIn(laptop.page, suite.server.url, 'agent1b', 'institution');
    const phone = await suite.open({ locale: 'zh-CN' });
    await signIn(phone.page, suite.server.url, 'agent1b', 'institution');

    // From the user menu.
    await phone.page.getByTestId('user-dropdown').click();
    await pickDropdownItem(phone.page, 'user-menu-security');
    await phone.page.waitForURL((u) => u.pathname === '/account/security');
    await poll(() => sessionRows(phone.page).count()).toBe(2);
    const current = sessionRows(phone.page).filter({ has: phone.page.getByTestId('session-current') });
    await expect(current.count()).resolves.toBe(1);
    expect(await current.innerText()).toMatch(/当前设备[\s\S]*地址: 127\.0\.0\.1[\s\S]*登录时间/);
    expect(await visible(phone.page, 'account-security').innerText()).toMatch(/账号安全[\s\S]*登录设备/);
    await settle(phone.page);
    await screenshot(phone.page, 'security-sessions-zh');

    // End the laptop's session: the page lists this one alone, and the laptop is signed out.
    const other = sessionRows(phone.page).filter({ hasNot: phone.page.getByTestId('session-current') });
    await other.getByTestId('session-end').click();
    await phone.page.getByTestId('session-end-ok').click();
    await poll(() => sessionRows(phone.page).count()).toBe(1);
    await expect(visible(phone.page, 'session-end-others').isDisabled()).resolves.toBe(true);
    await laptop.page.reload();
    await laptop.page.waitForURL((u) => u.pathname.startsWith('/login'), { timeout: 20_000 });
  });

  it('ends every other session at once and keeps this one (en)', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) keys.push((await api(suite.server.url, 'POST', '/login/institution_login', { username: 'agent2b', password: 'demo1234' })).datas.key);
    const { page, context } = await suite.open({ locale: 'en-US' });
    await signIn(page, suite.server.url, 'agent2b', 'institution', { to: '/account/security' });
    await poll(() => sessionRows(page).count()).toBe(3);
    await visible(page, 'session-end-others').click();
    await page.getByTestId('session-end-others-ok').click();
    await poll(() => sessionRows(page).count()).toBe(1);
    await poll(() => page.getByText('2 sessions ended').count()).toBe(1);
    for (const key of keys) expect((await api(suite.server.url, 'GET', '/institution/get_institution_info', { key })).code).toBe(999);
    expect((await api(suite.server.url, 'GET', '/institution/get_institution_info', { key: await sessionKey(context) })).code).toBe(200);
    await settle(page);
    await screenshot(page, 'security-sessions-en');
  });

  it('the platform signs an institution out everywhere from the institution list (en)', async () => {
    const clinic = (await api(suite.server.url, 'POST', '/login/institution_login', { username: 'clinic3b', password: 'demo1234' })).datas.key as string;
    const { page } = await suite.open({ locale: 'en-US' });
    await signIn(page, suite.server.url, 'admin', 'platform', { to: '/institutional/index?name=Tianhe%20Recovery' });
    const row = visible(page, 'institution-list').locator('.ant-table-tbody tr.ant-table-row').first();
    await poll(() => row.innerText()).toMatch(/clinic3b/);
    await row.getByTestId('row-action-more').click();
    await pickDropdownItem(page, 'row-more-end-sessions');
    await page.getByTestId('confirm-end-sessions').click();
    await poll(() => page.getByText(/session(s)? ended/).count()).toBeGreaterThan(0);
    expect((await api(suite.server.url, 'GET', '/institution/get_institution_info', { key: clinic })).code).toBe(999);
  });
});

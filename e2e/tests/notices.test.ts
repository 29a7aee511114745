/**
 * Live notices in real browsers (issue 36 items 1-2, 4): agent2 applies for a payout in one browser; the
 * admin's page in another shows it within 2 s (the bell's count, a toast, the drawer), without a reload;
 * the drawer's notice opens the pending payouts. The admin's approval reaches agent2 in Chinese; the
 * notice page filters and marks all read. The device list shows presence, last seen and version.
 * Screenshots: test-artifacts/notices-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, e2eSuite, poll, screenshot, settle, signIn } from '../harness';

const suite = e2eSuite('notices');

const modal = (page: Page, testId: string) => page.locator(`.ant-modal[data-testid="${testId}"], [data-testid="${testId}"] .ant-modal`).first();
/** The bell's unread count, from its accessible name ("Notices, 3 unread"; "通知，3 条未读"); 0 when none. */
const unreadOf = async (page: Page) => Number(/(\d+)/.exec((await page.getByTestId('notice-bell').getAttribute('aria-label')) ?? '')?.[1] ?? 0);

describe('live notices', () => {
  it('a payout applied in one browser shows as a notice in another within 2 s; the approval reaches the applicant in its language', async () => {
    const url = suite.server.url;

    // The admin, in English, on the home page with its stream open.
    const en = await suite.open({ locale: 'en-US' });
    await signIn(en.page, url, 'admin');
    await poll(() => en.page.getByTestId('notice-bell').getAttribute('data-live')).toBe('live');
    const before = await unreadOf(en.page);

    // agent2, in Chinese, in another browser context, applies for a payout on its page.
    const zh = await suite.open({ locale: 'zh-CN' });
    await signIn(zh.page, url, 'agent2', 'institution', { to: '/finance-record/payout-manage' });
    await zh.page.getByTestId('payout-apply-open').click();
    await zh.page.getByTestId('payout-amount').fill('120.00');
    await zh.page.getByTestId('payout-bank').fill('工商银行杭州分行');
    await zh.page.getByTestId('payout-account-name').fill('杭州分代理');
    await zh.page.getByTestId('payout-account-no').fill('6222 0210 0000 7777');
    const applied = zh.page.waitForResponse((r) => r.url().includes('/adminapi/payout/apply'));
    await modal(zh.page, 'payout-apply').locator('.ant-modal-footer .ant-btn-primary').click();
    expect((await (await applied).json()).code).toBe(200);

    // Within 2 s of the answer, the admin's page (never reloaded) counts it and says what it is.
    const started = Date.now();
    await expect.poll(() => unreadOf(en.page), { timeout: 2_000, interval: 20 }).toBe(before + 1);
    const delay = Date.now() - started;
    expect(delay).toBeLessThan(2_000);
    await poll(() => en.page.locator('.notice-toast').first().innerText()).toContain('Payout to review: Hangzhou Sub-agency');
    await settle(en.page);
    await screenshot(en.page, 'notices-bell-en');

    // The drawer: the newest notice first, unread; it opens the pending payouts and is read from then on.
    await en.page.getByTestId('notice-bell').click();
    const first = en.page.getByTestId('notice-item').first();
    await poll(() => first.innerText()).toContain('Payout to review: Hangzhou Sub-agency');
    expect(await first.innerText()).toContain('120.00');
    await settle(en.page);
    await screenshot(en.page, 'notices-drawer-en');
    await first.locator('.notice-open').click();
    await poll(() => en.page.url()).toContain('/finance-record/payout-manage?status=pending');
    await poll(() => unreadOf(en.page)).toBe(before);

    // The admin approves (through the API, as a script would); agent2's page hears it in Chinese.
    const adminKey = (await api(url, 'POST', '/login/login', { username: 'admin', password: 'demo1234' })).datas.key as string;
    const payout = (await api(url, 'GET', '/payout/list', { key: adminKey, status: 'pending', limit: 50 })).datas.list.find((p: { account_no: string }) => p.account_no.endsWith('7777'));
    const agentBefore = await unreadOf(zh.page);
    expect((await api(url, 'POST', '/payout/approve', { key: adminKey, id: payout.id })).code).toBe(200);
    await expect.poll(() => unreadOf(zh.page), { timeout: 2_000, interval: 20 }).toBe(agentBefore + 1);
    // The payout list it concerns refreshes by itself: the row turns paid.
    await poll(() => zh.page.locator('[data-testid="payout-list"] .ant-table-tbody tr.ant-table-row').first().innerText()).toContain('已打款');
    await zh.page.getByTestId('notice-bell').click();
    await poll(() => zh.page.getByTestId('notice-item').first().innerText()).toContain('提现已支付：120.00');
    await settle(zh.page);
    await screenshot(zh.page, 'notices-drawer-zh');

    // The notice page: filtered to payouts decided, then every notice marked read.
    await zh.page.getByTestId('notice-all').click();
    await poll(() => zh.page.url()).toContain('/notices');
    await zh.page.getByTestId('notice-kind').click();
    await zh.page.locator('.ant-select-item-option').filter({ hasText: '提现已处理' }).click();
    const noticeRows = zh.page.locator('[data-testid="notice-table"] .ant-table-tbody tr.ant-table-row');
    await poll(() => noticeRows.first().innerText()).toContain('提现已支付');
    expect(await noticeRows.count()).toBeGreaterThan(0);
    for (const text of await noticeRows.allInnerTexts()) expect(text).toContain('提现已');
    await settle(zh.page);
    await screenshot(zh.page, 'notices-page-zh');
    await zh.page.getByTestId('notices-read-all').click();
    await poll(() => unreadOf(zh.page)).toBe(0);
  });

  it('the device list shows presence, last seen and the reported version, and filters by them', async () => {
    const url = suite.server.url;
    // The demo device calls in with a version (as the simulator does).
    const res = await fetch(`${url}/deviceapi/v1/status`, { headers: { authorization: 'Bearer BE-DEMO-0001.demo-device-secret-0001', 'x-device-version': 'simulator 1.0.0' } });
    expect((await res.json()).code).toBe(200);
    const en = await suite.open({ locale: 'en-US' });
    await signIn(en.page, url, 'admin', 'platform', { to: '/dashboard/index?online=true' });
    const row = en.page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: 'BE-DEMO-0001' });
    await poll(() => row.innerText()).toContain('simulator 1.0.0');
    expect(await row.getByTestId('device-online').innerText()).toContain('Online');
    // Only online devices are listed.
    expect(await en.page.getByTestId('device-offline').count()).toBe(0);
    // The presence and version columns are right of the fold: scrolled into view for the picture.
    await en.page
      .locator('.ant-table-content, .ant-table-body')
      .first()
      .evaluate((el) => {
        el.scrollLeft = el.scrollWidth;
      });
    await settle(en.page);
    await screenshot(en.page, 'notices-devices-en');
  });
});

/**
 * Money in a real browser (issue 11 items 5-9): the demo device pays through the device API; agent2 sees
 * the commission in its finance records, applies for a payout (the amount is held at once); the admin
 * approves it; the balance, the ledger, the payout list and the device payments agree on every page and
 * with the API. Screenshots in zh and en: test-artifacts/finance-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, e2eSuite, poll, screenshot, settle, signIn } from '../harness';
import { makePng } from '../png';

const suite = e2eSuite('finance');

const DEVICE = 'Bearer BE-DEMO-0001.demo-device-secret-0001';
const rows = (page: Page, list: string) => page.locator(`[data-testid="${list}"] .ant-table-tbody tr.ant-table-row`);
const modal = (page: Page, testId: string) => page.locator(`.ant-modal[data-testid="${testId}"], [data-testid="${testId}"] .ant-modal`).first();
/** Digits of a money text ("¥1,234.50", "CN¥1,234.50", "1234,50 CN¥") as cents. */
const centsOf = (text: string) => Number(text.replace(/[^\d]/g, ''));

async function device(method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${suite.server.url}/deviceapi/v1${path}`, {
    method,
    headers: { authorization: DEVICE, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as { code: number; datas: any };
}

async function keyOf(username: string, kind: 'admin' | 'institution') {
  const res = await api(suite.server.url, 'POST', kind === 'admin' ? '/login/login' : '/login/institution_login', { username, password: 'demo1234' });
  expect(res.code).toBe(200);
  return res.datas.key as string;
}

async function summaryCards(page: Page) {
  await poll(() => page.getByTestId('summary-balance').innerText()).toMatch(/\d/);
  const read = async (k: string) => centsOf(await page.getByTestId(`summary-${k}`).locator('.ant-statistic-content').innerText());
  return { balance: await read('balance'), ledger: await read('ledger'), pending: await read('pending') };
}

describe('commission, payout, approval', () => {
  it('agent2 sees the commission of a device payment, applies for a payout, the admin approves it; every page agrees', async () => {
    const url = suite.server.url;
    // The demo device (clinic3's, under agent2 and agent1) pays for "10 inspections" through the device API.
    const packs = await device('GET', '/packages');
    expect(packs.code).toBe(200);
    const pack = packs.datas.list.find((p: any) => p.name === '10 inspections');
    const orderNo = `E2E-${Date.now()}`;
    const paid = await device('POST', '/payments', { order_no: orderNo, package_id: pack.id, amount_cents: pack.price_cents, channel: 'wechat', paid_at: new Date().toISOString() });
    expect(paid.code, JSON.stringify(paid)).toBe(200);
    const recordId = paid.datas.record_id as number;
    const agentKey = await keyOf('agent2', 'institution');
    const before = (await api(url, 'GET', '/finance/summary', { key: agentKey })).datas;
    expect(before.balance_cents).toBe(before.ledger_sum_cents);
    const payment = (await api(url, 'GET', '/device_payment/list', { key: agentKey, serial: 'BE-DEMO-0001', limit: 1 })).datas.list[0];
    expect(payment).toMatchObject({ id: recordId, order_no: orderNo, amount_cents: pack.price_cents });
    const commission = payment.l2_cents as number;
    expect(commission).toBe(Math.floor((pack.price_cents * 1000 + 5000) / 10000));

    // agent2, in Chinese: the ledger's newest row is that commission; the cards show balance = ledger sum.
    const zh = await suite.open({ locale: 'zh-CN' });
    await signIn(zh.page, url, 'agent2', 'institution', { to: '/finance-record/index?kind=commission' });
    await poll(() => rows(zh.page, 'ledger-list').count()).toBeGreaterThan(0);
    const first = await rows(zh.page, 'ledger-list').first().innerText();
    expect(first).toContain(`支付 #${recordId}`);
    expect(first).toContain('佣金');
    expect(first).toContain((commission / 100).toFixed(2));
    const cards = await summaryCards(zh.page);
    expect(cards).toEqual({ balance: before.balance_cents, ledger: before.ledger_sum_cents, pending: before.pending_payout_cents });
    await settle(zh.page);
    await screenshot(zh.page, 'finance-ledger-zh');

    // It applies for 150.00 on the payouts page: the amount is held at once.
    await zh.page.goto(`${url}/finance-record/payout-manage`);
    await zh.page.getByTestId('payout-apply-open').click();
    await zh.page.getByTestId('payout-amount').fill('150.00');
    await zh.page.getByTestId('payout-bank').fill('工商银行杭州分行');
    await zh.page.getByTestId('payout-account-name').fill('杭州分代理');
    await zh.page.getByTestId('payout-account-no').fill('6222 0210 0000 8888');
    await settle(zh.page);
    await screenshot(zh.page, 'finance-apply-zh');
    await modal(zh.page, 'payout-apply').locator('.ant-modal-footer .ant-btn-primary').click();
    await poll(() => rows(zh.page, 'payout-list').first().innerText()).toContain('****8888');
    expect(await rows(zh.page, 'payout-list').first().innerText()).toContain('待审核');
    await poll(() => summaryCards(zh.page)).toEqual({ balance: before.balance_cents - 15_000, ledger: before.ledger_sum_cents - 15_000, pending: before.pending_payout_cents + 15_000 });
    await settle(zh.page);
    await screenshot(zh.page, 'finance-payouts-zh');

    // The admin, in English, approves it.
    const en = await suite.open({ locale: 'en-US' });
    await signIn(en.page, url, 'admin', 'platform', { to: '/finance-record/payout-manage?status=pending' });
    const row = rows(en.page, 'payout-list').filter({ hasText: '****8888' });
    await row.waitFor({ timeout: 20_000 });
    expect(await row.innerText()).toMatch(/Hangzhou Sub-agency[\s\S]*150\.00/);
    await settle(en.page);
    await screenshot(en.page, 'finance-payouts-en');
    await row.getByTestId('row-action-approve').click();
    await modal(en.page, 'payout-approve').waitFor();
    // The transfer slip's image goes up through the reviewers' own upload and shows as a thumbnail.
    await modal(en.page, 'payout-approve')
      .getByTestId('payout-voucher-image-input')
      .setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: makePng(240, 160) });
    await modal(en.page, 'payout-approve').locator('.image-upload-thumb').waitFor();
    await settle(en.page);
    await screenshot(en.page, 'finance-approve-en');
    await modal(en.page, 'payout-approve').locator('.ant-modal-footer .ant-btn-primary').click();
    await poll(() => rows(en.page, 'payout-list').filter({ hasText: '****8888' }).count()).toBe(0);

    // Numbers agree: the API, agent2's cards, its ledger (the hold), the payout list (paid).
    const after = (await api(url, 'GET', '/finance/summary', { key: agentKey })).datas;
    expect(after).toEqual({ balance_cents: before.balance_cents - 15_000, ledger_sum_cents: before.ledger_sum_cents - 15_000, pending_payout_cents: before.pending_payout_cents });
    await zh.page.goto(`${url}/finance-record/payout-manage`);
    await poll(() => rows(zh.page, 'payout-list').first().innerText()).toContain('已打款');
    // The applicant sees the voucher as a link to the uploaded image.
    const voucher = await rows(zh.page, 'payout-list').first().getByRole('link', { name: '打款凭证' }).getAttribute('href');
    expect(voucher).toMatch(/^\/adminapi\/uploads\/[0-9a-f]{32}\.png$/);
    expect((await fetch(`${url}${voucher}`)).headers.get('content-type')).toBe('image/png');
    expect(await summaryCards(zh.page)).toEqual({ balance: after.balance_cents, ledger: after.ledger_sum_cents, pending: after.pending_payout_cents });
    await zh.page.goto(`${url}/finance-record/index`);
    await poll(() => rows(zh.page, 'ledger-list').first().innerText()).toContain('提现冻结');
    const hold = await rows(zh.page, 'ledger-list').first().innerText();
    expect(hold).toContain('150.00');
    expect(hold).toContain((after.balance_cents / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ','));

    // Device payments: the totals row equals the API's totals of the same filter; the per-device page lists the order.
    await zh.page.goto(`${url}/finance-record/device-end-record?serial=BE-DEMO-0001`);
    await poll(() => zh.page.getByTestId('payment-totals-amount').innerText()).toMatch(/\d/);
    const totals = (await api(url, 'GET', '/device_payment/list', { key: agentKey, serial: 'BE-DEMO-0001' })).datas.totals;
    expect(centsOf(await zh.page.getByTestId('payment-totals-amount').innerText())).toBe(totals.amount_cents);
    expect(await rows(zh.page, 'payment-list').first().innerText()).toContain(orderNo);
    await settle(zh.page);
    await screenshot(zh.page, 'finance-payments-zh');

    await en.page.goto(`${url}/dashboard/device-end-record/${payment.device_id}`);
    await poll(() => en.page.getByTestId('device-payments-title').innerText()).toContain('BE-DEMO-0001');
    await poll(() => rows(en.page, 'payment-list').first().innerText()).toContain(orderNo);
    expect(centsOf(await en.page.getByTestId('payment-totals-amount').innerText())).toBe(totals.amount_cents);
    await settle(en.page);
    await screenshot(en.page, 'finance-device-payments-en');
    await en.page.goto(`${url}/finance-record/index`);
    await poll(() => rows(en.page, 'ledger-list').count()).toBeGreaterThan(0);
    const platform = (await api(url, 'GET', '/finance/summary', { key: await keyOf('admin', 'admin') })).datas;
    expect(await summaryCards(en.page)).toEqual({ balance: platform.balance_cents, ledger: platform.ledger_sum_cents, pending: platform.pending_payout_cents });
    await settle(en.page);
    await screenshot(en.page, 'finance-ledger-en');
  }, 180_000); // a long flow over several pages and two sessions: 40-60 s when two files share a slow 2-core box
});

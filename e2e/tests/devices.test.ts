/**
 * Devices in a real browser (issue 11 items 1-3): the admin adds a device (its secret shown once),
 * distributes it from platform stock to clinic3 and reads the distribution record; clinic3 sees the device
 * in its own list; activated by a device code, the device pays through the device API with that secret
 * and agent2 is credited its commission. Screenshots in en and zh:
 * test-artifacts/devices-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, DEMO_PASSWORD, e2eSuite, pickDropdownItem, poll, screenshot, settle, signIn, submitLogin } from '../harness';

const suite = e2eSuite('devices');

const rows = (page: Page, list: string) => page.locator(`[data-testid="${list}"] .ant-table-tbody tr.ant-table-row`);
const modal = (page: Page, testId: string) => page.locator(`.ant-modal[data-testid="${testId}"], [data-testid="${testId}"] .ant-modal`).first();

describe('device lifecycle and distribution', () => {
  it('the admin adds a device and distributes it to clinic3; clinic3 sees it; the device signs its calls', async () => {
    const url = suite.server.url;
    const serial = `E2E-${Date.now().toString(36).toUpperCase()}`;

    // The admin (en) adds the device: the secret is shown once.
    const { page } = await suite.open();
    await signIn(page, url, 'admin', 'platform', { to: '/dashboard/index' });
    await page.getByTestId('device-add-button').click();
    await modal(page, 'device-add').getByTestId('device-add-serial').fill(serial.toLowerCase());
    await modal(page, 'device-add').getByTestId('device-model').fill('BE-200');
    await modal(page, 'device-add').getByTestId('device-name').fill('E2E analyser');
    await modal(page, 'device-add').locator('.ant-modal-footer .ant-btn-primary').click();
    const secretText = page.getByTestId('device-secret');
    await poll(() => secretText.innerText()).toMatch(/^[A-Za-z0-9_-]{43,}/);
    const secret = (await secretText.innerText()).trim();
    await settle(page);
    await screenshot(page, 'devices-secret-en');
    await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn-primary').click();

    // Found in platform stock (serials are stored upper-case), selected and moved to clinic3.
    await page.getByTestId('filter-keyword').fill(serial);
    await page.getByTestId('filter-keyword').press('Enter');
    await poll(() => rows(page, 'device-list').count()).toBe(1);
    await rows(page, 'device-list').first().locator('.ant-checkbox-input').check();
    await page.getByTestId('device-distribute-button').click();
    const dialog = modal(page, 'device-distribute');
    await dialog.getByTestId('device-distribute-to').click();
    await page.keyboard.type('West Lake');
    await page.locator('.ant-select-tree-node-content-wrapper:visible', { hasText: 'West Lake Wellness Clinic' }).first().click();
    await dialog.getByTestId('device-distribute-remark').fill('E2E delivery');
    await settle(page);
    await screenshot(page, 'devices-distribute-en');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await poll(() => rows(page, 'device-list').first().innerText()).toContain('West Lake Wellness Clinic');

    // The record names the device, from stock to clinic3, the operator and the remark.
    await page.goto(`${url}/distribution-record/index`);
    const record = rows(page, 'distribution-list').filter({ hasText: 'E2E delivery' });
    await poll(() => record.count()).toBe(1);
    expect(await record.innerText()).toMatch(/West Lake Wellness Clinic/);
    await settle(page);
    await screenshot(page, 'devices-distribution-records-en');

    // The activation codes page is in no menu: the platform reaches it from the device list.
    await page.goto(`${url}/dashboard/index`);
    await page.getByTestId('device-codes-link').click();
    await poll(() => page.url()).toContain('/activation-code/index');

    // clinic3 (zh) sees the new device in its own list.
    const zh = await suite.open({ locale: 'zh-CN' });
    await signIn(zh.page, url, 'clinic3', 'institution', { to: '/dashboard/index' });
    await zh.page.getByTestId('filter-keyword').fill(serial);
    await zh.page.getByTestId('filter-keyword').press('Enter');
    await poll(() => rows(zh.page, 'device-list').count()).toBe(1);
    await settle(zh.page);
    await screenshot(zh.page, 'devices-clinic3-zh');

    // The device signs its calls with the secret shown once: it is known, and inactive until a code or payment activates it.
    const device = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const res = await fetch(`${url}/deviceapi/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${serial}.${secret}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return (await res.json()) as { code: number; datas: any };
    };
    const inactive = await device('GET', '/status');
    expect(inactive.code).toBe(403);
    expect(inactive.datas.error.reason).toBe('inactive');
    const wrong = await fetch(`${url}/deviceapi/v1/status`, { headers: { authorization: `Bearer ${serial}.not-the-secret` } });
    expect(wrong.status).toBe(401);

    // clinic3 activates it with a device code the platform generated; then it pays for a package.
    const adminKey = (await api(url, 'POST', '/login/login', { username: 'admin', password: DEMO_PASSWORD })).datas.key;
    const clinicKey = (await api(url, 'POST', '/login/institution_login', { username: 'clinic3', password: DEMO_PASSWORD })).datas.key;
    const agentKey = (await api(url, 'POST', '/login/institution_login', { username: 'agent2', password: DEMO_PASSWORD })).datas.key;
    const made = await api(url, 'POST', '/activation_code/generate', { key: adminKey, scope: 'device', days: 30, count: 1 });
    const mine = (await api(url, 'GET', '/equipment/list', { key: clinicKey, keyword: serial })).datas.list[0];
    const redeemed = await api(url, 'POST', '/base_index/use_activation_code_device', { key: clinicKey, id: mine.id, code: made.datas.codes[0] });
    expect(redeemed.code, JSON.stringify(redeemed)).toBe(200);
    expect(redeemed.datas.status).toBe('active');
    const status = await device('GET', '/status');
    expect(status.code).toBe(200);
    expect(status.datas).toMatchObject({ serial, status: 'active', institution: { name: 'West Lake Wellness Clinic' } });
    const pack = (await device('GET', '/packages')).datas.list[0];
    const before = (await api(url, 'GET', '/finance/summary', { key: agentKey })).datas.balance_cents as number;
    const orderNo = `E2E-${serial}`;
    const paid = await device('POST', '/payments', { order_no: orderNo, package_id: pack.id, amount_cents: pack.price_cents, channel: 'wechat', paid_at: new Date().toISOString() });
    expect(paid.code, JSON.stringify(paid)).toBe(200);
    // agent2 (clinic3's parent, grade 2) is credited its commission on this device's payment.
    const payment = (await api(url, 'GET', '/device_payment/list', { key: agentKey, serial, limit: 1 })).datas.list[0];
    expect(payment).toMatchObject({ order_no: orderNo, amount_cents: pack.price_cents });
    expect(payment.l2_cents).toBeGreaterThan(0);
    const after = (await api(url, 'GET', '/finance/summary', { key: agentKey })).datas;
    expect(after.balance_cents - before).toBe(payment.l2_cents);
    expect(after.balance_cents).toBe(after.ledger_sum_cents);
  });
});

describe('the home page loads in parallel', () => {
  it("asks for its rows beside the user info, once: a reload, then a sign-in on a page's address", async () => {
    const url = suite.server.url;
    const { page } = await suite.open();
    await signIn(page, url, 'admin', 'platform', { to: '/dashboard/index?sort=serial&order=ascend' });
    await poll(() => rows(page, 'device-list').count()).toBeGreaterThan(0);

    // The user info is held until the page's list call has gone out: a list that waited for it would never
    // be asked for, and the round would fail on the deadline.
    let round = { lists: [] as string[], listSent: () => {}, sent: Promise.resolve(), heldInfo: false };
    const newRound = () => {
      let listSent!: () => void;
      const sent = new Promise<void>((resolve) => {
        listSent = resolve;
      });
      round = { lists: [], listSent, sent, heldInfo: false };
    };
    page.on('request', (req) => {
      if (!req.url().includes('/adminapi/equipment/list')) return;
      round.lists.push(new URL(req.url()).search);
      round.listSent();
    });
    await page.route('**/adminapi/member/get_member*', async (route) => {
      const current = round;
      current.heldInfo = await Promise.race([current.sent.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 10_000))]);
      await route.continue();
    });

    newRound();
    await page.reload();
    await poll(() => rows(page, 'device-list').count()).toBeGreaterThan(0);
    expect(round.heldInfo, 'the list was asked for while the user info was pending').toBe(true);
    expect(round.lists).toHaveLength(1);
    const asked = new URLSearchParams(round.lists[0]);
    expect([asked.get('sort'), asked.get('order'), asked.get('page'), asked.get('limit')]).toEqual(['serial', 'ascend', '1', '20']);

    // Signed out, then in again on the login page an address sent the user to: the same.
    await page.evaluate(() => localStorage.clear());
    await page.context().clearCookies();
    await page.goto(`${url}/login?redirect=${encodeURIComponent('/dashboard/index?status=active')}`);
    newRound();
    await submitLogin(page, 'admin');
    await page.waitForURL((u) => u.pathname === '/dashboard/index');
    await poll(() => rows(page, 'device-list').count()).toBeGreaterThan(0);
    expect(round.heldInfo).toBe(true);
    expect(round.lists).toHaveLength(1);
    expect(new URLSearchParams(round.lists[0]).get('status')).toBe('active');
  });

  it("after signing in, a reload sends the home page's calls with the HTML, before the boot code has arrived, and asks each once", async () => {
    const url = suite.server.url;
    const { page } = await suite.open();
    // Signing in shows the home page: the app records the calls it made for it (lib/early.ts).
    await signIn(page, url, 'admin');
    await page.waitForURL((u) => u.pathname === '/dashboard/index');
    await poll(() => rows(page, 'device-list').count()).toBeGreaterThan(0);

    const sent: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/adminapi/')) sent.push(new URL(req.url()).pathname);
    });
    // The boot code is held until the page has sent both calls (or 10 s): they left without it.
    let beforeBoot: string[] = [];
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && !(sent.includes('/adminapi/member/get_member') && sent.includes('/adminapi/equipment/list'))) await new Promise((r) => setTimeout(r, 50));
      beforeBoot = [...sent];
      await route.continue();
    });
    await page.reload();
    await poll(() => rows(page, 'device-list').count()).toBeGreaterThan(0);
    // The user info, the rows, and what else the page asked first (the filter's institutions).
    expect(beforeBoot).toEqual(expect.arrayContaining(['/adminapi/equipment/list', '/adminapi/member/get_member']));
    // The app took those answers: nothing asked twice. A duplicate would leave within a moment of the first
    // render, so this negative check gives it that moment: a window, not a wait for something to happen.
    await settle(page);
    await page.waitForTimeout(400);
    for (const path of beforeBoot)
      expect(
        sent.filter((p) => p === path),
        path,
      ).toHaveLength(1);
    await page.unroute(/\/assets\/index-[^/]+\.js$/);

    // Signed out: the record goes with the session, and a reload sends nothing before its boot code.
    await page.evaluate(() => localStorage.getItem('bioadmin:early')).then((r) => expect(r).toContain('/adminapi/equipment/list'));
    await page.getByTestId('user-dropdown').click();
    await pickDropdownItem(page, 'user-menu-logout');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(await page.evaluate(() => localStorage.getItem('bioadmin:early'))).toBeNull();
  });
});

/**
 * Devices in a real browser (issue 11 items 1-3): the admin adds a device (its secret shown once),
 * distributes it from platform stock to clinic3 and reads the distribution record; clinic3 sees the device
 * in its own list; the device then talks to the device API with that secret. Screenshots in en and zh:
 * test-artifacts/devices-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2eSuite, poll, screenshot, settle, signIn } from '../harness';

const suite = e2eSuite('devices');

const rows = (page: Page, list: string) => page.locator(`[data-testid="${list}"] .ant-table-tbody tr.ant-table-row`);
const modal = (page: Page, testId: string) => page.locator(`.ant-modal[data-testid="${testId}"], [data-testid="${testId}"] .ant-modal`).first();

describe('device lifecycle and distribution', () => {
  it('the admin adds a device and distributes it to clinic3; clinic3 sees it; the device signs its calls', async () => {
    const url = suite.server.url;
    const serial = `E2E-${Date.now().toString(36).toUpperCase()}`;

    // The admin (en) adds the device: the secret is shown once.
    const { page } = await suite.open();
    await signIn(page, url, 'admin');
    await page.goto(`${url}/dashboard/index`);
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
    await signIn(zh.page, url, 'clinic3', 'institution');
    await zh.page.goto(`${url}/dashboard/index`);
    await zh.page.getByTestId('filter-keyword').fill(serial);
    await zh.page.getByTestId('filter-keyword').press('Enter');
    await poll(() => rows(zh.page, 'device-list').count()).toBe(1);
    await settle(zh.page);
    await screenshot(zh.page, 'devices-clinic3-zh');

    // The device signs its calls with the secret shown once: it is known, and inactive until a code or payment activates it.
    const status = await fetch(`${url}/deviceapi/v1/status`, { headers: { authorization: `Bearer ${serial}.${secret}` } });
    const answer = (await status.json()) as { code: number; datas: any };
    expect([200, 403]).toContain(answer.code);
    if (answer.code === 200) expect(answer.datas).toMatchObject({ serial, institution: { name: 'West Lake Wellness Clinic' } });
    else expect(answer.datas.error.reason).toBe('inactive');
    const wrong = await fetch(`${url}/deviceapi/v1/status`, { headers: { authorization: `Bearer ${serial}.not-the-secret` } });
    expect(wrong.status).toBe(401);
  });
});

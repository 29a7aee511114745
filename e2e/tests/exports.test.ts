/**
 * Exports in a real browser (issue 13 item 2): the shared export menu on the device list (en, filtered:
 * the file holds every filtered row, the progress shows while a slowed download runs, a second one is
 * cancelled) and on the payouts page (zh, Excel: the workbook's title row in Chinese). The network is
 * slowed through Chromium's DevTools protocol only around the downloads, so the progress has time to be
 * seen. Screenshots: test-artifacts/exports-*.png.
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, e2eSuite, pickDropdownItem, screenshot, sessionKey, settle, signIn, visible } from '../harness';

const suite = e2eSuite('exports');

const sessions = new WeakMap<Page, CDPSession>();

/** Slows every response of the page to `bytesPerSecond` (undefined: back to normal), through one DevTools session per page. */
async function throttle(page: Page, bytesPerSecond?: number) {
  let cdp = sessions.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    sessions.set(page, cdp);
  }
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: bytesPerSecond ? 50 : 0, downloadThroughput: bytesPerSecond ?? -1, uploadThroughput: -1 });
}

describe('export menu', () => {
  it('devices (en): every filtered row in the CSV, progress while it runs, cancel', async () => {
    const { page, context } = await suite.open({ locale: 'en-US' });
    await signIn(page, suite.server.url, 'admin', 'platform', { to: '/dashboard/index?status=active' });
    await page.getByTestId('devices-export-button').waitFor({ timeout: 20_000 });
    const key = (await sessionKey(context))!;
    const listed = await api(suite.server.url, 'GET', '/equipment/list', { key, status: 'active', limit: 1 });
    expect(listed.datas.total).toBeGreaterThan(0);

    await page.getByTestId('devices-export-button').click();
    await visible(page, 'devices-export-csv').waitFor();
    await settle(page);
    await screenshot(page, 'exports-menu-en');

    const downloaded = page.waitForEvent('download', { timeout: 60_000 });
    await pickDropdownItem(page, 'devices-export-csv');
    const download = await downloaded;
    expect(download.suggestedFilename()).toMatch(/^devices-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = fs.readFileSync((await download.path())!, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Serial,Name,Model,Status,Institution,Activated (UTC),Expires (UTC),Uses left,Inspections,Last seen (UTC),Created (UTC),Remark');
    expect(lines).toHaveLength(listed.datas.total + 1);
    for (const line of lines.slice(1)) expect(line.split(',')[3]).toBe('Active');
    const progress = page.getByTestId('devices-export-progress');
    await progress.waitFor({ state: 'detached' });

    // On a slowed network: the progress shows while it runs, then it is cancelled: no file, a message says so.
    // 256 bytes/s: the file (about 8 KB) takes half a minute, so it is still running when the click lands,
    // even on a box slow enough that the progress notice's entrance takes seconds (at 2 KB/s it had ended).
    await throttle(page, 256);
    await page.getByTestId('devices-export-button').click();
    await pickDropdownItem(page, 'devices-export-csv');
    await progress.waitFor({ state: 'visible' });
    await screenshot(page, 'exports-progress-en');
    await page.getByTestId('devices-export-cancel').click({ timeout: 10_000 });
    await progress.waitFor({ state: 'detached' });
    await page.locator('.ant-message-notice').filter({ hasText: 'Export cancelled' }).waitFor();
    await throttle(page);
  });

  it('payouts (zh): an Excel file of the filtered payouts, titles in Chinese', async () => {
    const { page, context } = await suite.open({ locale: 'zh-CN' });
    await signIn(page, suite.server.url, 'admin', 'platform', { to: '/finance-record/payout-manage?status=paid' });
    await page.getByTestId('payouts-export-button').waitFor({ timeout: 20_000 });
    const key = (await sessionKey(context))!;
    const listed = await api(suite.server.url, 'GET', '/payout/list', { key, status: 'paid', limit: 1 });
    await settle(page);
    await page.getByTestId('payouts-export-button').click();
    const downloaded = page.waitForEvent('download', { timeout: 60_000 });
    await pickDropdownItem(page, 'payouts-export-xlsx');
    const download = await downloaded;
    expect(download.suggestedFilename()).toMatch(/^payouts-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await download.path())!);
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('提现记录');
    expect((sheet.getRow(1).values as unknown[]).slice(1, 4)).toEqual(['申请时间 (UTC)', '机构', '金额']);
    expect(sheet.actualRowCount).toBe(listed.datas.total + 1);
    await page.locator('.ant-message-notice').filter({ hasText: '导出完成' }).waitFor();
    await screenshot(page, 'exports-done-zh');
  });
});

/**
 * Stats dashboards in a real browser (issue 13 item 1): the admin opens the device stats, changes the
 * range preset (the address changes, the figures reload and match the API for that range), shows a
 * table, exports it, and follows the links to the distribution and institution stats; agent1 opens
 * finance stats from its "Stats" menu; clinic3 has no stats menu and the API refuses it.
 * Screenshots in en and zh, and in es and ja in light and dark: test-artifacts/stats-*.png.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { animationsDone, api, e2eSuite, followSystemAppearance, poll, screenshot, signIn } from '../harness';

const suite = e2eSuite('stats');

const kpi = (page: Page, name: string) => page.getByTestId(`kpi-${name}`).locator('.ant-statistic-content');
const digits = (text: string) => Number(text.replace(/[^\d]/g, ''));
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function keyOf(username: string, kind: 'admin' | 'institution') {
  const res = await api(suite.server.url, 'POST', kind === 'admin' ? '/login/login' : '/login/institution_login', { username, password: 'demo1234' });
  expect(res.code).toBe(200);
  return res.datas.key as string;
}

/** Waits until the charts of a page are drawn (charts have no animation: drawn is finished). */
async function charts(page: Page, testId: string) {
  await page.getByTestId(testId).waitFor({ timeout: 20_000 });
  await poll(() => page.locator(`[data-testid="${testId}"] [data-testid^="chart-"] canvas`).count()).toBeGreaterThan(0);
  // Spinners of this page only: a page kept alive in a hidden tab (the device list signed in to) may show its own.
  await poll(() => page.locator('.ant-spin-spinning:visible, .ant-skeleton-active:visible, .ant-message-notice').count()).toBe(0);
}

describe('stats pages', () => {
  it('admin: presets in the address, figures as the API answers them, a table and its export, the links to the hidden pages', async () => {
    const url = suite.server.url;
    const adminKey = await keyOf('admin', 'admin');
    const { page } = await suite.open({ locale: 'en-US', width: 1440, height: 1000 });
    await signIn(page, url, 'admin', 'platform', { to: '/stats/equipment' });
    await charts(page, 'stats-equipment');
    const now = Date.now();
    const month = (await api(url, 'GET', '/stats/equipment', { key: adminKey, from: day(now - 29 * 86_400_000), to: day(now) })).datas;
    await poll(async () => digits(await kpi(page, 'inspections').innerText())).toBe(month.kpis.inspections);
    expect(digits(await kpi(page, 'devices').innerText())).toBe(month.kpis.devices);
    await screenshot(page, 'stats-equipment-en');

    // 12 months: the address says so, the figures reload to the API's for that range.
    await page.getByTestId('stats-presets').getByText('12 months').click();
    await page.waitForURL((u) => u.searchParams.get('range') === '12m');
    const d = new Date(now);
    const year = (await api(url, 'GET', '/stats/equipment', { key: adminKey, from: day(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11, 1)), to: day(now) })).datas;
    expect(year.kpis.inspections).toBeGreaterThan(month.kpis.inspections);
    await poll(async () => digits(await kpi(page, 'inspections').innerText())).toBe(year.kpis.inspections);
    await charts(page, 'stats-equipment');

    // The numbers of a chart as a table, and that table as a file.
    await page.getByTestId('view-byStatus').getByText('Table').click();
    const table = page.getByTestId('table-byStatus');
    await table.waitFor();
    const active = year.series.byStatus.find((p: { key: string }) => p.key === 'active').value;
    await poll(() => table.innerText()).toContain(`Active\t${active}`);
    await screenshot(page, 'stats-equipment-table-en');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv-byStatus').click()]);
    expect(download.suggestedFilename()).toMatch(/^stats-equipment-byStatus-\d{4}-\d{2}-01-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs
      .readFileSync((await download.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe('Status,Devices');
    expect(csv).toContain(`Active,${active}`);

    // The hidden pages, reached by their links, keep the range.
    await page.getByTestId('link-distribution').click();
    await page.waitForURL((u) => u.pathname === '/stats/distribution' && u.searchParams.get('range') === '12m');
    await charts(page, 'stats-distribution');
    await screenshot(page, 'stats-distribution-en');
    await page.getByTestId('link-equipment').click();
    await page.getByTestId('link-institution').click();
    await page.waitForURL((u) => u.pathname === '/stats/institution');
    await charts(page, 'stats-institution');
    const inst = (await api(url, 'GET', '/stats/institution', { key: adminKey, from: year.range.from, to: year.range.to })).datas;
    await poll(async () => digits(await kpi(page, 'institutions').innerText())).toBe(inst.kpis.institutions);
    await screenshot(page, 'stats-institution-en');

    // Finance stats by address: the platform's figures, then one institution's.
    await page.goto(`${url}/stats/finance?range=12m`);
    await charts(page, 'stats-finance');
    await screenshot(page, 'stats-finance-platform-en');
  });

  it('admin in Chinese: every page', async () => {
    const url = suite.server.url;
    const { page } = await suite.open({ locale: 'zh-CN', width: 1440, height: 1000 });
    await signIn(page, url, 'admin');
    for (const [path, id] of [
      ['equipment', 'stats-equipment'],
      ['distribution', 'stats-distribution'],
      ['institution', 'stats-institution'],
    ] as const) {
      await page.goto(`${url}/stats/${path}?range=12m`);
      await charts(page, id);
      await screenshot(page, `stats-${path}-zh`);
    }
    await expect(page.getByTestId('stats-presets').innerText()).resolves.toContain('近 12 个月');
  });

  it.each([
    ['es', 'es-ES', '12 meses'],
    ['ja', 'ja-JP', '12 か月'],
  ] as const)('admin in %s, light and dark: every page', async (lang, locale, twelveMonths) => {
    const url = suite.server.url;
    const { context, page } = await suite.open({ locale, width: 1440, height: 1000 });
    await followSystemAppearance(context);
    await signIn(page, url, 'admin');
    for (const path of ['equipment', 'distribution', 'institution', 'finance'] as const) {
      await page.goto(`${url}/stats/${path}?range=12m`);
      await charts(page, `stats-${path}`);
      expect(await page.getByTestId('stats-presets').innerText()).toContain(twelveMonths);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await poll(() => page.evaluate(() => document.documentElement.dataset.appearance)).toBe(scheme);
        // The card behind the charts follows the appearance (the charts read the same tokens).
        const card = await page
          .locator(`[data-testid="stats-${path}"] .ant-card`)
          .first()
          .evaluate((e) => getComputedStyle(e).backgroundColor);
        expect(card).toBe(scheme === 'dark' ? 'rgb(20, 20, 20)' : 'rgb(255, 255, 255)');
        // antd's colour transitions (0.2 s) over before the picture.
        await animationsDone(page);
        await screenshot(page, `stats-${path}-${lang}-${scheme}`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });

  it('agent1 opens finance stats from its Stats menu: its own figures; clinic3 has no stats and the API refuses it', async () => {
    const url = suite.server.url;
    const agentKey = await keyOf('agent1', 'institution');
    for (const [locale, lang] of [
      ['en-US', 'en'],
      ['zh-CN', 'zh'],
    ] as const) {
      const { page } = await suite.open({ locale, width: 1440, height: 1000 });
      await signIn(page, url, 'agent1', 'institution');
      await page.getByTestId('menu-Stats').click();
      await page.waitForURL((u) => u.pathname === '/stats/finance');
      await page
        .getByTestId('stats-presets')
        .getByText(lang === 'en' ? '12 months' : '近 12 个月')
        .click();
      await page.waitForURL((u) => u.searchParams.get('range') === '12m');
      await charts(page, 'stats-finance');
      if (lang === 'en') {
        // The address changes before React renders the new range (a navigation is a transition): the range
        // shown is read once it is the 12 months', never the 30 days' still on screen (CI read that once).
        const now = new Date();
        const from = day(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
        const to = day(now.getTime());
        await poll(() => page.getByTestId('stats-range-text').innerText()).toContain(`${from} ~ ${to}`);
        const own = (await api(url, 'GET', '/stats/finance', { key: agentKey, from, to })).datas;
        expect(own.institution.name).toBe('East China Regional Agency');
        await poll(async () => digits(await kpi(page, 'commission').innerText())).toBe(own.kpis.commission);
      }
      await screenshot(page, `stats-finance-agent1-${lang}`);
    }

    const { page } = await suite.open({ locale: 'en-US' });
    await signIn(page, url, 'clinic3', 'institution');
    await page.getByTestId('menu-DeviceList').waitFor();
    expect(await page.getByTestId('menu-Stats').count()).toBe(0);
    const clinicKey = await keyOf('clinic3', 'institution');
    for (const p of ['equipment', 'finance']) expect((await api(url, 'GET', `/stats/${p}`, { key: clinicKey, from: '2026-01-01', to: '2026-01-31' })).code).toBe(400);
  });
});

/**
 * Language completeness (issue 13, item 4), in Chromium against the real server: the login page (axe in
 * light and dark in en; names in zh, es and ja) and every page of the admin in es and in ja: every
 * accessible name (aria-label, title, placeholder, the text of buttons, links, tabs, menu items) in the
 * reader's language, no English word outside data; the table's row checkboxes (antd names them "Select row
 * N" in English whatever the locale) in zh and ja, checked and unchecked.
 */
import { describe, expect, it } from 'vitest';
import { adminPages, axeBoth, englishNames, openAs, vocabulary, walk } from '../a11y';
import { e2eSuite, pickDropdownItem, poll, screenshot, settle } from '../harness';

const suite = e2eSuite('a11y-names');

describe("every accessible name in the reader's language", () => {
  it('the login page in en (axe), zh, es and ja (names)', async () => {
    const { page } = await openAs(suite, 'en');
    await page.goto(`${suite.server.url}/login`);
    await page.getByTestId('login-submit').waitFor();
    const failures: string[] = [];
    await axeBoth(page, '/login', failures, 'a11y-login-en');
    const v = await vocabulary();
    for (const lang of ['zh', 'es', 'ja'] as const) {
      await page.getByTestId(`lang-${lang}`).click();
      await poll(() => page.evaluate(() => document.documentElement.lang.slice(0, 2))).toBe(lang);
      failures.push(...(await englishNames(page, v, lang, `/login (${lang})`)));
    }
    expect(failures).toEqual([]);
  });

  it.each(['es', 'ja'] as const)(
    'every page of the admin in %s',
    async (lang) => {
      const pages = await adminPages(suite.server.url);
      const v = await vocabulary();
      const { page } = await openAs(suite, lang, 'admin');
      const failures: string[] = [];
      await walk(page, pages, async (p) => {
        failures.push(...(await englishNames(page, v, lang, p.path)));
      });
      expect(failures).toEqual([]);
    },
    180_000,
  );

  it("the device table's row checkboxes in zh, then ja", async () => {
    const { page } = await openAs(suite, 'zh', 'admin');
    await page.goto(`${suite.server.url}/dashboard/index`);
    const box = page.locator('[data-testid="device-list"] .ant-table-tbody tr.ant-table-row').nth(1).locator('.ant-checkbox-input');
    await box.waitFor({ timeout: 20_000 });
    await poll(() => box.getAttribute('aria-label')).toBe('选择第2行');
    await box.check();
    await poll(() => box.getAttribute('aria-label')).toBe('已选择第2行');
    await settle(page);
    await screenshot(page, 'a11y-names-row-checkbox-zh');
    await page.getByTestId('lang-picker').click();
    await pickDropdownItem(page, 'lang-ja');
    await poll(() => box.getAttribute('aria-label')).toBe('2行目を選択済み');
    await box.uncheck();
    await poll(() => box.getAttribute('aria-label')).toBe('2行目を選択');
  });
});

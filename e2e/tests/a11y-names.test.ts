/**
 * Language completeness (issue 13, item 4), in Chromium against the real server: the login page (axe in
 * light and dark in en; names in zh, es and ja) and every page of the admin in es and in ja: every
 * accessible name (aria-label, title, placeholder, the text of buttons, links, tabs, menu items) in the
 * reader's language, no English word outside data.
 */
import { describe, expect, it } from 'vitest';
import { adminPages, axeBoth, englishNames, openAs, vocabulary, walk } from '../a11y';
import { e2eSuite, poll } from '../harness';

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
});

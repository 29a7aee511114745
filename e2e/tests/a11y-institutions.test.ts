/**
 * Accessibility for institution accounts (issue 13, items 3-4), in Chromium against the real server: every
 * page a grade-1 (agent1, en) and a grade-3 (clinic3, ja) account can open, axe-core (critical and serious)
 * in light and in dark, and in ja every accessible name in the reader's language.
 * Screenshots: test-artifacts/a11y-<account>-<lang>-<page>-<appearance>.png for a few pages.
 */
import { describe, expect, it } from 'vitest';
import { axeBoth, englishNames, openAs, pagesOf, SHOTS, vocabulary, walk } from '../a11y';
import { e2eSuite } from '../harness';

const suite = e2eSuite('a11y-institutions');

describe('institution accounts: axe in light and dark, names', () => {
  it.each([
    ['agent1', 1, 'en'],
    ['clinic3', 3, 'ja'],
  ] as const)(
    'every page of %s (grade %i) in %s',
    async (username, grade, lang) => {
      const pages = pagesOf({ isAdmin: false, grade });
      expect(pages.length).toBeGreaterThan(1);
      const v = await vocabulary();
      const { page } = await openAs(suite, lang, username, 'institution');
      const failures: string[] = [];
      await walk(page, pages, async (p) => {
        await axeBoth(page, `${username} ${p.path}`, failures, SHOTS.has(p.name) ? `a11y-${username}-${lang}-${p.name}` : undefined);
        if (lang !== 'en') failures.push(...(await englishNames(page, v, lang, `${username} ${p.path}`)));
      });
      expect(failures).toEqual([]);
    },
    180_000,
  );
});

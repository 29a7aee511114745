/**
 * Accessibility (issue 13, items 3-4), in Chromium against the real server: every page the admin can open
 * (the menu's pages from the contract's ROUTES, the hidden pages with a demo id), axe-core (critical and
 * serious) in light and in dark (appearance "system", switched with the emulated prefers-color-scheme, so
 * one visit checks both: one live switch a page, some 30 in all, and every other page opened in dark),
 * and every accessible name in zh (no English word outside data). The other walks: a11y-names.test.ts (login, es, ja), a11y-institutions.test.ts (grades 1 and 3).
 * Screenshots: test-artifacts/a11y-admin-zh-<page>-<appearance>.png for a few pages.
 */
import { describe, expect, it } from 'vitest';
import { adminPages, axeBoth, englishNames, openAs, SHOTS, vocabulary, walk } from '../a11y';
import { e2eSuite } from '../harness';

const suite = e2eSuite('a11y-admin');

describe('the admin: axe in light and dark, names in zh', () => {
  it('every page of the admin (menu pages and hidden pages with a demo id)', async () => {
    const pages = await adminPages(suite.server.url);
    expect(pages.length).toBeGreaterThan(20);
    const v = await vocabulary();
    const { page } = await openAs(suite, 'zh', 'admin');
    const failures: string[] = [];
    await walk(page, pages, async (p) => {
      await axeBoth(page, p.path, failures, SHOTS.has(p.name) ? `a11y-admin-zh-${p.name}` : undefined);
      failures.push(...(await englishNames(page, v, 'zh', p.path)));
    });
    expect(failures).toEqual([]);
    // One session on purpose (the live appearance switches add up across the walk). The limit is for a hung
    // walk, not a slow box: it took 330 s of the former 420 s in a CI run on a slower box (2026-11-27).
  }, 900_000);
});

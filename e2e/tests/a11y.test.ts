/**
 * Accessibility and language completeness (issue 13, items 3-4), in Chromium against the real server:
 * - axe-core (critical and serious impact) on every page the admin can open (the menu's pages from the
 *   contract's ROUTES, the hidden pages with a demo id), the login page, and a grade-1 and a grade-3
 *   account's pages, each in light and in dark (appearance "system", switched with the emulated
 *   prefers-color-scheme, so one visit checks both);
 * - the same walk in zh, es and ja collects every accessible name on the page and fails on an English
 *   word outside data.
 * Screenshots: test-artifacts/a11y-<account>-<lang>-<appearance>-<page>.png for a few pages.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { accessibleRoutes } from '@app/contract/access';
import type { RouteDef } from '@app/contract/routes';
import { api, builtPages, DEMO_PASSWORD, e2eSuite, type LoginKind, poll, screenshot, signIn } from '../harness';

const suite = e2eSuite('a11y');
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const BUILT = builtPages();
const LANG_TAG = { zh: 'zh-CN', en: 'en-US', es: 'es-ES', ja: 'ja-JP' } as const;
type Lang = keyof typeof LANG_TAG;

/** Leaf pages a viewer can open by the contract's table (hidden ones need an id: added by hand). */
function pagesOf(viewer: { isAdmin: boolean; grade: 0 | 1 | 2 | 3 }): { name: string; path: string }[] {
  const out: { name: string; path: string }[] = [];
  const walk = (list: RouteDef[]) => {
    for (const r of list) {
      if (r.children) walk(r.children);
      else if (!r.path.includes(':') && BUILT.has(r.name)) out.push({ name: r.name, path: r.path });
    }
  };
  walk(accessibleRoutes(viewer, { isBuilt: (n) => BUILT.has(n) }));
  return out;
}

/** A demo id for the hidden pages. */
async function demoIds(url: string) {
  const key = (await api(url, 'POST', '/login/login', { username: 'admin', password: DEMO_PASSWORD })).datas.key as string;
  const first = async (path: string) => {
    const res = await api(url, 'GET', path, { key, page: 1, limit: 1 });
    const id = res.datas?.list?.[0]?.id;
    expect(id, path).toBeTypeOf('number');
    return id as number;
  };
  return { inspection: await first('/inspection/list'), device: await first('/equipment/list'), acupoint: await first('/acupoint/list') };
}

/** A signed-in context in a language with appearance "system" (light or dark follows emulateMedia). */
async function openAs(lang: Lang, username?: string, kind: LoginKind = 'platform'): Promise<{ context: BrowserContext; page: Page }> {
  const made = await suite.open({ locale: LANG_TAG[lang] });
  await made.context.addInitScript((l: string) => {
    if (!localStorage.getItem('bioadmin:lang')) localStorage.setItem('bioadmin:lang', JSON.stringify(l));
    localStorage.setItem('bioadmin:settings', JSON.stringify({ ...JSON.parse(localStorage.getItem('bioadmin:settings') ?? '{}'), appearance: 'system' }));
  }, lang);
  if (username) await signIn(made.page, suite.server.url, username, kind);
  return made;
}

/** Waits until the page's content has loaded: its frame is shown, no spinner or skeleton is left, requests are done. */
async function ready(page: Page, name?: string) {
  if (name) await page.locator(`.page-frame[data-page="${name}"]`).first().waitFor({ timeout: 20_000 });
  await page.waitForLoadState('networkidle');
  await poll(() => page.locator('.ant-spin-spinning, .ant-skeleton-active').count()).toBe(0);
}

interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** axe-core on the page (injected once per document), critical and serious only. */
async function axe(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is injected as a global script
    const a = (window as any).axe;
    const result = await a.run(document, { resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } });
    return (result.violations as { id: string; impact: string; help: string; nodes: { target: string[]; failureSummary: string }[] }[])
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary.split('\n').slice(1, 2).join('')}`) }));
  });
}

async function setDark(page: Page, dark: boolean) {
  await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
  await poll(() => page.evaluate(() => document.documentElement.dataset.appearance)).toBe(dark ? 'dark' : 'light');
  // antd's transitions (colours fade in 0.2 s): axe must see the final colours.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
}

/** Both appearances of the page now shown; violations listed by page. */
async function axeBoth(page: Page, label: string, failures: string[]) {
  for (const dark of [false, true]) {
    await setDark(page, dark);
    for (const v of await axe(page)) failures.push(`${label} [${dark ? 'dark' : 'light'}] ${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.join('\n    ')}`);
  }
}

/**
 * English words in the page's accessible names: aria-label, aria-labelledby text, title, alt, placeholder,
 * and the text of buttons, links, tabs and menu items. Data is left out: table bodies, descriptions' values,
 * select values, and anything marked translate="no" or with its own lang (the language picker).
 */
async function englishNames(page: Page): Promise<string[]> {
  return page.evaluate((allow: string[]) => {
    const DATA =
      '.ant-table-tbody, .ant-descriptions-item-content, .ant-select-selection-item, .ant-select-item-option-content, [translate="no"], [lang]:not(html), .ant-tree-title, .ant-tag, .ant-empty-image';
    const SELECTOR = '[aria-label], [aria-labelledby], [title], img[alt], input[placeholder], textarea[placeholder], button, a[href], [role="button"], [role="tab"], [role="menuitem"], [role="img"]';
    const hidden = (el: Element) => el.closest('[aria-hidden="true"]') || !(el as HTMLElement).checkVisibility?.({ visibilityProperty: true });
    const words = new Set<string>();
    const out: string[] = [];
    const textOf = (el: Element) => (el as HTMLElement).innerText ?? el.textContent ?? '';
    for (const el of document.querySelectorAll(SELECTOR)) {
      if (el.closest(DATA) || (hidden(el) && !el.matches('.ant-input-number-action'))) continue;
      const labelled = el
        .getAttribute('aria-labelledby')
        ?.split(/\s+/)
        .map((id) => document.getElementById(id))
        .filter((x) => x && !x.closest(DATA))
        .map((x) => textOf(x!))
        .join(' ');
      const names = [el.getAttribute('aria-label'), labelled, el.getAttribute('title'), el.getAttribute('alt'), el.getAttribute('placeholder')];
      if (el.matches('button, a[href], [role="button"], [role="tab"], [role="menuitem"]') && !el.getAttribute('aria-label')) {
        // Text of the control without its data parts.
        const copy = el.cloneNode(true) as HTMLElement;
        for (const d of copy.querySelectorAll(DATA)) d.remove();
        names.push(copy.textContent);
      }
      for (const name of names) {
        if (!name) continue;
        for (const w of name.match(/[A-Za-z][A-Za-z'-]{2,}/g) ?? []) {
          if (allow.includes(w.toLowerCase())) continue;
          const key = `${w}|${el.tagName}`;
          if (words.has(key)) continue;
          words.add(key);
          out.push(`"${w}" in ${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''}: ${name.slice(0, 80)}`);
        }
      }
    }
    return out;
  }, ALLOWED_WORDS);
}

/**
 * Words that are data or names in every language: formats (CSV, Excel, PDF), units and codes the product
 * shows as such (ID, SN, API), brand and product names, and the demo data's own English (a doctor's title).
 */
const ALLOWED_WORDS = ['csv', 'excel', 'xlsx', 'pdf', 'api', 'png', 'jpg', 'jpeg', 'svg', 'webp', 'gif', 'url', 'mac', 'ios', 'android', 'openapi', 'json'];

/** The admin's pages: the menu's, then the hidden ones with a demo id. */
async function adminPages() {
  const ids = await demoIds(suite.server.url);
  return [
    ...pagesOf({ isAdmin: true, grade: 0 }),
    { name: 'DeviceEndRecordOfDevice', path: `/dashboard/device-end-record/${ids.device}` },
    { name: 'InspectionReport', path: `/inspection/report/${ids.inspection}` },
    { name: 'InspectionResult', path: `/inspection/result/${ids.inspection}` },
    { name: 'AcupointAction', path: `/acupoint/action/${ids.acupoint}` },
  ];
}

/** Opens each page in turn (a full load: each page is checked as a first visit) and runs `check` on it. */
async function walk(page: Page, pages: { name: string; path: string }[], check: (p: { name: string; path: string }) => Promise<void>) {
  for (const p of pages) {
    await page.goto(`${suite.server.url}${p.path}`);
    await ready(page, p.name);
    await check(p);
  }
}

const SHOTS = new Set(['DeviceList', 'InstitutionList', 'ParamsSetting', 'InspectionResult', 'InspectionReport']);

describe('axe: no critical or serious violation, light and dark', () => {
  it('the login page', async () => {
    const { page } = await openAs('en');
    await page.goto(`${suite.server.url}/login`);
    await page.getByTestId('login-submit').waitFor();
    const failures: string[] = [];
    await axeBoth(page, '/login', failures);
    await screenshot(page, 'a11y-login-en-dark');
    expect(failures).toEqual([]);
  });

  it('every page of the admin (menu pages and hidden pages with a demo id)', async () => {
    const pages = await adminPages();
    expect(pages.length).toBeGreaterThan(20);
    const { page } = await openAs('en', 'admin');
    const failures: string[] = [];
    await walk(page, pages, async (p) => {
      await axeBoth(page, p.path, failures);
      if (SHOTS.has(p.name)) await screenshot(page, `a11y-admin-en-dark-${p.name}`);
    });
    expect(failures).toEqual([]);
  });

  it.each([
    ['agent1', 1],
    ['clinic3', 3],
  ] as const)('every page of %s (grade %i)', async (username, grade) => {
    const pages = pagesOf({ isAdmin: false, grade });
    expect(pages.length).toBeGreaterThan(1);
    const { page } = await openAs('en', username, 'institution');
    const failures: string[] = [];
    await walk(page, pages, (p) => axeBoth(page, `${username} ${p.path}`, failures));
    expect(failures).toEqual([]);
  });
});

describe("every accessible name in the reader's language", () => {
  it.each(['zh', 'es', 'ja'] as const)('%s: the login page and every page of the admin', async (lang) => {
    const pages = await adminPages();
    const { page } = await openAs(lang);
    await page.goto(`${suite.server.url}/login`);
    await page.getByTestId('login-submit').waitFor();
    const found = (await englishNames(page)).map((n) => `/login ${n}`);
    await signIn(page, suite.server.url, 'admin');
    await walk(page, pages, async (p) => {
      for (const n of await englishNames(page)) found.push(`${p.path} ${n}`);
      if (lang === 'zh' && SHOTS.has(p.name)) await screenshot(page, `a11y-admin-zh-light-${p.name}`);
    });
    expect(found).toEqual([]);
  });
});

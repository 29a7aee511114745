/**
 * The accessibility walk's tools (e2e/tests/a11y-*.test.ts, issue 13 items 3-4): the pages an account can
 * open, a walk through them inside the app, axe-core (critical and serious) in light and dark, and the
 * accessible names on a page checked against the reader's language.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect } from 'vitest';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { accessibleRoutes } from '@app/contract/access';
import { MESSAGES } from '@app/contract/messages';
import { ROUTES, type RouteDef } from '@app/contract/routes';
import { api, builtPages, DEMO_PASSWORD, type E2eSuite, followSystemAppearance, type LoginKind, poll, screenshot, signIn } from './harness';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const BUILT = builtPages();
export const LANG_TAG = { zh: 'zh-CN', en: 'en-US', es: 'es-ES', ja: 'ja-JP' } as const;
export type Lang = keyof typeof LANG_TAG;

/** Leaf pages a viewer can open by the contract's table (hidden ones need an id: added by hand). */
export function pagesOf(viewer: { isAdmin: boolean; grade: 0 | 1 | 2 | 3 }): { name: string; path: string }[] {
  const out: { name: string; path: string }[] = [];
  const walk = (list: readonly RouteDef[]) => {
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

/**
 * A signed-in context in a language with appearance "system" (light or dark follows emulateMedia). It prefers
 * reduced motion, as the other tests do: axe and the names read the settled page, which motion does not change,
 * and without antd's colour transitions an appearance switch settles at once (with motion each switch waited
 * about a second for the colours' waves, two switches a page). The keyboard tests run with motion.
 */
export async function openAs(suite: E2eSuite, lang: Lang, username?: string, kind: LoginKind = 'platform'): Promise<{ context: BrowserContext; page: Page }> {
  const made = await suite.open({ locale: LANG_TAG[lang] });
  await made.context.addInitScript((l: string) => {
    if (!localStorage.getItem('bioadmin:lang')) localStorage.setItem('bioadmin:lang', JSON.stringify(l));
  }, lang);
  await followSystemAppearance(made.context);
  if (username) await signIn(made.page, suite.server.url, username, kind);
  return made;
}

/** Requests in flight, counted from Playwright's events: a page is ready when none is left. */
function trackRequests(page: Page) {
  // A set, not a counter: a request that began before tracking must not count below zero when it ends.
  const inflight = new Set<Request>();
  page.on('request', (r) => inflight.add(r));
  page.on('requestfinished', (r) => inflight.delete(r));
  page.on('requestfailed', (r) => inflight.delete(r));
  const count = () => inflight.size;
  count.urls = () => [...inflight].map((r) => r.url());
  return count;
}

/** Waits until the page's content has loaded: its frame is shown, no request is in flight, no spinner or skeleton is left. */
async function ready(page: Page, inflight: (() => number) & { urls?: () => string[] }, name?: string) {
  if (name) await page.locator(`.page-frame[data-page="${name}"]:visible`).first().waitFor({ timeout: 20_000 });
  const busy = async () => {
    // Shown ones only: a page kept alive behind this one (hidden) may hold a spinner it will clear when shown again.
    const spinning = await page.locator('.ant-spin-spinning:visible, .ant-skeleton-active:visible').count();
    return inflight() === 0 && spinning === 0 && inflight() === 0 ? 'ready' : `${name}: ${spinning} spinners, requests ${JSON.stringify(inflight.urls?.() ?? [])}`;
  };
  await poll(busy).toBe('ready');
}

interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** The rules whose outcome depends on the colours: all that a second appearance of the same page can change. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Pages kept alive behind the shown one (shell/KeepAlive.tsx: React's <Activity> hides them with an inline
 * `display: none`). Nothing in them is drawn, so colours there are neither checked nor waited for; the walk
 * keeps up to ten of them, which doubled the colour pass and the settling by the walk's end. The full axe
 * pass still reads the whole document (an id repeated in a hidden page is a fault there).
 */
const HIDDEN_PAGES = '.page-frame[style*="display: none"]';

/**
 * axe-core on the page (injected once per document), critical and serious only; every rule, or with `colours`
 * only the rules that read colours.
 */
export async function axe(page: Page, opts: { colours?: boolean } = {}): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const options = opts.colours
    ? { resultTypes: ['violations'], runOnly: { type: 'rule', values: COLOUR_RULES } }
    : { resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } };
  const hidden = opts.colours ? HIDDEN_PAGES : undefined;
  return page.evaluate(
    async ({ options, hidden }) => {
      const a = (window as unknown as { axe: { run: (ctx: Document | object, opts: object) => Promise<{ violations: unknown[] }> } }).axe;
      const context = hidden && document.querySelector(hidden) ? { include: [document], exclude: [...document.querySelectorAll(hidden)] } : document;
      const result = await a.run(context, options);
      return (result.violations as { id: string; impact: string; help: string; nodes: { target: string[]; html: string; failureSummary: string }[] }[])
        .filter((v) => v.impact === 'critical' || v.impact === 'serious')
        .map((v) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)}: ${n.failureSummary.split('\n').slice(1, 2).join('')}`),
        }));
    },
    { options, hidden },
  );
}

/** The appearance the page shows now ("light" or "dark", set by the app on <html>). */
const appearanceOf = (page: Page) => page.evaluate(() => document.documentElement.dataset.appearance);

/**
 * Switches the emulated prefers-color-scheme and waits, inside the page, until the app shows the appearance
 * and its colours have settled: antd's colours fade in 0.2-0.3 s, in waves as its components re-render
 * (some start a few frames after the switch), and axe must see the final ones. Settled = no finite animation running, and every element's colour and
 * background the same in two samples four frames apart. One call, no polling from here: a sample costs a
 * walk of the page's elements, not a round trip and a 100 ms interval.
 */
async function setDark(page: Page, dark: boolean) {
  const want = dark ? 'dark' : 'light';
  await page.emulateMedia({ colorScheme: want });
  const settled = await page.evaluate(
    async ({ want, hidden }) => {
      const frames = (n: number) =>
        new Promise<void>((resolve) => {
          const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
          step(n);
        });
      const deadline = performance.now() + 15_000;
      let previous = '';
      while (performance.now() < deadline) {
        await frames(4);
        if (document.documentElement.dataset.appearance !== want) continue;
        const running = document.getAnimations().some((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY);
        let colours = '';
        for (const el of document.querySelectorAll(`body *:not(${hidden} *)`)) {
          const cs = getComputedStyle(el);
          colours += `${cs.color}|${cs.backgroundColor};`;
        }
        if (!running && colours === previous) return true;
        previous = running ? '' : colours;
      }
      return false;
    },
    { want, hidden: HIDDEN_PAGES },
  );
  expect(settled, `the ${want} appearance did not settle in 15 s (shown: ${await appearanceOf(page)})`).toBe(true);
}

/**
 * Both appearances of the page now shown, the one it shows first (the previous page's last, so each switch
 * counts twice: the page checked after a live switch and the next page opened in it): every rule in the first,
 * the colour rules in the second (the rest read the same page); violations listed by page; a screenshot of
 * each when `shot` names one.
 */
export async function axeBoth(page: Page, label: string, failures: string[], shot?: string) {
  // The pointer rests where the last click left it: whatever lies under it now would be checked in its hover colours.
  await page.mouse.move(-10, -10);
  const first = (await appearanceOf(page)) === 'dark';
  for (const dark of [first, !first]) {
    // The page opened in the appearance it shows (the emulated one, which the app follows): only the switch waits.
    if (dark !== first) await setDark(page, dark);
    for (const v of await axe(page, { colours: dark !== first })) {
      failures.push(`${label} [${dark ? 'dark' : 'light'}] ${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.join('\n    ')}`);
    }
    if (shot) await screenshot(page, `${shot}-${dark ? 'dark' : 'light'}`);
  }
}

/** Every accessible name on the page: aria-label, aria-labelledby text, title, alt, placeholder, and the text of buttons, links, tabs and menu items. */
async function accessibleNames(page: Page): Promise<{ where: string; name: string }[]> {
  return page.evaluate((dataSelector: string) => {
    const SELECTOR = '[aria-label], [aria-labelledby], [title], img[alt], input[placeholder], textarea[placeholder], button, a[href], [role="button"], [role="tab"], [role="menuitem"], [role="img"]';
    const shown = (el: Element) => !el.closest('[aria-hidden="true"]') && (el as HTMLElement).checkVisibility?.({ visibilityProperty: true });
    const out: { where: string; name: string }[] = [];
    for (const el of document.querySelectorAll(SELECTOR)) {
      if (el.closest(dataSelector) || !shown(el)) continue;
      const labelled = el
        .getAttribute('aria-labelledby')
        ?.split(/\s+/)
        .map((id) => document.getElementById(id))
        .filter((x) => x && !x.closest(dataSelector))
        .map((x) => x!.textContent)
        .join(' ');
      const names = [el.getAttribute('aria-label'), labelled, el.getAttribute('title'), el.getAttribute('alt'), el.getAttribute('placeholder')];
      if (el.matches('button, a[href], [role="button"], [role="tab"], [role="menuitem"]') && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby')) {
        const copy = el.cloneNode(true) as HTMLElement;
        for (const d of copy.querySelectorAll(dataSelector)) d.remove();
        names.push(copy.textContent);
      }
      const where = `${el.tagName.toLowerCase()}${typeof el.className === 'string' && el.className ? `.${el.className.split(' ')[0]}` : ''}`;
      for (const name of names) if (name?.trim()) out.push({ where, name: name.trim() });
    }
    return out;
  }, DATA);
}

/**
 * Data, not interface text: table bodies, descriptions' values, chosen select values and options, tree
 * titles, tags, and anything marked translate="no" (the account's name) or with a language of its own (the
 * language picker's "English").
 */
const DATA =
  '.ant-table-tbody, .ant-descriptions-item-content, .ant-select-selection-item, .ant-select-item-option-content, .ant-tree-title, .ant-tree-select, .ant-tag, [translate="no"], [lang]:not(html), .ant-input-affix-wrapper input[value]:not([value=""])';

/** The strings of one language in a table of { zh, en, es, ja } texts (route titles, server messages). */
function pick(value: unknown, lang: Lang, out: string[] = []): string[] {
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.en === 'string' && typeof o.zh === 'string') out.push(String(o[lang]));
    else for (const v of Object.values(o)) pick(v, lang, out);
  }
  return out;
}

/** Words of the strings in a locale object (nested). */
function wordsOf(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') for (const w of value.match(/[A-Za-z]{2,}/g) ?? []) out.add(w.toLowerCase());
  else if (value && typeof value === 'object') for (const v of Object.values(value)) wordsOf(v, out);
  return out;
}

/**
 * The interface's words by language: the shell's and every feature's locales, antd's locale. An English word
 * is one the English interface uses (or antd's and its icons' built-in English: icon names, "Increase Value")
 * that the reader's interface does not: "ID" or "CSV" in the zh strings are the zh interface's own.
 */
async function vocabularies() {
  const web = path.resolve(import.meta.dirname, '../apps/web/src');
  const ANTD = { en: 'en_US', zh: 'zh_CN', es: 'es_ES', ja: 'ja_JP' } as const;
  const vocab = {} as Record<Lang, Set<string>>;
  const features = fs.readdirSync(path.join(web, 'features')).filter((f) => fs.existsSync(path.join(web, 'features', f, 'locales.ts')));
  const featureLocales = await Promise.all(features.map(async (f) => (await import(path.join(web, 'features', f, 'locales.ts'))).default as Record<Lang, unknown>));
  for (const lang of ['en', 'zh', 'es', 'ja'] as const) {
    const words = wordsOf((await import(path.join(web, 'locales', `${lang}.ts`))).default);
    for (const f of featureLocales) wordsOf(f[lang], words);
    wordsOf(require(`antd/lib/locale/${ANTD[lang]}`).default, words);
    wordsOf(pick([ROUTES, MESSAGES], lang), words);
    vocab[lang] = words;
  }
  const icons = fs.readdirSync(path.dirname(require.resolve('@ant-design/icons-svg/lib/asn/UserOutlined.js'))).map((f) => f.replace(/(Outlined|Filled|TwoTone)?\.js$/, ''));
  for (const name of icons) wordsOf(name.replace(/([a-z])([A-Z])/g, '$1 $2'), vocab.en);
  for (const w of ['increase', 'decrease', 'value', 'select', 'all', 'custom', 'selection', 'segmented', 'control']) vocab.en.add(w);
  return vocab;
}

/**
 * Words that are names in every language: the language picker's "English" (each language by its own name,
 * like 中文 and Español), formats and units the product shows as they are.
 */
const ALLOWED_WORDS = new Set(['english', 'csv', 'excel', 'xlsx', 'pdf', 'api', 'id', 'url', 'openapi', 'json', 'png', 'jpg', 'jpeg', 'webp']);

/** Names with an English word (of the English interface, absent from the reader's) on the page now. */
export async function englishNames(page: Page, vocab: Record<Lang, Set<string>>, lang: Lang, label: string): Promise<string[]> {
  const out: string[] = [];
  for (const { where, name } of await accessibleNames(page)) {
    const english = (name.match(/[A-Za-z]{2,}/g) ?? []).filter((w) => {
      const lower = w.toLowerCase();
      return vocab.en.has(lower) && !vocab[lang].has(lower) && !ALLOWED_WORDS.has(lower);
    });
    if (english.length) out.push(`${label} ${where}: "${name.slice(0, 80)}" (${english.join(', ')})`);
  }
  return [...new Set(out)];
}

/** The admin's pages: the menu's, then the hidden ones with a demo id. */
export async function adminPages(url: string) {
  const ids = await demoIds(url);
  return [
    ...pagesOf({ isAdmin: true, grade: 0 }),
    { name: 'DeviceEndRecordOfDevice', path: `/dashboard/device-end-record/${ids.device}` },
    { name: 'InspectionReport', path: `/inspection/report/${ids.inspection}` },
    { name: 'InspectionResult', path: `/inspection/result/${ids.inspection}` },
    { name: 'AcupointAction', path: `/acupoint/action/${ids.acupoint}` },
  ];
}

/**
 * Opens each page in turn inside the app (as a click on the menu does: the history changes, the router
 * follows), waits for its content, and runs `check` on it.
 */
export async function walk(page: Page, pages: { name: string; path: string }[], check: (p: { name: string; path: string }) => Promise<void>) {
  const inflight = trackRequests(page);
  for (const p of pages) {
    await page.evaluate((to) => {
      history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, p.path);
    await ready(page, inflight, p.name);
    await check(p);
  }
}

/** Pages whose screenshots are kept (test-artifacts/a11y-<account>-<lang>-<page>-<appearance>.png). */
export const SHOTS = new Set(['EquipmentStats', 'FinanceStats', 'DeviceList', 'InstitutionList', 'ParamsSetting', 'InspectionResult', 'InspectionReport', 'FinanceRecordList']);

/** The vocabularies, built once per file. */
let vocab: Promise<Record<Lang, Set<string>>> | undefined;
export const vocabulary = () => (vocab ??= vocabularies());

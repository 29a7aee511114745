/**
 * Phones (issue 38), in Chromium against the real server at 375 x 800 with touch: every page of every grade
 * (the admin, grades 1-3), walked inside the app in en and then in zh (one sign-in a account, the language
 * switched with the navbar's picker), and on each page: the page itself does not scroll sideways, nothing
 * in a card, a table row or a toolbar overlaps anything else there (bounding boxes of the visible buttons,
 * links, tags, fields and lines of text), the first card's action menu opens with its items on screen, the
 * folded toolbar opens with its buttons on screen; axe-core (critical and serious) on each page in en. Then
 * the parts a walk does not open: the filter drawer (its count, the sort), a card's tap, a dialog and a
 * drawer at full screen, the date range by touch, and between 576 and 992 px the table's pinned first column.
 * Screenshots: test-artifacts/mobile-*.png for a few pages; every page with MOBILE_SHOTS=<folder>.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { adminPages, axe, pagesOf, walk } from '../a11y';
import { ARTIFACTS, e2eSuite, type LoginKind, poll, settle, signIn, visible } from '../harness';

const suite = e2eSuite('mobile');
const PHONE = { width: 375, height: 800 };
const SHOTS_DIR = process.env.MOBILE_SHOTS;
/** Pages whose screenshot is kept in every run (test-artifacts/mobile-<account>-<lang>-<page>.png). */
const KEPT = new Set(['DeviceList', 'InstitutionList', 'FinanceRecordList', 'InspectionReport', 'InspectionResult', 'EquipmentStats', 'AuditLog', 'PayoutManage']);

async function shot(page: Page, name: string, keep: boolean) {
  if (!keep && !SHOTS_DIR) return;
  const dir = SHOTS_DIR ?? ARTIFACTS;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `mobile-${name}.png`) });
}

/**
 * What is wrong with the layout now: the page scrolling sideways, and overlaps inside each visible card,
 * table row, list header, pager and the navbar. Pieces are the visible buttons, links, tags, inputs and
 * each line of text, clipped by the scroll boxes they sit in; a piece inside another is not an overlap.
 */
function layoutProblems(label: string): string[] {
  const out: string[] = [];
  const root = document.scrollingElement as HTMLElement;
  if (root.scrollWidth > window.innerWidth) {
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => (e as HTMLElement).checkVisibility?.() && e.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(-3)
      .map((e) => `${e.tagName.toLowerCase()}.${String((e as HTMLElement).className).split(' ')[0]}`);
    out.push(`${label}: the page scrolls sideways (${root.scrollWidth} > ${window.innerWidth}): ${wide.join(', ')}`);
  }
  // Cut off at the screen's edge: content of the page or the header reaching past it, unless a box of its own scrolls sideways (a table, the tags).
  for (const top of document.querySelectorAll('#main-content, .app-header')) {
    for (const e of top.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || (r.right <= window.innerWidth + 1 && r.left >= -1)) continue;
      let clipped = false;
      for (let a = e.parentElement; a && a !== top; a = a.parentElement) {
        if (/auto|scroll/.test(getComputedStyle(a).overflowX)) {
          clipped = true;
          break;
        }
      }
      if (clipped || !(e as HTMLElement).checkVisibility?.({ visibilityProperty: true }) || e.closest('.sr-only')) continue;
      out.push(
        `${label}: ${e.tagName.toLowerCase()}.${String((e as HTMLElement).className).split(' ')[0]} "${(e.textContent ?? '').trim().slice(0, 20)}" is cut off at the screen's edge (${Math.round(r.left)}..${Math.round(r.right)})`,
      );
      break;
    }
  }
  type Piece = { node: Node; r: { l: number; t: number; r: number; b: number }; what: string };
  const shown = (e: Element) => (e as HTMLElement).checkVisibility?.({ visibilityProperty: true, opacityProperty: true }) && !e.closest('[aria-hidden="true"], .sr-only');
  // The part of a box left visible by the boxes that clip or scroll it (a text's own box included).
  const clip = (node: Node, r: DOMRect) => {
    let box = { l: r.left, t: r.top, r: r.right, b: r.bottom };
    for (let a = node.parentElement; a; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') {
        const c = a.getBoundingClientRect();
        box = { l: Math.max(box.l, c.left), t: Math.max(box.t, c.top), r: Math.min(box.r, c.right), b: Math.min(box.b, c.bottom) };
      }
    }
    return box.r - box.l > 1 && box.b - box.t > 1 ? box : null;
  };
  const name = (n: Node) => {
    const e = n.nodeType === Node.TEXT_NODE ? n.parentElement! : (n as Element);
    const text = (n.textContent ?? '').trim().slice(0, 24);
    return `${e.tagName.toLowerCase()}${e.className && typeof e.className === 'string' ? `.${e.className.split(' ')[0]}` : ''}${text ? ` "${text}"` : ''}`;
  };
  const GROUPS = '.list-card-item, .list-head, .card-pagination, .navbar, .ant-table-row, .toolbar-fold-panel:not([hidden])';
  // Widgets are one piece each (a select's search box lies over its value by design; an icon's count badge
  // lies over its corner).
  const ATOMIC = '.icon-badge, .ant-select, .ant-input-number, .ant-picker, .ant-switch, .ant-checkbox-wrapper, .ant-radio-wrapper, .ant-segmented-item, .ant-input-affix-wrapper';
  const PIECES = `button, a[href], [role="button"], .ant-tag, input, img, ${ATOMIC}`;
  const inWidget = (n: Node, group: Element) => {
    const w = n.parentElement?.closest(ATOMIC);
    return !!w && group.contains(w);
  };
  for (const group of document.querySelectorAll(GROUPS)) {
    if (!shown(group)) continue;
    const own = (e: Node) => {
      const el = e.nodeType === Node.TEXT_NODE ? e.parentElement : (e as Element);
      return !!el && el.closest(GROUPS) === group;
    };
    const pieces: Piece[] = [];
    for (const e of group.querySelectorAll(PIECES)) {
      if (!shown(e) || !own(e) || inWidget(e, group)) continue;
      const r = clip(e, e.getBoundingClientRect());
      if (r) pieces.push({ node: e, r, what: name(e) });
    }
    const walker = document.createTreeWalker(group, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent?.trim() || !n.parentElement || !shown(n.parentElement) || !own(n) || n.parentElement.matches(ATOMIC) || inWidget(n, group)) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const line of range.getClientRects()) {
        // The middle of each line: fonts' ascent and descent may reach into the next line's box.
        const inset = line.height * 0.25;
        const r = clip(n, new DOMRect(line.left, line.top + inset, line.width, line.height - 2 * inset));
        if (r) pieces.push({ node: n, r, what: name(n) });
      }
    }
    const g = group.getBoundingClientRect();
    for (let i = 0; i < pieces.length; i++) {
      const a = pieces[i]!;
      if (a.r.r > Math.min(g.right, window.innerWidth) + 1 || a.r.l < Math.max(g.left, 0) - 1) out.push(`${label}: ${a.what} sticks out of ${name(group)}`);
      for (let j = i + 1; j < pieces.length; j++) {
        const b = pieces[j]!;
        if (a.node === b.node || a.node.contains(b.node) || b.node.contains(a.node)) continue;
        const w = Math.min(a.r.r, b.r.r) - Math.max(a.r.l, b.r.l);
        const h = Math.min(a.r.b, b.r.b) - Math.max(a.r.t, b.r.t);
        if (w > 1 && h > 1) out.push(`${label}: ${a.what} overlaps ${b.what} in ${name(group)}`);
      }
    }
  }
  return [...new Set(out)].slice(0, 8);
}

/** A popup's boxes are all on screen. */
async function onScreen(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(
    ([sel, w, h]) =>
      [...document.querySelectorAll(sel)]
        .filter((e) => (e as HTMLElement).checkVisibility?.())
        .filter((e) => {
          const r = e.getBoundingClientRect();
          return r.left < -1 || r.top < -1 || r.right > w + 1 || r.bottom > h + 1;
        })
        .map((e) => `${(e.textContent ?? '').trim().slice(0, 30)} off screen`),
    [selector, PHONE.width, PHONE.height] as const,
  );
}

/**
 * The first card's action menu and the folded toolbar, opened by touch: the menu has items, all on screen;
 * every card with actions has its menu button. Closed again with Escape.
 */
async function menusReachable(page: Page, label: string): Promise<string[]> {
  const out: string[] = [];
  const frame = page.locator('.page-frame:visible');
  const withActions = await frame.locator('.list-card-item:has(> .card-head > .card-actions:not(:empty))').count();
  const buttons = frame.locator('[data-testid="card-actions"]');
  if (withActions) {
    const count = await buttons.count();
    if (count < withActions) out.push(`${label}: ${withActions - count} of ${withActions} cards have actions but no menu button`);
    if (!count) return out;
    const first = buttons.first();
    const name = await first.getAttribute('aria-label');
    if (!name?.trim()) out.push(`${label}: the card's menu button has no name`);
    await first.tap();
    const menu = page.locator('.ant-dropdown:visible .ant-dropdown-menu');
    await menu.waitFor();
    await page.waitForFunction(() => ![...document.querySelectorAll('.ant-dropdown')].some((d) => /-(enter|appear)\b/.test(d.className)));
    const items = await menu.locator('[role="menuitem"]').count();
    if (!items) out.push(`${label}: the card's menu is empty`);
    out.push(...(await onScreen(page, '.ant-dropdown:not(.ant-dropdown-hidden) [role="menuitem"]')).map((s) => `${label}: card menu item ${s}`));
    await page.keyboard.press('Escape');
    await poll(() => page.locator('.ant-dropdown:visible').count()).toBe(0);
  }
  const fold = frame.locator('[data-testid="toolbar-fold"]');
  if (await fold.count()) {
    await fold.first().tap();
    const panel = frame.locator('[data-testid="toolbar-fold-panel"]:visible');
    await panel.waitFor();
    if (!(await panel.locator('button, a[href]').count())) out.push(`${label}: the folded toolbar is empty`);
    out.push(...(await onScreen(page, '.toolbar-fold-panel:not([hidden]) .ant-btn')).map((s) => `${label}: toolbar button ${s}`));
    out.push(...(await page.evaluate(layoutProblems, `${label} (toolbar open)`)).filter((s) => s.includes('toolbar-fold-panel')));
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
  }
  return out;
}

const ACCOUNTS: [string, LoginKind, 0 | 1 | 2 | 3][] = [
  ['admin', 'platform', 0],
  ['agent1', 'institution', 1],
  ['agent2', 'institution', 2],
  ['clinic3', 'institution', 3],
];

describe('phones, 375 x 800 with touch', () => {
  it.each(ACCOUNTS)(
    'every page of %s in en and zh: no sideways scroll, no overlap, menus reachable, axe',
    async (username, kind, grade) => {
      const pages = grade === 0 ? await adminPages(suite.server.url) : pagesOf({ isAdmin: false, grade });
      const only = process.env.MOBILE_PAGES?.split(',');
      const walked = only ? pages.filter((p) => only.includes(p.name)) : pages;
      expect(walked.length).toBeGreaterThan(0);
      const { page } = await suite.open({ locale: 'en-US', ...PHONE, touch: true });
      await signIn(page, suite.server.url, username, kind);
      const failures: string[] = [];
      for (const lang of ['en', 'zh'] as const) {
        if (lang === 'zh') {
          await visible(page, 'lang-picker').tap();
          await visible(page, 'lang-zh').tap();
          await poll(() => page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
        }
        await walk(page, walked, async (p) => {
          const label = `${username} ${lang} ${p.path}`;
          failures.push(...(await page.evaluate(layoutProblems, label)));
          // A tap leaves the pointer where it was: what lies under it would be checked in its hover colours.
          await page.mouse.move(-10, -10);
          if (lang === 'en') for (const v of await axe(page)) failures.push(`${label} ${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.join('\n    ')}`);
          await shot(page, `${username}-${lang}-${p.name}`, KEPT.has(p.name) && (grade === 0 || grade === 3));
          // The menus once (en): what opens does not depend on the language; the zh walk checks the layout again.
          if (lang === 'en') failures.push(...(await menusReachable(page, label)));
        });
      }
      expect(failures).toEqual([]);
    },
    600_000,
  );

  it('the parts a walk does not open: the filter drawer and its count, sort, dates by touch, a dialog and a drawer at full screen, a card tap; 576-992 px: the pinned first column', async () => {
    const { page } = await suite.open({ locale: 'en-US', ...PHONE, touch: true });
    await signIn(page, suite.server.url, 'admin', 'platform');
    const list = page.locator('[data-testid="device-list"]:visible');
    await list.locator('[data-testid="list-card"]').first().waitFor();
    const box = async (selector: string) => page.locator(selector).first().boundingBox();

    // The checker finds an overlap when there is one: a button laid over the first card's title.
    await page.evaluate(() => {
      const b = document.createElement('button');
      b.id = 'planted';
      b.textContent = 'planted';
      b.style.cssText = 'position:absolute;left:30px;top:12px';
      document.querySelector('.page-frame:not([hidden]) .list-card-item .card-head')!.appendChild(b);
    });
    const planted = await page.evaluate(layoutProblems, 'planted');
    await page.evaluate(() => document.getElementById('planted')!.remove());
    expect(planted.join('\n')).toMatch(/planted.*overlaps/);

    // Filters: a button (no form on the page), a full-screen drawer, one field a line; the count on the button.
    expect(await list.getByTestId('filter-bar').count()).toBe(0);
    const filters = list.getByTestId('filters-button');
    expect(await filters.getAttribute('aria-label')).toBe('Filters');
    await filters.tap();
    const drawer = page.locator('.filter-drawer .ant-drawer-section, .filter-drawer .ant-drawer-content').first();
    await drawer.waitFor();
    await settle(page);
    expect(await box('.filter-drawer .ant-drawer-content-wrapper')).toMatchObject({ x: 0, width: PHONE.width });
    const fields = await page.locator('.filter-drawer .filter-bar > .ant-form-item').evaluateAll((items) => items.map((i) => Math.round(i.getBoundingClientRect().left)));
    expect(fields.length).toBeGreaterThan(3);
    expect(new Set(fields).size).toBe(1);
    await shot(page, 'admin-en-filters-drawer', true);
    // The expiry range by touch: the calendar opens on screen without a keyboard, two taps pick the range.
    const range = page.locator('.filter-drawer .ant-form-item:has(.anticon-calendar) input').first();
    await range.tap();
    const picker = page.locator('.ant-picker-dropdown:visible');
    await picker.waitFor();
    await settle(page);
    expect(await page.locator('.filter-drawer .ant-picker-range input').first().getAttribute('readonly')).not.toBeNull();
    expect(await onScreen(page, '.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-panel')).toEqual([]);
    await shot(page, 'admin-en-range-picker', true);
    const days = picker.locator('.ant-picker-cell-in-view:not(.ant-picker-cell-disabled)');
    await days.nth(3).tap();
    await days.nth(9).tap();
    await poll(() => new URL(page.url()).searchParams.get('expires_from')).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(new URL(page.url()).searchParams.get('expires_to')).toMatch(/^\d{4}-\d\d-\d\d$/);
    await poll(() => filters.getAttribute('aria-label')).toBe('Filters, 1 set');
    await picker.waitFor({ state: 'hidden' });
    // Sort: the cards have no headers; the drawer sorts.
    await page.getByTestId('filters-sort').tap();
    await page.locator('.ant-select-item-option[title="Serial number, descending"], .ant-select-item-option:has-text("Serial number, descending")').first().tap();
    await poll(() => new URL(page.url()).searchParams.get('order')).toBe('descend');
    expect(new URL(page.url()).searchParams.get('expires_from'), 'the sort keeps the filters').toMatch(/^\d{4}-\d\d-\d\d$/);
    await page.locator('.filter-drawer .ant-drawer-close').tap();
    await poll(() => filters.getAttribute('aria-label')).toBe('Filters, 1 set');
    expect(await list.locator('.ant-badge-count').innerText()).toBe('1');
    await list.getByTestId('filters-button').tap();
    await page.locator('.filter-drawer [data-testid="filter-reset"]').tap();
    await poll(() => filters.getAttribute('aria-label')).toBe('Filters');
    await list.locator('[data-testid="list-card"]').first().waitFor();

    // The toolbar's actions in the fold; "Add device" opens its dialog at full screen, one field a line.
    await list.getByTestId('toolbar-fold').tap();
    await list.getByTestId('device-add-button').tap();
    const dialog = page.locator('.ant-modal:visible').first();
    await dialog.waitFor();
    await settle(page);
    expect(await list.getByTestId('toolbar-fold-panel').isVisible()).toBe(false);
    const d = (await dialog.locator('.ant-modal-container').boundingBox())!;
    expect([Math.round(d.x), Math.round(d.y), Math.round(d.width)]).toEqual([0, 0, PHONE.width]);
    expect(d.height).toBeGreaterThanOrEqual(PHONE.height - 1);
    const inputs = await dialog.locator('.ant-form-item').evaluateAll((items) => items.filter((i) => i.getBoundingClientRect().width > 0).map((i) => Math.round(i.getBoundingClientRect().left)));
    expect(new Set(inputs).size).toBe(1);
    expect(await page.evaluate(layoutProblems, 'add dialog')).toEqual([]);
    await shot(page, 'admin-en-add-dialog', true);
    await dialog.locator('.ant-modal-close').tap();
    await dialog.waitFor({ state: 'hidden' });

    // A card's tap opens its detail: the audit log's record, in a full-screen drawer.
    await walk(page, [{ name: 'AuditLog', path: '/system/audit-log' }], async () => undefined);
    const card = page.locator('.page-frame:visible [data-testid="list-card"]').first();
    const c = (await card.boundingBox())!;
    await page.touchscreen.tap(c.x + c.width / 2, c.y + c.height - 12);
    const detail = page.locator('[data-testid="audit-detail"]').first();
    await detail.waitFor();
    await settle(page);
    expect(await box('.ant-drawer-open .ant-drawer-content-wrapper')).toMatchObject({ x: 0, width: PHONE.width });
    expect(await page.evaluate(layoutProblems, 'audit detail')).toEqual([]);
    await shot(page, 'admin-en-audit-detail', true);
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'hidden' });

    // The settings drawer: full screen, nothing cut off.
    await visible(page, 'settings-button').tap();
    await page.getByTestId('settings-drawer').waitFor();
    await settle(page);
    expect(await box('.ant-drawer-open .ant-drawer-content-wrapper')).toMatchObject({ x: 0, width: PHONE.width });
    expect(await page.evaluate(layoutProblems, 'settings')).toEqual([]);
    await shot(page, 'admin-en-settings', true);
    await page.keyboard.press('Escape');
    await page.getByTestId('settings-drawer').waitFor({ state: 'hidden' });

    // 576-992 px: the device table again, its first column pinned and nothing else; filters still in the drawer.
    await page.setViewportSize({ width: 800, height: 900 });
    await walk(page, [{ name: 'DeviceList', path: '/dashboard/index' }], async () => undefined);
    const table = page.locator('[data-testid="device-list"]:visible .ant-table');
    await table.locator('.ant-table-row').first().waitFor();
    expect(await table.locator('.ant-table-row').first().locator('td.ant-table-cell-fix-start').count()).toBeGreaterThan(0);
    expect(await table.locator('td.ant-table-cell-fix-end').count()).toBe(0);
    expect(await page.locator('[data-testid="device-list"]:visible [data-testid="filters-button"]').count()).toBe(1);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(page, 'admin-en-tablet', true);
  });
});

/**
 * Keyboard use without a mouse (issue 13, item 5) on three representative pages, in Chromium against the
 * real server: the login page (Tab order, a visible focus ring, Enter signs in), the packages list (Enter
 * opens the create dialog, Esc closes it, Enter in a field submits it) and the settings drawer (Enter
 * opens it, focus moves in, Esc closes it and focus returns to its button).
 * Screenshots: test-artifacts/keyboard-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { e2eSuite, poll, screenshot, settle, signIn } from '../harness';

const suite = e2eSuite('keyboard');

/** The test id of the focused element (or its closest holder of one). */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.closest('[data-testid]')?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? '');

/** Whether the focused element shows a focus indicator (an outline or antd's focus shadow). */
const focusVisible = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return false;
    const own = getComputedStyle(el);
    // antd draws an input's focus on its affix wrapper (prefix icon) when it has one.
    const wrap = el.closest('.ant-input-affix-wrapper') as HTMLElement | null;
    return (own.outlineStyle !== 'none' && own.outlineWidth !== '0px') || own.boxShadow !== 'none' || (!!wrap && getComputedStyle(wrap).boxShadow !== 'none');
  });

/** Presses Tab until the element with this test id has focus (at most `max` times); the ids passed on the way. */
async function tabTo(page: Page, testId: string, max = 25): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const id = await focused(page);
    seen.push(id);
    if (id === testId) return seen;
  }
  throw new Error(`Tab never reached ${testId}: ${seen.join(', ')}`);
}

describe('keyboard only', () => {
  it('login: Tab goes through language, account type, username, password and the button in order, with a visible focus; Enter signs in', async () => {
    const { page } = await suite.open({ motion: true });
    await page.goto(`${suite.server.url}/login`);
    await page.getByTestId('login-submit').waitFor();
    // The page focuses the username; from the top of the page, Tab walks everything.
    await page.evaluate(() => {
      document.body.tabIndex = -1;
      document.body.focus();
    });
    const order = await tabTo(page, 'login-submit');
    const at = (id: string) => order.indexOf(id);
    expect(at('lang-zh')).toBeGreaterThanOrEqual(0);
    expect(at('login-username')).toBeGreaterThan(at('lang-zh'));
    expect(at('login-password')).toBe(at('login-username') + 1);
    // (the password's show/hide toggle comes between)
    expect(at('login-submit')).toBeGreaterThan(at('login-password'));
    await poll(() => focusVisible(page)).toBe(true);

    while ((await focused(page)) !== 'login-username') await page.keyboard.press('Shift+Tab');
    await poll(() => focusVisible(page)).toBe(true);
    await page.keyboard.type('admin');
    await page.keyboard.press('Tab');
    await page.keyboard.type('demo1234');
    await screenshot(page, 'keyboard-login');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 20_000 });
  });

  it('packages: Enter opens the create dialog, Esc closes it, Enter in a field submits it', async () => {
    const { page } = await suite.open({ motion: true });
    await page.goto(`${suite.server.url}/login`);
    await page.getByTestId('login-username').fill('admin');
    await page.getByTestId('login-password').fill('demo1234');
    await page.getByTestId('login-password').press('Enter');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 20_000 });
    await page.goto(`${suite.server.url}/package-manage/index`);
    const rows = page.locator('[data-testid="package-list"] .ant-table-tbody tr.ant-table-row');
    await poll(() => rows.count()).toBeGreaterThan(0);
    const before = await rows.count();

    const form = page.getByTestId('package-form-form');
    await page.getByTestId('package-create').focus();
    await poll(() => focusVisible(page)).toBe(true);
    await page.keyboard.press('Enter');
    await form.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'hidden' });

    await page.keyboard.press('Enter');
    await form.waitFor({ state: 'visible' });
    await page.getByTestId('package-name').fill('Keyboard package');
    await page.getByTestId('package-uses').fill('5');
    await page.getByTestId('package-price').fill('50');
    await page.getByTestId('package-rate-l1').fill('40');
    await page.getByTestId('package-rate-l2').fill('10');
    await page.getByTestId('package-sort').fill('80');
    await page.getByTestId('package-name').focus();
    await settle(page);
    await screenshot(page, 'keyboard-package-form');
    await page.keyboard.press('Enter');
    await form.waitFor({ state: 'hidden' });
    await poll(() => rows.count()).toBe(before + 1);

    // Opened again after a save, with animations on: the Save button starts fresh, named exactly "Save"
    // (no "loading" icon left from the last save, whose animation could not end while hidden).
    await page.getByTestId('package-create').focus();
    await page.keyboard.press('Enter');
    await form.waitFor({ state: 'visible' });
    const footer = page.locator('.ant-modal-footer').filter({ has: page.getByRole('button', { name: 'Cancel' }) });
    await poll(() => footer.getByRole('button', { name: /^Save$/ }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'hidden' });
  });

  it('with reduced motion asked by the system: a dialog opens and closes with no animation', async () => {
    const { page } = await suite.open({ motion: false });
    await signIn(page, suite.server.url, 'admin', 'platform', { to: '/package-manage/index' });
    await page.getByTestId('package-create').waitFor();
    // The dialog's animations (its zoom, its mask's fade) would be running for 0.3 s after it shows.
    const running = () =>
      document
        .getAnimations()
        .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((a) => ({ name: (a as CSSAnimation).animationName ?? (a as CSSTransition).transitionProperty, target: (a.effect as KeyframeEffect | null)?.target as Element | null }))
        .filter((a) => a.target?.closest('.ant-modal-root, .ant-modal-wrap, .ant-modal'))
        .map((a) => `${a.name} on ${a.target?.className}`);
    await page.getByTestId('package-create').click();
    await page.getByTestId('package-form-form').waitFor({ state: 'visible' });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    expect(await page.evaluate(running)).toEqual([]);
    expect(await page.locator('.ant-modal [class*="-enter"], .ant-modal [class*="-appear"], .ant-zoom-enter, .ant-zoom-appear').count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByTestId('package-form-form').waitFor({ state: 'hidden' });
  });

  it('settings drawer: Enter opens it with focus inside, Esc closes it and focus returns to its button', async () => {
    const { page } = await suite.open({ motion: true });
    await page.goto(`${suite.server.url}/login`);
    await page.getByTestId('login-username').fill('admin');
    await page.getByTestId('login-password').fill('demo1234');
    await page.getByTestId('login-password').press('Enter');
    await page.getByTestId('settings-button').waitFor({ timeout: 20_000 });
    await page.getByTestId('settings-button').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('setting-appearance').waitFor();
    await poll(() => page.evaluate(() => !!document.activeElement?.closest('.ant-drawer'))).toBe(true);
    // The appearance control switches with the arrow keys (light -> dark).
    await page.locator('[data-testid="setting-appearance"] input[type="radio"]:checked').focus();
    await page.keyboard.press('ArrowRight');
    await poll(() => page.evaluate(() => document.documentElement.dataset.appearance)).toBe('dark');
    await settle(page);
    await screenshot(page, 'keyboard-settings-dark');
    await page.keyboard.press('Escape');
    await poll(() => page.locator('.ant-drawer-content-wrapper:visible').count()).toBe(0);
    await poll(() => focused(page)).toBe('settings-button');
  });
});

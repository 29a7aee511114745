/**
 * Part 6: first paint on a throttled network. Chromium (playwright-core, Debian's build) with the network
 * emulated through CDP as DevTools' "Slow 4G" preset (Lighthouse's mobile slow 4G): 562.5 ms latency,
 * 1.4 Mbps * 0.9 down, 675 kbps * 0.9 up; CPU throttling 1x (none). A fresh browser context (empty
 * cache) per page. Measured in the page: first contentful paint, largest contentful paint, and on the
 * home page the moment the first device row is in the DOM; JS bytes as transferred (wire-bytes.ts).
 */
import { TOKEN_COOKIE } from '@app/contract';
import type { BrowserContext } from 'playwright-core';
import { PASSWORD } from './sessions';
import { type JsBytes, launchChromium, watchJs } from './wire-bytes';

export const SLOW_4G = { offline: false, latency: 562.5, downloadThroughput: (1.4 * 1000 * 1000 * 0.9) / 8, uploadThroughput: (675 * 1000 * 0.9) / 8, connectionType: 'cellular4g' as const };

export interface PageLoad {
  fcp: number;
  lcp: number;
  /** Home page: the first device row in the DOM (ms after navigation start). */
  firstRow?: number;
  /** API calls sent before the boot code had arrived (the page's inline script, apps/web/src/lib/early-start.ts). */
  earlyCalls: number;
  js: JsBytes;
  screenshot: string;
}

declare global {
  interface Window {
    __bench: { lcp: number; fcp: number; firstRow: number };
  }
}

/** Records LCP, FCP and the first table row, from the document's start (init script: before any page script). */
function observe() {
  const b = { lcp: 0, fcp: 0, firstRow: 0 };
  window.__bench = b;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) b.lcp = e.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') b.fcp = e.startTime;
  }).observe({ type: 'paint', buffered: true });
  const check = () => {
    if (!b.firstRow && document.querySelector('.ant-table-row')) b.firstRow = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
}

/** One page loaded over slow 4G with an empty cache (also the report part's shared page, report-pdf.ts). */
export async function loadPage(context: BrowserContext, url: string, until: 'networkidle' | 'row', screenshot: string): Promise<PageLoad> {
  await context.addInitScript(observe);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  // Empty cache, also for a context that has been used before (a release since the last visit).
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  const js = watchJs(page);
  await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
  if (until === 'row')
    await page
      .locator('.ant-table-row')
      .first()
      .waitFor({ timeout: 120_000 })
      .catch(async (error) => {
        await page.screenshot({ path: screenshot });
        throw new Error(`no device row on ${page.url()} (screenshot ${screenshot})`, { cause: error });
      });
  // Upper bound when the observer missed the row: the moment the locator saw it.
  const seenAt = until === 'row' ? await page.evaluate(() => performance.now()) : 0;
  await page.waitForLoadState('networkidle', { timeout: 120_000 });
  const m = await page.evaluate(() => window.__bench);
  // API calls that left before the boot code had arrived: only the inline script can have sent those.
  const earlyCalls = await page.evaluate(() => {
    const loaded = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const boot = loaded.find((r) => /\/assets\/index-[^/]+\.js$/.test(r.name));
    return boot ? loaded.filter((r) => r.initiatorType === 'fetch' && r.name.includes('/adminapi/') && r.startTime < boot.responseEnd).length : 0;
  });
  await page.screenshot({ path: screenshot });
  return { fcp: m.fcp, lcp: m.lcp, firstRow: until === 'row' ? m.firstRow || seenAt : undefined, earlyCalls, js: await js.summary(), screenshot };
}

/**
 * The login page signed out, and the home page (/dashboard/index) signed in, with an empty cache, twice:
 * - `home`: a user who signed in through the login page earlier (unthrottled, not measured) and opens the
 *   home page again after a release (the browser's cache emptied, its storage kept): the app recorded the
 *   home page's first calls when it showed it after the sign-in, so the page's inline script sends them;
 * - `homeCold`: the session's cookie alone, nothing in the browser's storage (as the bench measured before
 *   the early calls): no calls are sent before the boot code runs.
 */
export async function webLoads(url: string, adminKey: string, shots: string): Promise<{ login: PageLoad; home: PageLoad; homeCold: PageLoad }> {
  const browser = await launchChromium();
  try {
    const ctx = () => browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 850 } });
    const loginContext = await ctx();
    const login = await loadPage(loginContext, `${url}/login`, 'networkidle', `${shots}/bench-login.png`);
    await loginContext.close();

    const homeContext = await ctx();
    const signIn = await homeContext.newPage();
    await signIn.goto(`${url}/login`);
    await signIn.getByTestId('login-username').fill('admin');
    await signIn.getByTestId('login-password').fill(PASSWORD);
    await signIn.getByTestId('login-submit').click();
    await signIn.locator('.ant-table-row').first().waitFor({ timeout: 60_000 });
    await signIn.close();
    const home = await loadPage(homeContext, `${url}/dashboard/index`, 'row', `${shots}/bench-home.png`);
    await homeContext.close();

    const coldContext = await ctx();
    await coldContext.addCookies([{ name: TOKEN_COOKIE, value: encodeURIComponent(adminKey), url, sameSite: 'Lax' }]);
    // What the login page stores beside the cookie: the signed-in user is a platform admin (lib/session.ts).
    await coldContext.addInitScript(() => localStorage.setItem('bioadmin:isAdmin', '1'));
    const homeCold = await loadPage(coldContext, `${url}/dashboard/index`, 'row', `${shots}/bench-home-cold.png`);
    await coldContext.close();
    return { login, home, homeCold };
  } finally {
    await browser.close();
  }
}

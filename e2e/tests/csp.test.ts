/**
 * The server's Content-Security-Policy against the real pages in Chromium: the web app (antd's run-time
 * styles carry the page's nonce) and the API reference page load and work with no violation reported.
 * Every suite also checks after each test that no page reported one (harness.ts, e2eSuite).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { e2eSuite, pickDropdownItem, poll, signIn, takeCspViolations } from '../harness';

const suite = e2eSuite('csp');

/** The directives of a Content-Security-Policy header, by name. */
const directives = (header: string) =>
  new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
      .map(([name, ...values]) => [name, values]),
  );

describe('Content-Security-Policy', () => {
  it('the login page loads under a strict policy, with no violation, its styles carrying the nonce', async () => {
    const { page } = await suite.open();
    const response = await page.goto(`${suite.server.url}/login`);
    const policy = directives((await response!.allHeaders())['content-security-policy'] ?? '');
    // Scripts from the site, and the page's one inline script (the early calls) by its hash, nothing else.
    const inline = await page.evaluate(() => [...document.querySelectorAll('script:not([src])')].map((s) => s.textContent ?? ''));
    expect(inline).toHaveLength(1);
    expect(policy.get('script-src')).toEqual(["'self'", `'sha256-${createHash('sha256').update(inline[0]!).digest('base64')}'`]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    const nonce = policy.get('style-src')?.find((v) => v.startsWith("'nonce-"));
    expect(nonce).toBeTruthy();
    expect(policy.get('style-src')).not.toContain("'unsafe-inline'");

    await page.getByTestId('login-submit').waitFor();
    // antd's styles are in place (the button is styled), each <style> with the page's nonce
    await poll(() => page.getByTestId('login-submit').evaluate((e) => getComputedStyle(e).borderRadius)).not.toBe('0px');
    const styles = await page.evaluate(() => [...document.querySelectorAll('style')].map((s) => s.nonce));
    expect(styles.length).toBeGreaterThan(0);
    for (const n of styles) expect(`'nonce-${n}'`).toBe(nonce);
    expect(takeCspViolations()).toEqual([]);
  });

  it('the signed-in shell, a dialog and a page with a chart report no violation', async () => {
    const { page } = await suite.open();
    await signIn(page, suite.server.url, 'admin');
    await page.getByTestId('user-dropdown').click();
    await pickDropdownItem(page, 'user-menu-password');
    await page.getByTestId('change-password-input').waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await page.getByTestId('change-password-input').waitFor({ state: 'hidden' });
    await page.goto(`${suite.server.url}/disease/management2`);
    await page.getByTestId('system-list').locator('.ant-table-tbody tr.ant-table-row').first().getByTestId('row-action-edit').click();
    await page.getByTestId('weight-chart').waitFor();
    expect(takeCspViolations()).toEqual([]);
  });

  it('the API reference page renders its operations under its own policy, with no violation', async () => {
    const { page } = await suite.open();
    const response = await page.goto(`${suite.server.url}/adminapi/docs`);
    expect(directives((await response!.allHeaders())['content-security-policy'] ?? '').get('script-src')).toEqual(["'self'"]);
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    // Swagger UI renders the operations progressively (a dozen first, the rest over several seconds on this
    // box): its scripts ran under the policy once it has drawn the first tags' operations. The document
    // itself (every operation, validated) is tested in modules/docs/docs.test.ts.
    await poll(() => page.locator('.opblock').count()).toBeGreaterThan(10);
    await page.locator('.opblock-summary').first().click();
    await page.locator('.opblock-body').first().waitFor();
    expect(takeCspViolations()).toEqual([]);
  });
});

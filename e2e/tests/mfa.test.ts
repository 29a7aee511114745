/**
 * Two-step verification in a real browser (trust-api.md, "Second factor"): an institution enrols from the
 * Security page (the secret read from the page, the code computed here with the same library as the
 * server), signs out, signs in with its password and a code (a wrong one first: the error in place), and
 * once with a recovery code. Screenshots in English and Chinese (test-artifacts/mfa-*.png).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { axeBoth } from '../a11y';
import { api, e2eSuite, followSystemAppearance, pickDropdownItem, poll, screenshot, settle, signIn, submitLogin, visible } from '../harness';

const suite = e2eSuite('mfa');

/** The code of the current step, or `steps` steps away (the server accepts one step of drift either way). */
const codeOf = (secret: string, steps = 0) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 });

async function signOut(page: Page) {
  await page.getByTestId('user-dropdown').click();
  await pickDropdownItem(page, 'user-menu-logout');
  await page.waitForURL((u) => u.pathname.startsWith('/login'), { timeout: 20_000 });
}

/** Waits for the shell after a sign-in. */
const inShell = async (page: Page) => {
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 20_000 });
  await page.getByTestId('sidebar-menu').or(page.getByTestId('hamburger')).first().waitFor({ timeout: 20_000 });
};

describe('two-step verification', () => {
  it('an institution enrols, then signs in with a code and with a recovery code', async () => {
    const { page, context } = await suite.open({ locale: 'en-US' });
    await followSystemAppearance(context);
    await signIn(page, suite.server.url, 'clinic3', 'institution', { to: '/account/security' });
    await poll(() => visible(page, 'mfa-state').innerText()).toBe('Off');
    await visible(page, 'mfa-setup').click();
    await visible(page, 'mfa-qr').waitFor();
    const secret = ((await visible(page, 'mfa-secret').textContent()) ?? '').match(/[A-Z2-7]{32}/)?.[0];
    expect(secret).toBeTruthy();
    // The QR code is drawn (a canvas with content), the secret is beside it.
    await poll(() => page.locator('[data-testid="mfa-qr"] canvas').count()).toBe(1);
    await settle(page);
    await screenshot(page, 'mfa-setup-en');
    // The setup form passes axe in both appearances (names of the QR code and the code field, contrast).
    const failures: string[] = [];
    await axeBoth(page, 'mfa setup', failures);

    // A wrong first code: refused in place, nothing enabled.
    await visible(page, 'mfa-enable-code').fill('000000');
    await visible(page, 'mfa-enable-submit').click();
    await poll(() => visible(page, 'mfa-error').innerText()).toMatch(/wrong or has already been used/);
    await visible(page, 'mfa-enable-code').fill(codeOf(secret!));
    await visible(page, 'mfa-enable-submit').click();
    const list = visible(page, 'mfa-recovery-codes');
    await poll(() => list.locator('li').count()).toBe(10);
    const recovery = (await list.locator('li').allInnerTexts()).map((s) => s.trim());
    for (const c of recovery) expect(c).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    expect(await visible(page, 'mfa-recovery').innerText()).toMatch(/shown only now/);
    await settle(page);
    await screenshot(page, 'mfa-recovery-en');
    await visible(page, 'mfa-recovery-done').click();
    await poll(() => visible(page, 'mfa-state').innerText()).toBe('On');
    await poll(() => visible(page, 'mfa-left').innerText()).toMatch(/10 recovery codes left/);

    // Signed out; the password alone now answers a challenge, not a key.
    await signOut(page);
    const direct = await api(suite.server.url, 'POST', '/login/institution_login', { username: 'clinic3', password: 'demo1234' });
    expect(direct.datas.mfa_required).toBe(true);
    expect(direct.datas.key).toBeUndefined();

    // In Chinese: the second step asks for the code; a wrong one is refused in place, the right one signs in.
    const zh = await suite.open({ locale: 'zh-CN' });
    await followSystemAppearance(zh.context);
    await zh.page.goto(`${suite.server.url}/login`);
    await submitLogin(zh.page, 'clinic3', 'institution');
    const code = visible(zh.page, 'login-mfa-code');
    await code.waitFor();
    await expect(code.getAttribute('autocomplete')).resolves.toBe('one-time-code');
    await expect(code.getAttribute('inputmode')).resolves.toBe('numeric');
    expect(await visible(zh.page, 'login-mfa-form').innerText()).toMatch(/两步验证[\s\S]*6 位验证码/);
    await code.fill('123');
    await visible(zh.page, 'login-mfa-submit').click();
    await poll(() => visible(zh.page, 'login-error').innerText()).toMatch(/6 位数字验证码/);
    await settle(zh.page);
    await screenshot(zh.page, 'mfa-login-zh');
    await axeBoth(zh.page, 'login second step', failures);
    expect(failures).toEqual([]);
    // The step after the one enabling used (a code is never accepted twice).
    await code.fill(codeOf(secret!, 1));
    await visible(zh.page, 'login-mfa-submit').click();
    await inShell(zh.page);
    await signOut(zh.page);

    // Once with a recovery code (the link switches the field), in English.
    await page.goto(`${suite.server.url}/login`);
    await submitLogin(page, 'clinic3', 'institution');
    await visible(page, 'login-mfa-code').waitFor();
    await visible(page, 'login-mfa-switch').click();
    await poll(() => visible(page, 'login-mfa-form').innerText()).toMatch(/Recovery code/);
    await expect(visible(page, 'login-mfa-code').getAttribute('inputmode')).resolves.toBe('text');
    await visible(page, 'login-mfa-code').fill(recovery[0]!);
    await settle(page);
    await screenshot(page, 'mfa-login-recovery-en');
    await visible(page, 'login-mfa-submit').click();
    await inShell(page);
    await page.goto(`${suite.server.url}/account/security`);
    await poll(() => visible(page, 'mfa-left').innerText()).toMatch(/9 recovery codes left/);
    await signOut(page);

    // The same recovery code a second time: refused in place.
    await submitLogin(page, 'clinic3', 'institution');
    await visible(page, 'login-mfa-switch').click();
    await visible(page, 'login-mfa-code').fill(recovery[0]!);
    await visible(page, 'login-mfa-submit').click();
    await poll(() => visible(page, 'login-error').innerText()).toMatch(/already been used/);
  });
});

describe('two-step verification required of admins', () => {
  it('an admin without it lands on the enrolment, enables it, and continues to the console (en)', async () => {
    const admin = (await api(suite.server.url, 'POST', '/login/login', { username: 'admin', password: 'demo1234' })).datas.key as string;
    const saved = await api(suite.server.url, 'POST', '/params/save', { key: admin, values: { mfa_required_admins: 1 } });
    expect(saved.code).toBe(200);
    try {
      const { page } = await suite.open({ locale: 'en-US' });
      await page.goto(`${suite.server.url}/login`);
      await submitLogin(page, 'auditor', 'platform');
      await page.waitForURL((u) => u.pathname === '/account/security', { timeout: 20_000 });
      await poll(() => visible(page, 'mfa-required').innerText()).toMatch(/required/);
      await visible(page, 'mfa-setup').click();
      const secret = ((await visible(page, 'mfa-secret').textContent()) ?? '').match(/[A-Z2-7]{32}/)?.[0];
      expect(secret).toBeTruthy();
      await settle(page);
      await screenshot(page, 'mfa-required-admin-en');
      await visible(page, 'mfa-enable-code').fill(codeOf(secret!));
      await visible(page, 'mfa-enable-submit').click();
      await poll(() => visible(page, 'mfa-recovery-codes').locator('li').count()).toBe(10);
      await visible(page, 'mfa-recovery-done').click();
      await page.waitForURL((u) => u.pathname !== '/account/security', { timeout: 20_000 });
      await page.getByTestId('sidebar-menu').or(page.getByTestId('hamburger')).first().waitFor({ timeout: 20_000 });
      // The console's own calls now pass: the device list (the auditor's landing page) loads its rows.
      await page.waitForURL((u) => u.pathname === '/dashboard/index', { timeout: 20_000 });
      await poll(() => page.locator('.ant-table-row').count()).toBeGreaterThan(0);
    } finally {
      await api(suite.server.url, 'POST', '/params/save', { key: admin, values: { mfa_required_admins: 0 } });
    }
  });
});

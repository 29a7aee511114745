/**
 * Activation codes in a real browser (issue 10 items 4-8): the platform generates an institution code
 * on the codes page; `overdue3` signs in, sees the overdue notice, redeems that code there, sees its new
 * term and goes on to its device list without signing in again. Also: the codes page (batches, codes,
 * export), the activation records (platform and institution) and a device code redeemed from a device's
 * row. Screenshots in zh and en: test-artifacts/codes-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, DEMO_PASSWORD, e2eSuite, poll, screenshot, sessionKey, settle, signIn } from '../harness';

const suite = e2eSuite('codes');

const CODE_RE = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/;
const MASK_RE = /^[0-9A-HJKMNP-TV-Z]{4}-\*{4}-\*{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

const modal = (page: Page, testId: string) => page.locator(`.ant-modal[data-testid="${testId}"], [data-testid="${testId}"] .ant-modal`).first();
const rows = (page: Page, list: string) => page.locator(`[data-testid="${list}"] .ant-table-tbody tr.ant-table-row`);

async function openCodes(page: Page, query = '') {
  await page.goto(`${suite.server.url}/activation-code/index${query}`);
  await page.getByTestId('activation-code-page').waitFor({ timeout: 20_000 });
}

/** Generates a batch through the page's dialog; answers the codes the result dialog shows. */
async function generateInBrowser(page: Page, fill: { days: string; count: string; remark: string }): Promise<string[]> {
  await page.getByTestId('code-generate-open').click();
  await page.getByTestId('code-generate-form').waitFor({ state: 'visible' });
  await page.getByTestId('code-days').fill(fill.days);
  await page.getByTestId('code-count').fill(fill.count);
  await page.getByTestId('code-remark').fill(fill.remark);
  await settle(page);
  await modal(page, 'code-generate').locator('.ant-modal-footer .ant-btn-primary').click();
  const result = page.getByTestId('code-result-codes');
  await result.waitFor({ state: 'visible', timeout: 20_000 });
  const codes = (await result.inputValue()).split('\n');
  expect(codes).toHaveLength(Number(fill.count));
  for (const c of codes) expect(c).toMatch(CODE_RE);
  return codes;
}

describe('the overdue story', () => {
  it('the platform generates a code; overdue3 redeems it on the notice and lands on its device list', async () => {
    // The platform, in English: the batches of the demo, then a new batch of two 30-day institution codes.
    const admin = await suite.open({ locale: 'en-US' });
    await signIn(admin.page, suite.server.url, 'admin');
    await openCodes(admin.page);
    await poll(() => rows(admin.page, 'code-batch-list').count()).toBeGreaterThan(3);
    expect(await rows(admin.page, 'code-batch-list').allInnerTexts()).toContainEqual(expect.stringMatching(/Renewal for overdue3/));
    await settle(admin.page);
    await screenshot(admin.page, 'codes-batches-en');
    const codes = await generateInBrowser(admin.page, { days: '30', count: '2', remark: 'E2E: for overdue3' });
    await settle(admin.page);
    await screenshot(admin.page, 'codes-generated-en');
    await admin.page.getByTestId('code-result-close').click();
    await poll(() => rows(admin.page, 'code-batch-list').first().innerText()).toMatch(/E2E: for overdue3/);

    // overdue3 in English: the notice with its code field.
    const en = await suite.open({ locale: 'en-US' });
    await signIn(en.page, suite.server.url, 'overdue3', 'institution');
    await en.page.getByTestId('overdue-notice').waitFor({ timeout: 20_000 });
    await en.page.getByTestId('overdue-code').waitFor({ timeout: 20_000 });
    expect(await en.page.getByTestId('overdue-notice').innerText()).toMatch(/term has expired/);
    // A wrong code is refused at the field, in the reader's language.
    await en.page.getByTestId('overdue-code').fill('0000-0000-0000-0000');
    await en.page.getByTestId('overdue-redeem-submit').click();
    await poll(() => en.page.getByTestId('overdue-redeem').innerText()).toMatch(/No such activation code/);
    await settle(en.page);
    await screenshot(en.page, 'codes-overdue-en');
    await en.context.close();

    // overdue3 in Chinese: redeems the platform's code, sees its new term, continues without signing in.
    const { context, page } = await suite.open({ locale: 'zh-CN' });
    await signIn(page, suite.server.url, 'overdue3', 'institution');
    await page.getByTestId('overdue-code').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('overdue-notice').innerText()).toMatch(/机构已到期/);
    await settle(page);
    await screenshot(page, 'codes-overdue-zh');
    const restrictedKey = await sessionKey(context);
    // Pasted in lower case with spaces: read as typed.
    await page.getByTestId('overdue-code').fill(` ${codes[0]!.toLowerCase().replace(/-/g, ' ')} `);
    await page.getByTestId('overdue-redeem-submit').click();
    const term = page.getByTestId('overdue-new-term');
    await term.waitFor({ timeout: 20_000 });
    expect(await term.innerText()).toMatch(/机构有效期已延长至 \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await settle(page);
    await screenshot(page, 'codes-renewed-zh');

    await page.getByTestId('overdue-continue').click();
    await page.waitForURL((u) => u.pathname === '/dashboard/index', { timeout: 20_000 });
    await poll(() => rows(page, 'device-list').count(), 20_000).toBeGreaterThan(0);
    expect(await page.getByTestId('overdue-notice').count()).toBe(0);
    // Same session key, no sign-in page: the restricted session became a full one.
    expect(await sessionKey(context)).toBe(restrictedKey);
    expect(page.url()).not.toMatch(/login/);
    await settle(page);
    await screenshot(page, 'codes-devices-after-renewal-zh');

    // The server agrees: the code is spent, the term is 30 days out, and the record is there.
    const adminKey = (await api(suite.server.url, 'POST', '/login/login', { username: 'admin', password: DEMO_PASSWORD })).datas.key;
    const again = await api(suite.server.url, 'POST', '/base_index/use_activation_code_institution', { key: restrictedKey, code: codes[0] });
    expect(again.datas.error).toMatch(/已被使用|already been used/);
    const records = await api(suite.server.url, 'GET', '/activation_record/list', { key: adminKey, scope: 'institution', limit: 5 });
    expect(records.datas.list[0]).toMatchObject({ institution_name: 'Binjiang Health Store', days: 30, operator_name: 'overdue3' });
    expect(records.datas.list[0].code).toMatch(MASK_RE);
  });
});

describe('codes and records pages', () => {
  it('the codes page in zh: the code list masked, a batch exported to CSV', async () => {
    const { page } = await suite.open({ locale: 'zh-CN' });
    await signIn(page, suite.server.url, 'admin');
    await openCodes(page);
    await poll(() => rows(page, 'code-batch-list').count()).toBeGreaterThan(3);
    await settle(page);
    await screenshot(page, 'codes-batches-zh');

    // The batch held for overdue3: export it, the file holds its three codes in full.
    const row = rows(page, 'code-batch-list').filter({ hasText: 'Renewal for overdue3' });
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('row-action-export-csv').click()]);
    expect(download.suggestedFilename()).toMatch(/^activation-codes-AC\d{8}-\d{4}\.csv$/);
    const file = await download.path();
    const text = (await import('node:fs')).readFileSync(file!, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines[0]).toMatch(/^激活码,批次号,类型/);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([expect.stringMatching(CODE_RE), expect.stringMatching(CODE_RE), expect.stringMatching(CODE_RE)]);

    // Its codes, masked, in the code view.
    await row.getByTestId('row-action-codes').click();
    await page.waitForURL((u) => u.searchParams.get('view') === 'codes');
    await poll(() => rows(page, 'code-list').count()).toBe(3);
    for (const r of await rows(page, 'code-list').allInnerTexts()) expect(r).toMatch(/[0-9A-Z]{4}-\*{4}-\*{4}-[0-9A-Z]{4}/);
    await settle(page);
    await screenshot(page, 'codes-list-zh');
  });

  it('the codes page and the activation records in en; the records page links to the codes page', async () => {
    const { page } = await suite.open({ locale: 'en-US' });
    await signIn(page, suite.server.url, 'admin');
    await openCodes(page, '?view=codes&status=used');
    await poll(() => rows(page, 'code-list').count()).toBeGreaterThan(2);
    expect(await rows(page, 'code-list').first().innerText()).toMatch(/Used/);
    await settle(page);
    await screenshot(page, 'codes-list-en');

    await page.goto(`${suite.server.url}/institutional/institution-end-record`);
    await poll(() => rows(page, 'activation-record-list').count(), 20_000).toBeGreaterThan(3);
    await settle(page);
    await screenshot(page, 'codes-records-en');
    await page.getByTestId('records-codes-link').click();
    await page.waitForURL((u) => u.pathname === '/activation-code/index');
    await page.getByTestId('activation-code-page').waitFor();
  });

  it('an institution sees its subtree’s records (zh) and redeems a device code from its device row (en)', async () => {
    const zh = await suite.open({ locale: 'zh-CN' });
    await signIn(zh.page, suite.server.url, 'agent1', 'institution', { to: '/institutional/institution-end-record' });
    await poll(() => rows(zh.page, 'activation-record-list').count(), 20_000).toBeGreaterThan(0);
    const texts = await rows(zh.page, 'activation-record-list').allInnerTexts();
    expect(texts.join('\n')).not.toMatch(/Tianhe Recovery Clinic/);
    expect(await zh.page.getByTestId('records-codes-link').count()).toBe(0);
    await settle(zh.page);
    await screenshot(zh.page, 'codes-records-agent1-zh');
    await zh.context.close();

    // The platform makes a device code (the API, as a script would); clinic3 redeems it on a device of its own.
    const adminKey = (await api(suite.server.url, 'POST', '/login/login', { username: 'admin', password: DEMO_PASSWORD })).datas.key;
    const made = await api(suite.server.url, 'POST', '/activation_code/generate', { key: adminKey, scope: 'device', days: 30, count: 1 });
    expect(made.code).toBe(200);
    const { page } = await suite.open({ locale: 'en-US' });
    await signIn(page, suite.server.url, 'clinic3', 'institution');
    await poll(() => rows(page, 'device-list').count(), 20_000).toBeGreaterThan(0);
    const row = rows(page, 'device-list')
      .filter({ has: page.getByTestId('row-action-redeem') })
      .first();
    const serial = (await row.locator('td').first().innerText()).trim();
    await row.getByTestId('row-action-redeem').click();
    await page.getByTestId('device-redeem-code').fill(made.datas.codes[0]);
    await settle(page);
    await screenshot(page, 'codes-device-redeem-en');
    await modal(page, 'device-redeem').locator('.ant-modal-footer .ant-btn-primary').click();
    await poll(() => page.locator('.ant-message-notice').allInnerTexts()).toContainEqual(expect.stringMatching(/Code redeemed\. Expires \d{4}-/));
    const clinicKey = await sessionKey(page.context());
    const records = await api(suite.server.url, 'GET', '/activation_record/list', { key: clinicKey, scope: 'device', limit: 1 });
    expect(records.datas.list[0]).toMatchObject({ device_serial: serial, days: 30, operator_name: 'clinic3' });
  });
});

/**
 * The person's report (issue 35) in a real browser: the demo device sends three inspections of one person
 * (so the report has a history and a change since the last one); clinic3 opens the report (trend, body
 * systems as sorted bars), downloads the server's PDF and shares the report; the link opens in fresh
 * browser contexts without a session at 375 px in es and zh (read-only sheet, language switch, PDF); the
 * body-systems chart is looked at in zh, en, es and ja; the PDF in all four languages is turned into PNGs
 * (pdftoppm); a revoked link shows the friendly message; the result page lists the analysis versions and
 * opens an older one. Screenshots: test-artifacts/report-share-*.png and /tmp/report-shots.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, ARTIFACTS, e2eSuite, poll, screenshot, settle, signIn } from '../harness';

const suite = e2eSuite('report-share');
const SHOTS = '/tmp/report-shots';
const MERIDIANS = ['LU', 'PC', 'HT', 'SI', 'TE', 'LI', 'SP', 'LR', 'KI', 'BL', 'GB', 'ST'];
const STAMP = Date.now();

/** Readings drifting from balanced (weeks ago) to a lung and kidney pattern (today). */
function readings(step: number) {
  const out: Record<string, [number, number]> = Object.fromEntries(MERIDIANS.map((m) => [m, [98, 100]]));
  out.LU = [110 + step * 25, 112 + step * 23];
  out.LI = [105 + step * 22, 108 + step * 24];
  out.KI = [90 - step * 18, 92 - step * 16];
  out.HT = [104, 100 - step * 30];
  return out;
}

async function sendInspection(step: number, daysAgo: number) {
  const res = await fetch(`${suite.server.url}/deviceapi/v1/inspections`, {
    method: 'POST',
    headers: { authorization: 'Bearer BE-DEMO-0001.demo-device-secret-0001', 'content-type': 'application/json' },
    body: JSON.stringify({
      inspection_no: `SHARE-${STAMP}-${step}`,
      measured_at: new Date(Date.now() - daysAgo * 86_400_000).toISOString(),
      user: { name: '李娜 Lina Li', gender: 'female', birth_date: '1984-09-02', id_number: '110105198409020023', phone: '13900008888' },
      readings: readings(step),
    }),
  });
  const body = (await res.json()) as { code: number; datas: { id: number } };
  expect(body.code, JSON.stringify(body)).toBe(200);
  return body.datas.id;
}

const shot = async (page: import('playwright-core').Page, name: string) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await settle(page);
  await screenshot(page, `report-share-${name}`);
  fs.copyFileSync(path.join(ARTIFACTS, `report-share-${name}.png`), path.join(SHOTS, `${name}.png`));
};

/** A PDF saved and its pages turned into PNGs (first 3 pages), under both artifact folders. */
function pagesOf(pdf: Buffer, name: string) {
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(ARTIFACTS, `report-share-${name}.pdf`);
  fs.writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '3', file, path.join(SHOTS, name)]);
  return fs.readdirSync(SHOTS).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'));
}

describe('report-share', () => {
  let id = 0;
  let url = '';

  it('clinic3 opens the report with its history, downloads the PDF and shares it with the person', async () => {
    await sendInspection(0, 40);
    await sendInspection(1, 20);
    id = await sendInspection(2, 0);
    const { page } = await suite.open({ locale: 'en-US', width: 1400, height: 1000 });
    await signIn(page, suite.server.url, 'clinic3', 'institution', { to: `/inspection/report/${id}` });
    const sheet = page.locator('.report-screen [data-testid="report-sheet"]');
    await sheet.locator('[data-testid="report-systems-chart"] svg').waitFor({ timeout: 20_000 });
    await sheet.locator('[data-testid="report-trend-indices"] svg').waitFor();
    expect(await sheet.getByTestId('report-changes').innerText()).toMatch(/Changed since the last inspection/);
    expect(await sheet.getByTestId('report-history').innerText()).toContain('2 before it');

    // "Download PDF": the server's file, named after the person and the day.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-pdf').click()]);
    expect(download.suggestedFilename()).toMatch(/^report-李娜 Lina Li-\d{4}-\d{2}-\d{2}\.pdf$/);
    const saved = path.join(ARTIFACTS, 'report-share-download-en.pdf');
    await download.saveAs(saved);
    expect(pagesOf(fs.readFileSync(saved), 'pdf-report-en').length).toBeGreaterThan(0);

    // Share: a link with its QR code; the sheet then prints the QR code too.
    await page.getByTestId('report-share').click();
    await page.getByTestId('share-create').click();
    await page.getByTestId('share-qr').waitFor();
    url = await page.getByTestId('share-url').inputValue();
    expect(url).toMatch(new RegExp(`^${suite.server.url}/share/[A-Za-z0-9_-]{43}$`));
    await poll(() => page.locator('[data-testid="share-list"] .ant-list-item').count()).toBe(1);
    await shot(page, 'dialog-en');
    await page.keyboard.press('Escape');
    await sheet.getByTestId('report-qr').waitFor();
    await shot(page, 'report-en');
    await sheet.screenshot({ path: path.join(SHOTS, 'report-sheet-en.png') });
    await page.context().close();
  });

  it('the link opens without a session at 375 px in es and zh: read-only, language switch, the PDF', async () => {
    for (const [lang, locale, title] of [
      ['es', 'es-ES', 'Informe de inspección bioeléctrica de meridianos'],
      ['zh', 'zh-CN', '生物电经络检测报告'],
    ] as const) {
      const { page, context } = await suite.open({ locale, width: 375, height: 780 });
      await page.goto(url);
      const sheet = page.getByTestId('report-sheet');
      await sheet.locator('[data-testid="report-systems-chart"] svg').waitFor({ timeout: 20_000 });
      expect(await sheet.locator('h1').innerText()).toBe(title);
      expect(await sessionless(context)).toBe(true);
      // Nothing sticks out of the phone's width.
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > 376)
          .slice(0, 3)
          .map((e) => `${e.tagName}.${e.className}`),
      );
      expect(wide).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect(await page.getByTestId('report-recompute').count()).toBe(0);
      await shot(page, `phone-${lang}`);
      await page.screenshot({ path: path.join(SHOTS, `phone-${lang}-full.png`), fullPage: true });
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('share-pdf').click()]);
      const file = path.join(ARTIFACTS, `report-share-phone-${lang}.pdf`);
      await download.saveAs(file);
      expect(pagesOf(fs.readFileSync(file), `pdf-share-${lang}`).length).toBeGreaterThan(0);
      await context.close();
    }
  });

  it('the body-systems chart in zh, en, es and ja, and the PDF of the link in all four languages', async () => {
    const { page, context } = await suite.open({ locale: 'en-US', width: 900, height: 1000 });
    await page.goto(url);
    const chart = page.locator('[data-testid="report-systems-chart"]');
    await chart.locator('svg').waitFor({ timeout: 20_000 });
    const labels = { zh: '生物电经络检测报告', en: 'Bioelectric meridian inspection report', es: 'Informe de inspección bioeléctrica de meridianos', ja: '生体電気経絡検査レポート' };
    for (const lang of ['zh', 'en', 'es', 'ja'] as const) {
      await page.locator(`[data-testid="share-lang"] [lang="${lang}"]`).click();
      await poll(() => page.locator('[data-testid="report-sheet"] h1').innerText()).toBe(labels[lang]);
      await settle(page);
      // Every system has its own row: at least 34 labels, none on top of another.
      // The labels: the texts left of the bars (the chart's first 210 px).
      const boxes = await chart.locator('svg').evaluate((svg) => {
        const left = svg.getBoundingClientRect().left;
        return [...svg.querySelectorAll('text')]
          .map((t) => t.getBoundingClientRect())
          .filter((r) => r.right < left + 215 && r.width > 0)
          .map((r) => [r.top, r.bottom]);
      });
      expect(boxes.length).toBeGreaterThanOrEqual(34);
      const sorted = boxes.sort((a, b) => a[0]! - b[0]!);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i]![0]!).toBeGreaterThanOrEqual(sorted[i - 1]![1]! - 1);
      await chart.screenshot({ path: path.join(SHOTS, `systems-${lang}.png`) });
      await chart.screenshot({ path: path.join(ARTIFACTS, `report-share-systems-${lang}.png`) });
      const token = url.split('/').pop()!;
      const res = await fetch(`${suite.server.url}/adminapi/share/pdf?token=${token}&lang=${lang}`);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const pdf = Buffer.from(await res.arrayBuffer());
      expect(pdf.length).toBeLessThan(600 * 1024);
      expect(pagesOf(pdf, `pdf-${lang}`).length).toBeGreaterThan(0);
    }
    await context.close();
  });

  it('a revoked link shows the friendly message in the reader language; the result page opens an older analysis version', async () => {
    const admin = await api(suite.server.url, 'POST', '/login/login', { username: 'admin', password: 'demo1234' });
    const key = admin.datas.key as string;
    const revoked = await api(suite.server.url, 'POST', '/inspection/unshare', { key, id });
    expect(revoked.datas.revoked).toBe(1);
    const phone = await suite.open({ locale: 'es-ES', width: 375, height: 700 });
    await phone.page.goto(url);
    await phone.page.getByTestId('share-invalid').waitFor({ timeout: 20_000 });
    expect(await phone.page.getByTestId('share-invalid').innerText()).toContain('Este enlace ya no es válido');
    await shot(phone.page, 'revoked-es');
    await phone.context.close();

    expect((await api(suite.server.url, 'POST', '/inspection/recompute', { key, id })).code).toBe(200);
    const { page, context } = await suite.open({ locale: 'zh-CN', width: 1400, height: 1000 });
    await signIn(page, suite.server.url, 'clinic3', 'institution', { to: `/inspection/result/${id}` });
    await page.getByTestId('result-versions').waitFor({ timeout: 20_000 });
    await poll(() => page.locator('[data-testid="result-versions"] .ant-table-tbody tr.ant-table-row').count()).toBe(2);
    await page.locator('[data-testid="result-trend-indices"] svg').waitFor();
    await page.getByTestId('result-open-v1').click();
    await page.getByTestId('result-older').waitFor();
    expect(await page.getByTestId('result-older').innerText()).toContain('1');
    await shot(page, 'result-zh');
    await context.close();
  });
});

/** No session key in the context: the public page needs none. */
async function sessionless(context: import('playwright-core').BrowserContext) {
  return !(await context.cookies()).some((c) => c.name === 'Admin-Token');
}

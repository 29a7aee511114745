/**
 * Inspections in a real browser (issue 12 items 2-4): the demo device sends an inspection through the
 * device API (the simulator's path: POST /deviceapi/v1/inspections with BE-DEMO-0001's secret); clinic3
 * finds it in its list, opens the report in zh, en, es and ja (screenshots), prints it to PDF (A4, with
 * backgrounds) and turns the first pages into PNGs with pdftoppm to look at; the result page in each
 * language, with a treatment session recorded. Artifacts: test-artifacts/inspections-*.png, *.pdf.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ARTIFACTS, e2eSuite, poll, screenshot, settle, signIn } from '../harness';

const suite = e2eSuite('inspections');
const LANGS = [
  ['zh', 'zh-CN'],
  ['en', 'en-US'],
  ['es', 'es-ES'],
  ['ja', 'ja-JP'],
] as const;
const MERIDIANS = ['LU', 'PC', 'HT', 'SI', 'TE', 'LI', 'SP', 'LR', 'KI', 'BL', 'GB', 'ST'];
const NUMBER = `E2E-${Date.now()}`;

/** What the device simulator sends: LU and LI high (a lung pattern), KI low, one side of HT weak. */
function readings() {
  const out: Record<string, [number, number]> = Object.fromEntries(MERIDIANS.map((m) => [m, [96, 100]]));
  out.LU = [160, 158];
  out.LI = [150, 156];
  out.KI = [52, 60];
  out.HT = [110, 40];
  return out;
}

async function sendInspection(url: string) {
  const res = await fetch(`${url}/deviceapi/v1/inspections`, {
    method: 'POST',
    headers: { authorization: 'Bearer BE-DEMO-0001.demo-device-secret-0001', 'content-type': 'application/json' },
    body: JSON.stringify({
      inspection_no: NUMBER,
      measured_at: new Date().toISOString(),
      user: { name: '张伟 Wei Zhang', gender: 'male', birth_date: '1975-03-14', id_number: '11010519491231002X', phone: '13900009999' },
      vitals: { pulse: 72 },
      readings: readings(),
    }),
  });
  return (await res.json()) as { code: number; datas: any };
}

const rows = (page: Page) => page.locator('[data-testid="inspection-list"] .ant-table-tbody tr.ant-table-row');

describe('inspections', () => {
  let id = 0;

  it('the device sends an inspection; clinic3 finds it in its list with its headline', async () => {
    const sent = await sendInspection(suite.server.url);
    expect(sent.code, JSON.stringify(sent)).toBe(200);
    expect(sent.datas.analysis.meridians).toHaveLength(12);
    id = sent.datas.id;

    const { page } = await suite.open({ locale: 'en-US' });
    await signIn(page, suite.server.url, 'clinic3', 'institution', { to: '/inspection/management' });
    await poll(() => rows(page).count()).toBeGreaterThan(0);
    await page.getByTestId('filter-keyword').fill(NUMBER);
    await page.getByTestId('filter-keyword').press('Enter');
    await poll(() => rows(page).count()).toBe(1);
    const text = await rows(page).first().innerText();
    expect(text).toContain(NUMBER);
    expect(text).toContain('Wei Zhang');
    expect(text).toMatch(/risk/i);
    await page.getByTestId('filter-keyword').fill('');
    await page.getByTestId('filter-keyword').press('Enter');
    await poll(() => rows(page).count()).toBeGreaterThan(1);
    await settle(page);
    await screenshot(page, 'inspections-list-en');
    await page.getByTestId(`report-${NUMBER}`).click();
    await page.waitForURL(new RegExp(`/inspection/report/${id}$`));
    await page.locator('.report-screen [data-testid="report-sheet"]').waitFor();
  });

  // Four page loads and four A4 prints of a sheet that grew with the history and the 34 body-system bars
  // (issue 35): on the loaded two-core box it passed all four languages at 120 s and was cut there.
  it('the report in zh, en, es and ja: header with masked ID, charts, risks, diagrams, disclaimer; printed to A4 PDF', { timeout: 240_000 }, async () => {
    for (const [lang, locale] of LANGS) {
      const { page } = await suite.open({ locale, width: 1400, height: 1000 });
      await signIn(page, suite.server.url, 'clinic3', 'institution', { to: `/inspection/report/${id}` });
      const sheet = page.locator('.report-screen [data-testid="report-sheet"]');
      await sheet.waitFor({ timeout: 20_000 });
      await sheet.locator('[data-testid="report-meridian-chart"] svg').waitFor();
      await sheet.locator('[data-testid="report-systems-chart"] svg').waitFor();
      expect(await sheet.getByTestId('report-id-number').innerText()).toBe('110105********002X');
      expect(await sheet.getByTestId('report-risk').count()).toBeGreaterThan(0);
      expect(await sheet.getByTestId('report-diagram').count()).toBeGreaterThan(0);
      // The diagrams' images have loaded.
      await poll(() => sheet.locator('.report-diagram img').evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0))).toBe(true);
      const disclaimer = await sheet.getByTestId('report-disclaimer').innerText();
      expect(disclaimer.length).toBeGreaterThan(10);
      const title = await sheet.locator('h1').innerText();
      expect(title).toBe({ zh: '生物电经络检测报告', en: 'Bioelectric meridian inspection report', es: 'Informe de inspección bioeléctrica de meridianos', ja: '生体電気経絡検査レポート' }[lang]);
      await settle(page);
      await screenshot(page, `inspections-report-${lang}`);
      await sheet.screenshot({ path: path.join(ARTIFACTS, `inspections-report-sheet-${lang}.png`) });

      // "Download PDF" is the browser's print: the same page printed to A4.
      const pdfPath = path.join(ARTIFACTS, `inspections-report-${lang}.pdf`);
      await page.emulateMedia({ media: 'print' });
      await page.pdf({ path: pdfPath, format: 'A4', printBackground: true });
      await page.emulateMedia({ media: 'screen' });
      const pdf = fs.readFileSync(pdfPath);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
      expect(pages).toBeGreaterThanOrEqual(1);
      expect(pages).toBeLessThanOrEqual(8);
      const prefix = path.join(ARTIFACTS, `inspections-report-${lang}-page`);
      execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '3', pdfPath, prefix]);
      expect(fs.readdirSync(ARTIFACTS).filter((f) => f.startsWith(`inspections-report-${lang}-page`) && f.endsWith('.png')).length).toBeGreaterThanOrEqual(1);
      await page.context().close();
    }
  });

  // Four page loads of a result page that now also draws the trend charts and the analysis versions (issue
  // 35): 108-125 s on the loaded two-core box.
  it('the result in each language: tables, the treatment plan with actions, a session recorded', { timeout: 240_000 }, async () => {
    for (const [lang, locale] of LANGS) {
      const { page } = await suite.open({ locale, width: 1400, height: 1000 });
      await signIn(page, suite.server.url, 'clinic3', 'institution', { to: `/inspection/result/${id}` });
      await page.getByTestId('result-page').waitFor({ timeout: 20_000 });
      expect(await page.locator('[data-testid="result-meridians"] .ant-table-tbody tr.ant-table-row').count()).toBe(12);
      expect(await page.locator('[data-testid="result-plan"] .ant-table').count()).toBeGreaterThan(0);
      if (lang === 'en') {
        await page.getByTestId('session-acupoints').click();
        await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
        await page.keyboard.press('Escape');
        await page.getByTestId('session-notes').fill('First session, well tolerated');
        await page.getByTestId('session-save').click();
        await poll(() => page.locator('[data-testid="result-sessions"] .ant-table-tbody tr.ant-table-row').count()).toBe(1);
        expect(await page.locator('[data-testid="result-sessions"] .ant-table-tbody').innerText()).toContain('well tolerated');
      }
      await settle(page);
      await screenshot(page, `inspections-result-${lang}`);
      await page.screenshot({ path: path.join(ARTIFACTS, `inspections-result-full-${lang}.png`), fullPage: true });
      await page.context().close();
    }
  });
});

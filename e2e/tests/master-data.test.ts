/**
 * Master data (grade 0): disease categories, system categories, acupoints (and their treatment
 * actions), schematic diagrams with an uploaded picture and acupoint markers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { animationsDone, e2eSuite, screenshot, signIn as signInAt } from '../harness';
import { makePng } from '../png';

const suite = e2eSuite('master-data');
let context: BrowserContext;
let page: Page;

const signIn = () => signInAt(page, suite.server.url, 'admin');

/** Opens a console page by its path and waits for the list's first rows. */
async function open(path: string, ready: string) {
  await page.goto(`${suite.server.url}${path}`);
  await page.getByTestId(ready).waitFor({ timeout: 20_000 });
}

const rows = (testId: string) => page.getByTestId(testId).locator('.ant-table-tbody > tr.ant-table-row');

/** The open drawer / modal of a FormModal, by its form test id. */
const dialog = (formTestId: string) =>
  page
    .locator('[role="dialog"]')
    .filter({ has: page.getByTestId(formTestId) })
    .last();

/** Waits until a drawer / modal has finished opening: shown, and no animation or transition left running. */
async function settled(locator: ReturnType<Page['locator']>) {
  await locator.waitFor();
  await animationsDone(page);
}

/** Waits for the toasts to go, so a screenshot shows the page itself. */
async function quiet() {
  await expect.poll(async () => page.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0);
}

/** Picks an option of an antd Select by typing into it. */
async function pick(testId: string, text: string, scope: Page | ReturnType<Page['locator']> = page) {
  const select = scope.getByTestId(testId);
  await select.click();
  await page.keyboard.type(text);
  // Only an open list: a closed one (another select's, hidden without the -hidden class) stays in the page.
  const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first();
  await option.waitFor();
  await option.click();
  // The list closes with an animation: let it finish so the next pick finds its own list.
  await expect.poll(() => page.locator('.ant-select-dropdown:visible').count(), { timeout: 10_000 }).toBe(0);
}

/** Where the first marker's centre sits, as fractions of the picture's box. */
async function markerFraction(canvas: string) {
  return page.evaluate((id) => {
    const img = document.querySelector(`[data-testid="${id}-image"]`) as HTMLImageElement;
    const dot = document.querySelector(`[data-testid="${id}"] [data-testid="marker-dot"]`) as HTMLElement;
    const a = img.getBoundingClientRect();
    const b = dot.getBoundingClientRect();
    return { x: (b.left + b.width / 2 - a.left) / a.width, y: (b.top + b.height / 2 - a.top) / a.height, width: a.width, loaded: img.complete && img.naturalWidth > 0 };
  }, canvas);
}

describe('master data', () => {
  beforeAll(async () => {
    ({ context, page } = await suite.open());
    await signIn();
  });

  afterAll(async () => {
    await context?.close();
  });

  it('disease categories: categories beside their diseases, and the disease form', async () => {
    await open('/disease/management', 'category-panel');
    await rows('disease-list').first().waitFor();
    expect(await rows('disease-list').count()).toBeGreaterThan(5);
    // Choose the first category: the list narrows to it and the URL remembers it.
    const first = page.getByTestId('category-panel').locator('.category-select').nth(1);
    const name = (await first.locator('.category-name').textContent())!;
    const count = Number(await first.locator('.category-count').textContent());
    await first.click();
    await page.waitForURL(/category_id=\d+/);
    await expect.poll(async () => page.getByTestId('disease-list').locator('.list-title').textContent()).toBe(name);
    await expect.poll(async () => rows('disease-list').count()).toBe(Math.min(count, 20));
    await expect.poll(async () => page.getByTestId('disease-list').locator('.ant-tag').count()).toBeGreaterThan(0);
    await screenshot(page, 'master-diseases-list');

    await page.getByTestId('disease-create').click();
    const form = dialog('disease-form-form');
    await settled(form);
    await form.getByTestId('disease-name-zh').fill('测试病');
    await form.getByTestId('disease-name-en').fill('Test disease');
    await pick('pattern-meridian-0', 'LU', form);
    await form.getByTestId('pattern-add').click();
    await pick('pattern-meridian-1', 'LU', form);
    await form.getByTestId('pattern-status-1').getByText('Deficient').click();
    await form.getByRole('button', { name: 'Save' }).click();
    // The client refuses an excess + deficient pair for one meridian, at the row.
    await expect.poll(async () => form.locator('.ant-form-item-explain-error').allTextContents()).toContain('Meridian LU cannot be both excess and deficient');
    await settled(form);
    await screenshot(page, 'master-diseases-form');
    await form.getByTestId('pattern-status-1').getByText('Imbalanced').click();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'hidden' });
    await expect.poll(async () => page.getByTestId('disease-list').getByText('Test disease').count()).toBe(1);
  });

  it('system categories: tree of body systems with their weights, and the weights form', async () => {
    await open('/disease/management2', 'system-list');
    await rows('system-list').first().waitFor();
    // Body systems with their subsystems as children.
    await expect.poll(async () => page.getByTestId('system-list').locator('tr.system-row-sub').count()).toBeGreaterThan(0);
    await screenshot(page, 'master-systems-list');
    await rows('system-list').first().getByTestId('row-action-edit').click();
    const form = dialog('system-form-form');
    await form.getByTestId('weight-chart').waitFor();
    await settled(form);
    expect(await form.locator('.weight-share').filter({ hasText: '%' }).count()).toBeGreaterThan(0);
    await screenshot(page, 'master-systems-form');
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('acupoints: create one through the form and find it in the list', async () => {
    await open('/acupoint/management', 'acupoint-list');
    await rows('acupoint-list').first().waitFor();
    await screenshot(page, 'master-acupoints-list');

    await page.getByTestId('acupoint-create').click();
    const form = dialog('acupoint-form-form');
    await form.getByTestId('acupoint-code').fill('ex-e2e1');
    await pick('acupoint-meridian', 'Extra points', form);
    await form.getByTestId('acupoint-name-zh').fill('测试穴');
    await form.getByTestId('acupoint-name-en').fill('Test point');
    await form.getByTestId('acupoint-location-en').fill('Back of the hand, between the test bones.');
    await form.getByTestId('acupoint-image-input').setInputFiles({ name: 'point.png', mimeType: 'image/png', buffer: makePng(160, 160) });
    await form.locator('.image-upload-thumb').waitFor();
    await form.locator('.ant-drawer-body').evaluate((el) => {
      el.scrollTop = 0;
    });
    await quiet();
    await screenshot(page, 'master-acupoints-form');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'hidden' });

    await page.getByTestId('filter-keyword').fill('EX-E2E1');
    await page.getByTestId('filter-search').click();
    await page.waitForURL(/keyword=EX-E2E1/);
    await expect.poll(async () => rows('acupoint-list').count()).toBe(1);
    await expect(rows('acupoint-list').first().textContent()).resolves.toContain('Test point');
    expect(await rows('acupoint-list').first().locator('img').count()).toBe(1);
  });

  it('acupoints: a seeded acupoint shown on a diagram cannot be deleted, and the refusal says why', async () => {
    await open('/acupoint/management?keyword=LU9', 'acupoint-list');
    await expect.poll(async () => rows('acupoint-list').count()).toBe(1);
    await rows('acupoint-list').first().getByTestId('row-action-delete').click();
    await page.getByTestId('confirm-delete-ok').click();
    const refusal = page.getByTestId('delete-refused');
    await refusal.waitFor();
    const text = await refusal.textContent();
    expect(text).toMatch(/Cannot delete: still used by .*schematic diagram/);
    expect(text).toContain('Measurement map');
    await settled(page.locator('.ant-modal').filter({ has: refusal }));
    await screenshot(page, 'master-acupoints-delete-refused');
    await page.getByTestId('delete-refused-ok').click();
    await expect.poll(async () => rows('acupoint-list').count()).toBe(1);
  });

  it('acupoint treatment actions: the hidden page edits the actions as a table', async () => {
    await open('/acupoint/management?keyword=LU9', 'acupoint-list');
    await rows('acupoint-list').first().waitFor();
    await rows('acupoint-list').first().getByTestId('row-action-actions').click();
    await page.waitForURL(/\/acupoint\/action\/\d+/);
    await page.getByTestId('action-heading').waitFor();
    expect(await page.getByTestId('action-heading').textContent()).toContain('LU9');
    await expect.poll(() => page.title()).toContain('LU9');
    const before = await page.getByTestId('action-table').locator('.ant-table-tbody > tr.ant-table-row').count();
    await page.getByTestId('action-add').click();
    const index = before;
    await page.getByTestId(`action-min-${index}`).fill('60');
    await page.getByTestId(`action-max-${index}`).fill('30');
    await page.getByTestId('action-save').click();
    await expect.poll(async () => page.locator('.ant-form-item-explain-error').allTextContents()).toContain('Must be at least the minimum');
    await page.getByTestId(`action-max-${index}`).fill('80');
    await page.getByTestId('action-save').click();
    await page.getByTestId('action-dirty').waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('action-heading').waitFor();
    await expect.poll(async () => page.getByTestId('action-table').locator('.ant-table-tbody > tr.ant-table-row').count()).toBe(before + 1);
    await screenshot(page, 'master-acupoint-actions');
  });

  it('schematic diagrams: upload a picture, place a marker, save, and find it at the same relative spot at two widths', async () => {
    await open('/schematic/management', 'schematic-list');
    await rows('schematic-list').first().waitFor();
    await expect
      .poll(async () =>
        page
          .getByTestId('schematic-list')
          .locator('.schematic-thumb img')
          .evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0)),
      )
      .toBe(true);
    await screenshot(page, 'master-schematics-list');

    await page.getByTestId('schematic-create').click();
    const form = dialog('schematic-form-form');
    await form.getByTestId('schematic-title-zh').fill('测试示意图');
    await form.getByTestId('schematic-title-en').fill('E2E diagram');

    // An HTML page named .png is refused in the browser, with a message.
    await form
      .getByTestId('schematic-image-input')
      .setInputFiles({ name: 'page.png', mimeType: 'image/png', buffer: Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>') });
    await form.getByTestId('schematic-image-error').waitFor();
    expect(await form.getByTestId('schematic-image-error').textContent()).toContain('“page.png” is not an image');
    expect(await form.getByTestId('marker-canvas').count()).toBe(0);

    // A real PNG uploads (with progress) and shows in the marker editor.
    await form.getByTestId('schematic-image-input').setInputFiles({ name: 'body.png', mimeType: 'image/png', buffer: makePng(480, 640) });
    const image = form.getByTestId('marker-canvas-image');
    await image.waitFor();
    await expect.poll(async () => (await markerFractionSafe()).loaded).toBe(true);
    expect(await form.getByTestId('schematic-image-error').count()).toBe(0);

    // Clicking before choosing an acupoint places nothing; then choose LU9 and click at (30%, 40%).
    const box = (await image.boundingBox())!;
    await image.click({ position: { x: box.width * 0.3, y: box.height * 0.4 } });
    expect(await form.getByTestId('marker-dot').count()).toBe(0);
    await pick('marker-acupoint', 'LU9', form);
    await image.click({ position: { x: box.width * 0.3, y: box.height * 0.4 } });
    await expect.poll(async () => form.getByTestId('marker-dot').count()).toBe(1);
    // A second marker: dragged elsewhere it moves; a click on it removes it again.
    await image.click({ position: { x: box.width * 0.7, y: box.height * 0.4 } });
    await expect.poll(async () => form.getByTestId('marker-dot').count()).toBe(2);
    const second = form.getByTestId('marker-dot').nth(1);
    const img = (await image.boundingBox())!;
    await page.mouse.move(img.x + img.width * 0.7, img.y + img.height * 0.4);
    await page.mouse.down();
    await page.mouse.move(img.x + img.width * 0.6, img.y + img.height * 0.6, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => Number(await second.getAttribute('data-y'))).toBeCloseTo(0.6, 2);
    expect(Number(await second.getAttribute('data-x'))).toBeCloseTo(0.6, 2);
    expect(await form.getByTestId('marker-dot').count()).toBe(2);
    await second.click();
    await expect.poll(async () => form.getByTestId('marker-dot').count()).toBe(1);
    await quiet();
    await screenshot(page, 'master-schematics-form');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'hidden' });

    await page.getByTestId('filter-keyword').fill('E2E diagram');
    await page.getByTestId('filter-search').click();
    await expect.poll(async () => rows('schematic-list').count()).toBe(1);
    expect(await rows('schematic-list').first().textContent()).toContain('E2E diagram');

    // Reopen at two viewport widths: the picture shows, the marker sits at the same fraction of it.
    const widths: number[] = [];
    for (const viewport of [
      { width: 1366, height: 850 },
      { width: 900, height: 800 },
    ]) {
      await page.setViewportSize(viewport);
      await rows('schematic-list').first().getByTestId('row-action-edit').click();
      const again = dialog('schematic-form-form');
      await again.getByTestId('marker-canvas-image').waitFor();
      await settled(again);
      await expect.poll(async () => (await markerFractionSafe()).loaded).toBe(true);
      const f = await markerFraction('marker-canvas');
      expect(f.x).toBeCloseTo(0.3, 2);
      expect(f.y).toBeCloseTo(0.4, 2);
      widths.push(f.width);
      const stored = Number(await again.getByTestId('marker-dot').first().getAttribute('data-x'));
      expect(stored).toBeCloseTo(0.3, 2);
      if (viewport.width === 1366) {
        await again.getByTestId('marker-editor').scrollIntoViewIfNeeded();
        await quiet();
        await screenshot(page, 'master-schematic-marker');
      }
      await again.getByRole('button', { name: 'Cancel' }).click();
      await again.waitFor({ state: 'hidden' });
    }
    expect(Math.abs(widths[0]! - widths[1]!)).toBeGreaterThan(20);

    // The read-only preview shows it too.
    await page.setViewportSize({ width: 1366, height: 850 });
    await rows('schematic-list').first().getByTestId('row-action-preview').click();
    await page.getByTestId('preview-canvas-image').waitFor();
    await expect.poll(async () => page.evaluate(() => (document.querySelector('[data-testid="preview-canvas-image"]') as HTMLImageElement).naturalWidth)).toBe(480);
    const p = await markerFraction('preview-canvas');
    expect(p.x).toBeCloseTo(0.3, 2);
    expect(p.y).toBeCloseTo(0.4, 2);
  });
});

/** markerFraction without a marker yet: just whether the picture has loaded. */
async function markerFractionSafe() {
  return page.evaluate(() => {
    const img = document.querySelector('[data-testid="marker-canvas-image"]') as HTMLImageElement | null;
    return { loaded: !!img && img.complete && img.naturalWidth > 0 };
  });
}

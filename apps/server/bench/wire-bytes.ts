/**
 * Bytes on the wire for a page's JavaScript: every .js file Chromium loads, summed plain, as the build's
 * .gz and .br copies, and as Chromium received it (compressed, as transferred; it asks for br).
 * `watchJs(page)` before the navigation, `summary()` after; used by web.ts (part 6 of `npm run bench`).
 * Alone, for /login: start the server (`npm start`), then
 * `npx tsx apps/server/bench/wire-bytes.ts [http://localhost:8080]`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page, type Response } from 'playwright-core';
import { kb } from './lib/stats';

const webDist = path.resolve(import.meta.dirname, '../../web/dist');

export interface JsBytes {
  files: number;
  /** As Chromium received them (body bytes, compressed). */
  wire: number;
  plain: number;
  gzip: number;
  brotli: number;
  encodings: string[];
}

export function watchJs(page: Page): { summary(): Promise<JsBytes> } {
  const responses: Response[] = [];
  page.on('response', (res) => {
    if (new URL(res.url()).pathname.endsWith('.js')) responses.push(res);
  });
  return {
    async summary() {
      let wire = 0;
      const encodings = new Set<string>();
      for (const res of responses) {
        wire += (await res.request().sizes()).responseBodySize;
        encodings.add((await res.allHeaders())['content-encoding'] ?? 'identity');
      }
      const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
      const sum = (ext: string) => responses.reduce((n, r) => n + (size(path.join(webDist, `${new URL(r.url()).pathname}${ext}`)) || size(path.join(webDist, new URL(r.url()).pathname))), 0);
      return { files: responses.length, wire, plain: sum(''), gzip: sum('.gz'), brotli: sum('.br'), encodings: [...encodings] };
    },
  };
}

/** Debian's Chromium with the end-to-end tests' flags (e2e/harness.ts launchBrowser). */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const url = process.argv[2] ?? 'http://localhost:8080';
  const browser = await launchChromium();
  const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
  const js = watchJs(page);
  await page.goto(`${url}/login`, { waitUntil: 'networkidle' });
  const s = await js.summary();
  await browser.close();
  console.log(`login page JS, ${s.files} files: plain ${kb(s.plain)}, gzip ${kb(s.gzip)}, brotli ${kb(s.brotli)}; received by Chromium ${kb(s.wire)} (${s.encodings.join(', ')})`);
}

/**
 * Bytes on the wire for the login page's JavaScript: every .js file Chromium loads for /login, summed
 * plain, as the build's .gz and .br copies, and as Chromium received it (it asks for br).
 * Start the server first (`npm start`), then `npx tsx apps/server/bench/wire-bytes.ts [http://localhost:8080]`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Response } from 'playwright-core';

const url = process.argv[2] ?? 'http://localhost:8080';
const webDist = path.resolve(import.meta.dirname, '../../web/dist');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
const responses: Response[] = [];
page.on('response', (res) => {
  if (new URL(res.url()).pathname.endsWith('.js')) responses.push(res);
});
await page.goto(`${url}/login`, { waitUntil: 'networkidle' });
let wire = 0;
const encodings = new Set<string>();
for (const res of responses) {
  wire += (await res.request().sizes()).responseBodySize;
  encodings.add((await res.allHeaders())['content-encoding'] ?? 'identity');
}
await browser.close();
const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
const sum = (ext: string) => responses.reduce((n, r) => n + (size(path.join(webDist, `${new URL(r.url()).pathname}${ext}`)) || size(path.join(webDist, new URL(r.url()).pathname))), 0);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`login page JS, ${responses.length} files: plain ${kb(sum(''))}, gzip ${kb(sum('.gz'))}, brotli ${kb(sum('.br'))}; received by Chromium ${kb(wire)} (${[...encodings].join(', ')})`);

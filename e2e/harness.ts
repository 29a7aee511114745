import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject, onTestFailed } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
export const ARTIFACTS = path.join(root, 'test-artifacts');
export const DEMO_PASSWORD = 'demo1234';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The data folder global-setup.ts seeded once, copied for each file's server (unset when another setup runs the file). */
    e2eDataTemplate: string;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Route names some apps/web/src/features/<name>/pages.ts registers (a page is built when it does). */
export function builtPages(): Set<string> {
  const features = path.resolve(import.meta.dirname, '../apps/web/src/features');
  const names = new Set<string>();
  for (const f of fs.readdirSync(features)) {
    const file = path.join(features, f, 'pages.ts');
    if (!fs.existsSync(file)) continue;
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/^\s*(\w+)\s*:\s*(?:lazy|page)\(/gm)) names.add(m[1]!);
  }
  return names;
}
export interface RunningServer {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * The built server (e2e/global-setup.ts builds it), as `npm start` runs it, on a free port with the given
 * data folder; resolves once it answers.
 */
export async function bootServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  // WEB_DIST lets parallel work build into a folder of its own (npm run build -w @app/web -- --outDir X).
  const webDist = process.env.WEB_DIST ?? path.join(root, 'apps/web/dist');
  if (!fs.existsSync(path.join(webDist, 'index.html'))) throw new Error(`build the web app first: npm run build -w @app/web (no ${webDist}/index.html)`);
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/main.js'], {
    cwd: root,
    env: { ...process.env, WEB_DIST: webDist, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', SEED_DEMO: '1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/adminapi/login/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      if (res.status < 500) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error('server did not start in 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child };
}

/** Stops a server started by bootServer (SIGTERM: it drains and stops its database) and waits for it. */
export async function stopChild(child: ChildProcess) {
  child.kill('SIGTERM');
  await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
}

/** A new data folder: mkdtemp makes it 0700, and started by root, the embedded PostgreSQL's user must pass through it. */
export function newDataDir(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  return dir;
}

/**
 * The real server (built web app, embedded database seeded with demo data) on a free port and a data
 * folder of its own. The folder is a copy of the one global-setup.ts seeded once for the run (owners and
 * modes kept: the cluster's files belong to the unprivileged PostgreSQL user), so each file starts from
 * the same demo data without its own initdb and seeding (about 6 s a file on a 2-core box). Without that
 * copy (a file run by another harness) the server seeds an empty folder itself.
 */
export async function startServer(): Promise<RunningServer> {
  const dataDir = newDataDir('e2e-data-');
  const template = inject('e2eDataTemplate');
  if (template) execFileSync('cp', ['-a', `${template}/.`, dataDir]);
  const { url, child } = await bootServer(dataDir);
  return {
    url,
    dataDir,
    stop: async () => {
      await stopChild(child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/**
 * Content-Security-Policy violations reported by any page opened through `newPage`, since the last
 * `takeCspViolations()`: every suite checks after each test that there were none (e2eSuite).
 */
const cspViolations: string[] = [];
export const takeCspViolations = () => cspViolations.splice(0);
const CSP_MARK = '[csp-violation]';

/**
 * A browser context and its page. The context prefers reduced motion unless `motion` is set: the app then
 * runs without animations (lib/theme.ts), so a click never lands on a button that a closing message or an
 * opening dialog is still moving (a mouse-down on the button and a mouse-up beside it click nothing). The
 * keyboard tests run with motion, as most readers see the app.
 */
export async function newPage(browser: Browser, opts: { locale?: string; width?: number; height?: number; motion?: boolean; touch?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    locale: opts.locale ?? 'en-US',
    viewport: { width: opts.width ?? 1366, height: opts.height ?? 850 },
    reducedMotion: opts.motion ? 'no-preference' : 'reduce',
    // A phone: touch events and the mobile viewport (the page's <meta name="viewport"> counts).
    ...(opts.touch ? { hasTouch: true, isMobile: true } : {}),
  });
  // Reported by the page itself, before any of its own scripts run (init scripts are not subject to the CSP).
  await context.addInitScript((mark: string) => {
    document.addEventListener(
      'securitypolicyviolation',
      (e) => console.error(`${mark} ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile || e.documentURI}:${e.lineNumber} ${e.sample}`),
      true,
    );
  }, CSP_MARK);
  context.on('console', (msg) => {
    if (msg.text().startsWith(CSP_MARK)) cspViolations.push(`${msg.page()?.url() ?? ''}: ${msg.text().slice(CSP_MARK.length + 1)}`);
  });
  await recordDiary(context);
  const page = await context.newPage();
  return { context, page };
}

/**
 * The context's recent API calls (sent, answered with status, time and the envelope's code, or failed),
 * page errors and console errors: what a failing test prints, to tell a refused call from one that never
 * came back or a page that threw.
 */
const diaries = new WeakMap<BrowserContext, string[]>();
const DIARY_LINES = 80;
async function recordDiary(context: BrowserContext) {
  const lines: string[] = [];
  diaries.set(context, lines);
  const start = Date.now();
  const note = (text: string) => {
    lines.push(`${String(Date.now() - start).padStart(7)} ms ${text}`);
    if (lines.length > DIARY_LINES) lines.shift();
  };
  const isApi = (url: string) => url.includes('/adminapi/');
  const short = (url: string) => {
    const u = new URL(url);
    return u.pathname + (u.search.length > 1 ? '?…' : '');
  };
  const sentAt = new WeakMap<object, number>();
  context.on('request', (r) => {
    if (!isApi(r.url())) return;
    sentAt.set(r, Date.now());
    note(`-> ${r.method()} ${short(r.url())}`);
  });
  context.on('requestfinished', async (r) => {
    if (!isApi(r.url())) return;
    const res = await r.response().catch(() => null);
    const text = await res?.text().catch(() => '');
    const code = /"code":\s*(\d+)/.exec(text ?? '')?.[1] ?? '?';
    note(`<- ${r.method()} ${short(r.url())} http ${res?.status() ?? '?'} code ${code} in ${Date.now() - (sentAt.get(r) ?? start)} ms${code !== '200' ? ` ${(text ?? '').slice(0, 200)}` : ''}`);
  });
  context.on('requestfailed', (r) => {
    if (isApi(r.url())) note(`xx ${r.method()} ${short(r.url())} failed: ${r.failure()?.errorText} after ${Date.now() - (sentAt.get(r) ?? start)} ms`);
  });
  context.on('weberror', (e) => note(`page error: ${e.error().message}`));
  // The browser's own view of the network (react-query holds queries and mutations while it says offline).
  await context.addInitScript(() => {
    for (const kind of ['online', 'offline']) window.addEventListener(kind, () => console.warn(`[network] the browser went ${kind}`));
    if (!navigator.onLine) console.warn('[network] the page started offline');
  });
  context.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') note(`console ${msg.type()}: ${msg.text().slice(0, 300)}`);
  });
}

/** What the context's diary holds, oldest first (empty for a context not opened through newPage). */
export const diaryOf = (context: BrowserContext | undefined) => (context ? (diaries.get(context) ?? []) : []);

export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: false });
}

/** Calls the API directly, as an attacker with a valid key would (no UI in between). */
export async function api(url: string, method: 'GET' | 'POST', apiPath: string, payload: Record<string, unknown> = {}) {
  const target = new URL(`${url}/adminapi${apiPath}`);
  let body: string | undefined;
  if (method === 'GET') for (const [k, v] of Object.entries(payload)) target.searchParams.set(k, String(v));
  else body = JSON.stringify(payload);
  const res = await fetch(target, { method, headers: body ? { 'content-type': 'application/json' } : {}, body });
  return (await res.json()) as { code: number; datas: any };
}

/** expect.poll with a timeout fit for a browser on a loaded two-core machine. */
export const poll = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 100 });

export type LoginKind = 'platform' | 'institution';

/** Fills and submits the login page (already open) on the given tab. */
export async function submitLogin(page: Page, username: string, kind: LoginKind = 'platform', password = DEMO_PASSWORD) {
  await page.getByTestId(`login-tab-${kind}`).click();
  // A Playwright wait, not expect.poll: this also runs in beforeAll hooks, where vitest refuses expect.poll.
  await page.locator(`[data-testid="login-tab-${kind}"][aria-selected="true"]`).waitFor();
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/**
 * Signs in through the login page and waits for the shell (sidebar, or the hamburger on mobile). With `to`
 * (a path with its query), the login page is opened with ?redirect= and the app goes there after signing in,
 * as a visitor sent to the login page would: the app loads once, not a second time for a goto after it.
 * `to` must be a page the account may open: a refused one leaves the shell for /401 (no sidebar to wait for);
 * a test of a refusal submits the login page itself and waits for /401 (audit.test.ts).
 */
export async function signIn(page: Page, baseUrl: string, username = 'admin', kind: LoginKind = 'platform', opts: { password?: string; to?: string } = {}) {
  await page.goto(`${baseUrl}/login${opts.to ? `?redirect=${encodeURIComponent(opts.to)}` : ''}`);
  await submitLogin(page, username, kind, opts.password ?? DEMO_PASSWORD);
  const to = opts.to ? new URL(opts.to, baseUrl) : undefined;
  await page.waitForURL((u) => (to ? u.pathname === to.pathname : !u.pathname.startsWith('/login')), { timeout: 20_000 });
  await page.getByTestId('sidebar-menu').or(page.getByTestId('hamburger')).first().waitFor({ timeout: 20_000 });
}

/** The session key the browser holds (the Admin-Token cookie), if any. */
export async function sessionKey(context: BrowserContext): Promise<string | undefined> {
  const cookie = (await context.cookies()).find((c) => c.name === 'Admin-Token');
  return cookie ? decodeURIComponent(cookie.value) : undefined;
}

/** Appearance "system" for every page of the context: light or dark then follows the emulated prefers-color-scheme. */
export const followSystemAppearance = (context: BrowserContext) =>
  context.addInitScript(() => localStorage.setItem('bioadmin:settings', JSON.stringify({ ...JSON.parse(localStorage.getItem('bioadmin:settings') ?? '{}'), appearance: 'system' })));

/** The visible element with this test id (kept-alive pages hide the others). */
export const visible = (page: Page, testId: string) => page.locator(`[data-testid="${testId}"]:visible`);

/**
 * Clicks an item of the dropdown just opened, once the dropdown has finished appearing: a click during
 * its entry animation can scroll the page and lose the popup under the sticky header.
 */
export async function pickDropdownItem(page: Page, testId: string) {
  const item = visible(page, testId);
  await item.waitFor();
  const dropdown = page.locator('.ant-dropdown:visible').filter({ has: item });
  await poll(() => dropdown.evaluate((e) => /-(enter|appear|leave)\b/.test(e.className))).toBe(false);
  await item.click();
}

/**
 * Lets spinners, toasts and animations finish before a screenshot. Shown spinners only: a kept-alive page
 * hidden behind the current one is not in the picture.
 */
export async function settle(page: Page) {
  await poll(() => page.locator('.ant-spin-spinning:visible, .ant-skeleton-active:visible').count()).toBe(0);
  await poll(() => page.locator('.ant-message-notice').count()).toBe(0);
  await animationsDone(page);
}

/**
 * Resolves when no finite CSS animation or transition is running on the page (a drawer or modal moving in,
 * a fade, a colour transition): a wait on the condition, not on a guess of its length. Endless ones
 * (spinners, a status dot's pulse) never finish and are left out.
 */
export async function animationsDone(page: Page) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY));
}

export interface E2eSuite {
  /** The suite's own server (demo seed, fresh data folder): set once its beforeAll has run. */
  readonly server: RunningServer;
  readonly browser: Browser;
  /** The page a failing test's screenshot shows; `open` sets it. */
  page: Page | undefined;
  /** A new browser context and page, remembered for the failure screenshot. */
  open(opts?: Parameters<typeof newPage>[1]): Promise<{ context: BrowserContext; page: Page }>;
}

/**
 * Registers a suite's lifecycle: the real server and Chromium start before its tests and stop after
 * them, and a failing test leaves test-artifacts/<name>-failed-<test>.png of the page in use.
 * Call it at the top of a test file, before the file's own hooks (those run after these).
 */
export function e2eSuite(name: string): E2eSuite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const suite: E2eSuite = {
    get server() {
      if (!server) throw new Error('the e2e server is not started yet');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the browser is not launched yet');
      return browser;
    },
    page: undefined,
    async open(opts) {
      const made = await newPage(suite.browser, opts);
      suite.page = made.page;
      return made;
    },
  };
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach((ctx) => {
    takeCspViolations();
    onTestFailed(async () => {
      const file = `${name}-failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`;
      await suite.page?.screenshot({ path: path.join(ARTIFACTS, file) }).catch(() => undefined);
      const diary = diaryOf(suite.page?.context());
      if (diary.length) {
        fs.mkdirSync(ARTIFACTS, { recursive: true });
        fs.writeFileSync(path.join(ARTIFACTS, file.replace(/\.png$/, '.log')), `${diary.join('\n')}\n`);
        console.log(`the page's last calls and errors (${ctx.task.name}):\n${diary.slice(-30).join('\n')}`);
      }
    });
  });
  // The server's Content-Security-Policy must not get in the way of anything a test does.
  afterEach(() => {
    expect(takeCspViolations(), 'Content-Security-Policy violations').toEqual([]);
  });
  return suite;
}

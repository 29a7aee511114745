#!/usr/bin/env node
/**
 * A production install, as README "Deployment" describes it, checked end to end (run by .ci/run after the
 * tests; about a minute, most of it npm ci): what a build machine ships (the package files, the lockfile,
 * apps/server/dist and apps/web/dist) copied to a temporary folder, `npm ci --omit=dev
 * --workspace=@app/server` there, then `node apps/server/dist/main.js` on an empty DATA_DIR (the embedded
 * database, demo data) answering /readyz, the web app at /, one of its assets, the API reference page and a
 * demo sign-in. Builds the server (and the web app when apps/web/dist is missing) first.
 *
 *   node .ci/production-check.mjs            (npm run check:production)
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '..');
const started = Date.now();
const step = (what) => console.log(`== production check: ${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });

step('building the server');
run(process.execPath, ['apps/server/build.mjs'], repo);
if (!fs.existsSync(path.join(repo, 'apps/web/dist/index.html'))) {
  step('building the web app');
  run('npm', ['run', 'build', '-w', '@app/web'], repo);
}

// What is shipped: the root's package files, every workspace's package.json (npm ci checks the lockfile
// against all of them), and the two builds.
const root = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
const workspaces = root.workspaces
  .flatMap((w) => (w.endsWith('/*') ? fs.readdirSync(path.join(repo, w.slice(0, -2))).map((d) => path.join(w.slice(0, -2), d)) : [w]))
  .filter((w) => fs.existsSync(path.join(repo, w, 'package.json')));
const shipped = ['package.json', 'package-lock.json', ...workspaces.map((w) => path.join(w, 'package.json'))];

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'production-check-'));
// Started as root, the embedded database runs as `postgres`, which must pass through the folder.
fs.chmodSync(tmp, 0o755);
const app = path.join(tmp, 'app');
const dataDir = path.join(tmp, 'data');
let child;
try {
  step(`copying ${shipped.length} package files, apps/server/dist and apps/web/dist to ${app}`);
  for (const f of shipped) {
    fs.mkdirSync(path.dirname(path.join(app, f)), { recursive: true });
    fs.copyFileSync(path.join(repo, f), path.join(app, f));
  }
  for (const d of ['apps/server/dist', 'apps/web/dist']) fs.cpSync(path.join(repo, d), path.join(app, d), { recursive: true });

  step('npm ci --omit=dev --workspace=@app/server');
  run('npm', ['ci', '--omit=dev', '--workspace=@app/server', '--prefer-offline', '--no-audit', '--no-fund'], app);
  for (const dev of ['vitest', 'esbuild', 'typescript', 'drizzle-kit', 'vite']) {
    if (fs.existsSync(path.join(app, 'node_modules', dev))) throw new Error(`${dev} was installed: the install is not a production one`);
  }

  const port = await new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
  step(`node apps/server/dist/main.js on port ${port}`);
  let stderr = '';
  child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: app,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  child.stderr.on('data', (d) => {
    stderr += String(d);
    process.stderr.write(d);
  });
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${stderr}`);
    const ready = await fetch(`${base}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error('the server was not ready within 120 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  step('ready');

  const page = await fetch(`${base}/`);
  const html = await page.text();
  if (page.status !== 200 || !html.includes('<div id="root">')) throw new Error(`GET / answered ${page.status}, not the web app: ${html.slice(0, 200)}`);
  const asset = html.match(/\/assets\/[^"']+\.js/)?.[0];
  if (!asset) throw new Error('the web app page names no script');
  const script = await fetch(`${base}${asset}`);
  if (script.status !== 200) throw new Error(`GET ${asset} answered ${script.status}`);
  const docs = await fetch(`${base}/adminapi/docs`);
  if (docs.status !== 200) throw new Error(`GET /adminapi/docs answered ${docs.status}`);
  const login = await fetch(`${base}/adminapi/login/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'demo1234' }),
  }).then((r) => r.json());
  if (login.code !== 200) throw new Error(`the demo sign-in answered ${JSON.stringify(login)}`);
  step(`GET / (the web app), ${asset}, /adminapi/docs and a demo sign-in answered`);

  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) throw new Error(`the server exited with ${code} after SIGTERM`);
  step('passed');
} catch (err) {
  console.error(`production check failed: ${err.message}`);
  process.exitCode = 1;
} finally {
  if (child && child.exitCode === null && child.signalCode === null) {
    // SIGTERM first, so that the server stops its embedded database; SIGKILL if it does not exit in 20 s.
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await gone;
    clearTimeout(timer);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}

/**
 * Cold start to first answer: the built server (`node dist/main.js`, what `npm start` runs) next to the
 * sources through tsx, on an empty data folder (migrations, menus, demo data) and on an existing one.
 * Time from spawning the process to the first 200 of `GET /adminapi/params/public` (a database read).
 * `npm run build -w @app/server` first; `npx tsx apps/server/bench/cold-start.ts [runs]`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const serverDir = path.resolve(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 3);

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

async function coldStart(args: string[], dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, { cwd: serverDir, env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, stdio: 'ignore' });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/adminapi/params/public`);
        if (res.ok) return performance.now() - started;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

const modes = { built: ['--enable-source-maps', 'dist/main.js'], tsx: ['--import', 'tsx', 'src/main.ts'] };
if (!fs.existsSync(path.join(serverDir, 'dist/main.js'))) throw new Error('build the server first: npm run build -w @app/server');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, args] of Object.entries(modes)) {
  const empty: number[] = [];
  const existing: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cold-start-'));
    try {
      empty.push(await coldStart(args, dir));
      existing.push(await coldStart(args, dir));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const fmt = (xs: number[]) => `median ${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`;
  console.log(`${name.padEnd(5)} empty folder: ${fmt(empty)}; existing data: ${fmt(existing)}`);
}

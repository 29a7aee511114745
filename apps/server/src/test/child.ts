import { type ChildProcess, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/*
 * Helpers of the tests that run the real server as a child process (main.test.ts, processes.test.ts).
 */

/** A TCP port free on the loopback right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Polls until the condition holds (no fixed sleeps). */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000, intervalMs = 50) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * The built server (build.mjs, esbuild: well under a second) in a folder of the caller's own beside
 * dist/ (inside the repository, so that its imports find node_modules), for tests that start it as
 * production does: `node <dir>/main.js`. `remove()` deletes the folder.
 */
export function buildServer(): { dir: string; main: string; remove: () => void } {
  const server = path.resolve(import.meta.dirname, '../..');
  const dir = path.join(server, `.test-build-${randomBytes(4).toString('hex')}`);
  execFileSync(process.execPath, ['build.mjs', '--outdir', dir], { cwd: server, stdio: ['ignore', 'ignore', 'inherit'] });
  return { dir, main: path.join(dir, 'main.js'), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** What a child process printed, and its end: `done` resolves at its exit with both outputs whole. */
export function outputOf(child: ChildProcess): { done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> } {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += String(d);
  });
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  return { done: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr }))) };
}

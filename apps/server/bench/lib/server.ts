/**
 * Servers under test run as child processes (the load generator, this process, stays apart from their
 * event loop): the built server (`node dist/main.js`, what `npm start` runs) on DATA_DIR (the embedded
 * default) or DATABASE_URL, and the bare Fastify hello-world of ../hello-server.mjs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../../src/test/child';

export const serverDir = path.resolve(import.meta.dirname, '../..');
export const builtServer = ['--enable-source-maps', 'dist/main.js'];

export interface Running {
  url: string;
  pid: number;
  /** Spawn to the first good answer of the ready path. */
  startMs: number;
  metricsUrl?: string;
  /** The process's resident memory (VmRSS), bytes: Node only (an embedded PostgreSQL runs in processes of its own). */
  rss(): number;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Node arguments (default: the built server). */
  args?: string[];
  env?: Record<string, string | undefined>;
  /** Polled until it answers 200 (default: a public API read that goes to the database). */
  readyPath?: string;
  metrics?: boolean;
  /** The working folder (default: this server's, apps/server); another checkout's server runs from its own. */
  cwd?: string;
}

export function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : Number.NaN;
}

export async function startServer(opts: StartOptions = {}): Promise<Running> {
  const port = await freePort();
  const metricsPort = opts.metrics ? await freePort() : undefined;
  const started = performance.now();
  const cwd = opts.cwd ?? serverDir;
  const child: ChildProcess = spawn(process.execPath, opts.args ?? builtServer, {
    cwd,
    env: {
      ...process.env,
      INIT_CWD: cwd,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // The bench measures the server with the session cache on both engines (on by default only for the
      // embedded database, docs/decisions.md).
      SESSION_CACHE: 'on',
      ...(metricsPort ? { METRICS_PORT: String(metricsPort) } : {}),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = `http://127.0.0.1:${port}`;
  const ready = `${url}${opts.readyPath ?? '/adminapi/params/public'}`;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited while starting (${child.exitCode ?? child.signalCode}):\n${tail}`);
    try {
      const res = await fetch(ready);
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (performance.now() - started > 120_000) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer within 120 s:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const startMs = performance.now() - started;
  const pid = child.pid!;
  return {
    url,
    pid,
    startMs,
    metricsUrl: metricsPort ? `http://127.0.0.1:${metricsPort}/metrics` : undefined,
    rss: () => rssOf(pid),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Gauges of the server's Prometheus text, from one read (which also resets its event-loop histogram). */
export async function scrape<N extends string>(metricsUrl: string, names: readonly N[]): Promise<Record<N, number>> {
  const text = await (await fetch(metricsUrl)).text();
  const out = {} as Record<N, number>;
  for (const name of names) {
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
    out[name] = m ? Number(m[1]) : Number.NaN;
  }
  return out;
}

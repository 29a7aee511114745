import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { launchEmbedded, startEmbedded } from './embedded';

/** The embedded default (db/embedded.ts) on a cluster of its own, not the run's. */
describe('the embedded PostgreSQL', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-test-'));
  fs.chmodSync(dir, 0o755);
  const cluster = path.join(dir, 'postgres');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Running: a process that exists and is not a zombie waiting to be reaped (PID 1 of a container may not). */
  const running = (pid: number) => {
    try {
      return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  };

  const query = async (url: string, text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  };

  it('initialises a cluster, keeps its data across a restart, and listens on no TCP port', async () => {
    const first = await startEmbedded({ dir: cluster, durable: false });
    try {
      await query(first.url, 'create table kept (v text); insert into kept values ($$中文 ok$$)');
      const [settings] = await query(first.url, "select current_setting('listen_addresses') as listen, current_setting('server_version_num')::int as version");
      expect(settings).toEqual({ listen: '', version: expect.any(Number) });
      expect(settings!.version).toBeGreaterThanOrEqual(170000);
    } finally {
      await first.stop();
    }
    expect(fs.existsSync(path.join(cluster, 'postmaster.pid'))).toBe(false);
    const again = await startEmbedded({ dir: cluster, durable: false });
    try {
      expect(await query(again.url, 'select v from kept')).toEqual([{ v: '中文 ok' }]);
    } finally {
      await again.stop();
    }
  });

  it('stops the PostgreSQL of a run that was killed before starting its own', async () => {
    // A process that starts the cluster and is then killed with SIGKILL: its postmaster lives on.
    const script = `import { startEmbedded } from ${JSON.stringify(path.join(import.meta.dirname, 'embedded.ts'))};
      await startEmbedded({ dir: ${JSON.stringify(cluster)}, durable: false });
      process.stdout.write('up\\n'); setInterval(() => {}, 1000);`;
    const file = path.join(dir, 'hold.mts');
    fs.writeFileSync(file, script);
    const child = spawn(process.execPath, ['--import', 'tsx', file], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => d.toString().includes('up') && resolve());
      child.on('exit', (code) => reject(new Error(`holder exited with ${code}`)));
    });
    child.kill('SIGKILL');
    const leftover = Number(fs.readFileSync(path.join(cluster, 'postmaster.pid'), 'utf8').split('\n')[0]);
    expect(running(leftover)).toBe(true);

    const lines: string[] = [];
    const next = await startEmbedded({ dir: cluster, durable: false, log: (l) => lines.push(l) });
    try {
      expect(lines.join('\n')).toContain(`(pid ${leftover}) still holds`);
      expect(running(leftover)).toBe(false);
      expect(await query(next.url, 'select 1 as one')).toEqual([{ one: 1 }]);
    } finally {
      await next.stop();
    }
  });

  it('a start PostgreSQL refuses: the launch still answers, and `ready` rejects with what PostgreSQL said', async () => {
    // main.ts loads the server between the two steps, so a failure must wait in `ready`, not throw from the launch.
    const conf = path.join(cluster, 'postgresql.auto.conf');
    const kept = fs.readFileSync(conf, 'utf8');
    fs.appendFileSync(conf, "shared_buffers = 'plenty'\n");
    try {
      const launched = await launchEmbedded({ dir: cluster, durable: false });
      await expect(launched.ready).rejects.toThrow(/exited while starting[\s\S]*shared_buffers/);
    } finally {
      fs.writeFileSync(conf, kept);
    }
    const { ready } = await launchEmbedded({ dir: cluster, durable: false });
    const started = await ready;
    try {
      expect(await query(started.url, 'select v from kept')).toEqual([{ v: '中文 ok' }]);
    } finally {
      await started.stop();
    }
  });
});

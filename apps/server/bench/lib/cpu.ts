/**
 * CPU time per request, by process, over a load run: where a 2-core box's time goes when the server, its
 * database and the load generator share it. Read from /proc (Linux): each process's user + system time,
 * and the machine's busy time (all cores, interrupts included). Processes named `postgres` are the
 * database (the embedded cluster's and a local server's backends alike: the ones the run does not use sit
 * idle and add nothing).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Microseconds of CPU per request, and the requests per second the whole machine could serve at that cost. */
export interface CpuPerRequest {
  server: number;
  database: number;
  generator: number;
  /** Every core's busy time (kernel work of the loopback included), divided by the requests. */
  machine: number;
  /** cores x 1 s / machine: the rate at which the box would be busy all the time. */
  ceiling: number;
}

interface Snapshot {
  server: number;
  /** By pid: a backend that ends during the run leaves the sum, one that starts joins it. */
  database: Map<string, number>;
  generator: number;
  machine: number;
}

const TICK_US = (() => {
  try {
    return 1e6 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  } catch {
    return 1e6 / 100;
  }
})();

/** utime + stime of a process (µs), and its command name; undefined once it has gone. */
function processCpu(pid: number | string): { comm: string; us: number } | undefined {
  try {
    const raw = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const comm = raw.slice(raw.indexOf('(') + 1, raw.lastIndexOf(')'));
    const fields = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
    return { comm, us: (Number(fields[11]) + Number(fields[12])) * TICK_US };
  } catch {
    return undefined;
  }
}

export function cpuSnapshot(serverPid: number): Snapshot {
  const database = new Map<string, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const p = processCpu(entry);
    if (p?.comm === 'postgres') database.set(entry, p.us);
  }
  // /proc/stat: user nice system idle iowait irq softirq steal ...; busy = all but idle and iowait.
  const times = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const busy = times.reduce((a, b) => a + b, 0) - (times[3] ?? 0) - (times[4] ?? 0);
  return { server: processCpu(serverPid)?.us ?? 0, database, generator: processCpu(process.pid)?.us ?? 0, machine: busy * TICK_US };
}

export function cpuPerRequest(before: Snapshot, after: Snapshot, requests: number, cores: number): CpuPerRequest {
  const per = (us: number) => (requests > 0 ? us / requests : Number.NaN);
  let database = 0;
  for (const [pid, us] of after.database) database += us - (before.database.get(pid) ?? 0);
  const machine = per(after.machine - before.machine);
  return {
    server: per(after.server - before.server),
    database: per(database),
    generator: per(after.generator - before.generator),
    machine,
    ceiling: (cores * 1e6) / machine,
  };
}

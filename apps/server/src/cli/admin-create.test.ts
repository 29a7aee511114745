import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../lib/crypto';
import { buildServer, outputOf } from '../test/child';

/*
 * `npm run admin:create`, the real command (the built dist/admin-create.js as a child process) on an empty database of
 * its own on the run's PostgreSQL: the password from ADMIN_PASSWORD, from a pipe, from --password (with a
 * warning), and a refusal. The terminal prompt (no echo) is checked by hand (docs/decisions.md).
 */

const PG = process.env.DATABASE_URL!;
let databaseName = '';
let databaseUrl = '';
let build: ReturnType<typeof buildServer> | undefined;

async function query<T extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  build = buildServer();
  databaseName = `t_${randomBytes(6).toString('hex')}`;
  await query(PG, `create database ${databaseName}`);
  const url = new URL(PG);
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();
});

afterAll(async () => {
  build?.remove();
  if (databaseName) await query(PG, `drop database if exists ${databaseName} with (force)`);
});

/** Runs the command; `stdin` is written to its standard input (a pipe, not a terminal) and closed. */
function adminCreate(args: string[], opts: { env?: Record<string, string>; stdin?: string } = {}) {
  const child = spawn(process.execPath, [path.join(build!.dir, 'admin-create.js'), ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, ADMIN_PASSWORD: '', ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const { done } = outputOf(child);
  child.stdin.end(opts.stdin ?? '');
  return done;
}

async function storedHash(username: string): Promise<string | undefined> {
  const rows = await query<{ password_hash: string }>(databaseUrl, 'select password_hash from admin_users where username = $1', [username]);
  return rows[0]?.password_hash;
}

describe('npm run admin:create', { timeout: 90_000 }, () => {
  it('takes the password from ADMIN_PASSWORD (and migrates the empty database first)', async () => {
    const run = await adminCreate(['--username', 'root-env'], { env: { ADMIN_PASSWORD: 'from-the-env-1' } });
    expect(run, run.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^created super-admin root-env \(id \d+\)\n$/);
    expect(await verifyPassword((await storedHash('root-env'))!, 'from-the-env-1')).toBe(true);
  });

  it('reads the first line of a pipe, warns about --password, and refuses a short or a commonly used password', async () => {
    const [piped, onCommandLine, short, common] = await Promise.all([
      adminCreate(['--username', 'root-pipe'], { stdin: 'from-the-pipe-1\nignored\n' }),
      adminCreate(['--username', 'root-arg', '--password', 'from-the-args-1']),
      adminCreate(['--username', 'root-short'], { stdin: 'abc\n' }),
      adminCreate(['--username', 'root-common'], { stdin: 'Password123\n' }),
    ]);
    expect(piped, piped.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(piped.stdout).not.toContain('from-the-pipe');
    expect(await verifyPassword((await storedHash('root-pipe'))!, 'from-the-pipe-1')).toBe(true);

    expect(onCommandLine.code, onCommandLine.stderr).toBe(0);
    expect(onCommandLine.stderr).toBe('warning: --password lands in the shell history and the process list; prefer the prompt, ADMIN_PASSWORD or standard input\n');
    expect(await verifyPassword((await storedHash('root-arg'))!, 'from-the-args-1')).toBe(true);

    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/^admin:create failed: The password must have at least \d+ characters\n$/);
    expect(await storedHash('root-short')).toBeUndefined();
    expect(common.code).toBe(1);
    expect(common.stderr).toMatch(/^admin:create failed: This password is among the most commonly used ones/);
    expect(await storedHash('root-common')).toBeUndefined();

    // One super role for all of them, made by the first.
    expect(await query(databaseUrl, 'select count(*)::int as n from roles where is_super')).toEqual([{ n: 1 }]);
  });

  it('refuses a name already taken', async () => {
    const again = await adminCreate(['--username', 'ROOT-ENV'], { env: { ADMIN_PASSWORD: 'from-the-env-2' } });
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('admin:create failed: an admin named ROOT-ENV already exists\n');
  });
});

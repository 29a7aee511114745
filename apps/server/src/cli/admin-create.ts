/**
 * Creates a super-admin: `npm run admin:create -- --username U [--name N]`.
 * The password: ADMIN_PASSWORD when set; else, on a terminal, asked twice without echo; else the first line
 * of standard input (`printf '%s\n' "$PW" | npm run admin:create -- --username U`). `--password P` still
 * works but warns: it lands in the shell history and the process list. Migrates first (under the start-up
 * lock, db/client.ts), so it also prepares an empty production database (DATABASE_URL) for the first sign-in.
 */
import { parseArgs } from 'node:util';
import readline from 'node:readline/promises';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { loadConfigOrExit } from '../config';
import { openDatabase } from '../db/client';
import { syncMenus } from '../seed';
import { ensureSuperRole } from '../seed/foundation';
import { adminUsers } from '../db/schema';
import { hashPassword } from '../lib/crypto';
import { AppError } from '../lib/errors';
import { validatePassword } from '../lib/accounts';

const { values } = parseArgs({ options: { username: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } } });
const username = values.username?.trim();
if (!username || !/^[A-Za-z0-9_.@-]{3,64}$/.test(username)) {
  console.error('usage: npm run admin:create -- --username <3-64 letters, digits, _ . @ -> [--name <display name>]   (password: asked, ADMIN_PASSWORD, or standard input)');
  process.exit(2);
}
const config = loadConfigOrExit();

/** A line typed on the terminal without echo: readline writes what it echoes to an output that drops it. */
async function askHidden(question: string): Promise<string> {
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = readline.createInterface({ input: process.stdin, output: muted, terminal: true });
  rl.on('SIGINT', () => {
    process.stdout.write('\n');
    process.exit(130);
  });
  process.stdout.write(question);
  try {
    return await rl.question('');
  } finally {
    rl.close();
    process.stdout.write('\n');
  }
}

/** The first line of standard input (a pipe or a file). */
async function firstLineOfStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

async function password(): Promise<string> {
  if (values.password !== undefined) {
    process.stderr.write('warning: --password lands in the shell history and the process list; prefer the prompt, ADMIN_PASSWORD or standard input\n');
    return values.password;
  }
  if (process.env.ADMIN_PASSWORD) return process.env.ADMIN_PASSWORD;
  if (!process.stdin.isTTY) return firstLineOfStdin();
  const first = await askHidden('Password: ');
  const again = await askHidden('Password again: ');
  if (first !== again) {
    console.error('admin:create failed: the two passwords differ');
    process.exit(1);
  }
  return first;
}

const secret = (await password()).trim();
// biome-ignore lint/plugin/no-property-after-spread: once per run of the command
const database = await openDatabase({ ...config, sessionCache: false });
try {
  // Under the start-up lock with the migrations: a server starting on the same empty database at the same
  // moment neither migrates twice nor makes a second super role.
  const id = await database.migrate(async (db) => {
    await syncMenus(db);
    // The one rule for a chosen password: the system minimum, not a commonly used one (modules/auth).
    await validatePassword(db, secret).catch((err: unknown) => {
      throw err instanceof AppError ? new Error(err.text('en')) : err;
    });
    const [exists] = await db.select({ id: adminUsers.id }).from(adminUsers).where(sql`lower(${adminUsers.username}) = ${username.toLowerCase()}`);
    if (exists) throw new Error(`an admin named ${username} already exists`);
    const role = await ensureSuperRole(db);
    const [row] = await db
      .insert(adminUsers)
      .values({ username, name: values.name ?? username, passwordHash: await hashPassword(secret), roleId: role.id })
      .returning({ id: adminUsers.id });
    return row!.id;
  });
  console.log(`created super-admin ${username} (id ${id})`);
} catch (err) {
  console.error(`admin:create failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}

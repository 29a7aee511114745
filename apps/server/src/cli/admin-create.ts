/**
 * Creates a super-admin: `npm run admin:create -- --username U [--password P]`.
 * Without --password it reads ADMIN_PASSWORD, or asks on the terminal. Migrates first, so it also
 * prepares an empty production database (DATABASE_URL) for the first sign-in.
 */
import { parseArgs } from 'node:util';
import readline from 'node:readline/promises';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { syncMenus } from '../seed';
import { ensureSuperRole } from '../seed/foundation';
import { adminUsers } from '../db/schema';
import { hashPassword } from '../lib/crypto';
import { readParam } from '../lib/params';

const { values } = parseArgs({ options: { username: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } } });
const username = values.username?.trim();
if (!username || !/^[A-Za-z0-9_.@-]{3,64}$/.test(username)) {
  console.error('usage: npm run admin:create -- --username <3-64 letters, digits, _ . @ -> [--password <password>] [--name <display name>]');
  process.exit(2);
}
let password = values.password ?? process.env.ADMIN_PASSWORD;
if (!password) {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  password = await rl.question('Password: ');
  rl.close();
}

const config = loadConfig();
// biome-ignore lint/plugin/no-property-after-spread: once per run of the command
const database = await openDatabase({ ...config, sessionCache: false });
try {
  await database.migrate();
  await syncMenus(database.db);
  const min = await readParam(database.db, 'password_min_length');
  if (password.trim().length < min) throw new Error(`the password needs at least ${min} characters`);
  const [exists] = await database.db.select({ id: adminUsers.id }).from(adminUsers).where(sql`lower(${adminUsers.username}) = ${username.toLowerCase()}`);
  if (exists) throw new Error(`an admin named ${username} already exists`);
  const role = await ensureSuperRole(database.db);
  const [row] = await database.db
    .insert(adminUsers)
    .values({ username, name: values.name ?? username, passwordHash: await hashPassword(password.trim()), roleId: role.id })
    .returning({ id: adminUsers.id });
  console.log(`created super-admin ${username} (id ${row!.id})`);
} catch (err) {
  console.error(`admin:create failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}

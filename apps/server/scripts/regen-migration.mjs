/**
 * Regenerates the one migration of work in progress: deletes every migration after the last landed one
 * (LANDED below) and generates a single new one from the whole current schema. Several people (or
 * helpers) changing schema files at once each run this after their change; the result is always one
 * migration holding everyone's tables. Usage: node apps/server/scripts/regen-migration.mjs <name>
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const LANDED = 9; // 0009_ledger_append_only (hand-written: never regenerated)
const dir = path.join(import.meta.dirname, '../src/db/migrations');
const journalFile = path.join(dir, 'meta/_journal.json');
const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8'));
for (const e of journal.entries.filter((e) => e.idx > LANDED)) {
  fs.rmSync(path.join(dir, `${e.tag}.sql`), { force: true });
  fs.rmSync(path.join(dir, `meta/${String(e.idx).padStart(4, '0')}_snapshot.json`), { force: true });
}
journal.entries = journal.entries.filter((e) => e.idx <= LANDED);
fs.writeFileSync(journalFile, JSON.stringify(journal, null, 2));
execFileSync('npx', ['drizzle-kit', 'generate', '--name', process.argv[2] ?? 'operations'], { cwd: path.join(import.meta.dirname, '..'), stdio: 'inherit' });

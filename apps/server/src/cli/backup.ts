/**
 * `npm run backup -- --out FILE`: a consistent copy of the database in one file (db/backup.ts), taken
 * while the server runs or not: DATABASE_URL's server when set, else DATA_DIR's embedded database (the
 * running one, or started for the backup). The code key is not in the file (README, "Backups").
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { BackupError, connectSource, writeBackup } from '../db/backup';
import { codeKeyFingerprint } from '../modules/codes/key';

let values: { out?: string };
try {
  ({ values } = parseArgs({ options: { out: { type: 'string', short: 'o' } } }));
} catch (err) {
  console.error(`backup: ${(err as Error).message}\nusage: npm run backup -- --out <file>`);
  process.exit(2);
}
if (!values.out) {
  console.error('usage: npm run backup -- --out <file>');
  process.exit(2);
}

const config = loadConfig();
const out = path.resolve(process.env.INIT_CWD ?? process.cwd(), values.out);
const started = Date.now();
try {
  const source = await connectSource(config);
  try {
    console.error(`backup: reading ${source.what}`);
    const fingerprint = codeKeyFingerprint({ dataDir: config.dataDir });
    const { bytes, header } = await writeBackup(source.client, out, { codeKey: fingerprint });
    const rows = header.tables.reduce((n, t) => n + t.rows, 0);
    console.log(
      `backup written: ${out} (${(bytes / 1e6).toFixed(1)} MB, ${header.tables.length} tables, ${rows} rows, schema version ${header.schema.migrations}, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    console.log('the activation code key is not in the file: keep CODE_KEY or DATA_DIR/code.key with it, apart (README, "Backups")');
  } finally {
    await source.close();
  }
} catch (err) {
  console.error(`backup failed: ${(err as Error).message}`);
  if (!(err instanceof BackupError) && process.env.BACKUP_DEBUG) console.error(err);
  process.exitCode = 1;
}

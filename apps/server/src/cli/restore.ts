/**
 * `npm run restore -- FILE`: fills an empty DATA_DIR (or the empty database of DATABASE_URL) from a
 * backup (db/backup.ts). The whole file is checked first; a damaged, truncated or foreign file, a schema
 * this build does not know, or a target that is not empty is refused, and nothing is changed.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { BackupError, checkBackup, restoreBackup } from '../db/backup';
import { codeKeyFingerprint } from '../modules/codes/key';

let positionals: string[];
try {
  ({ positionals } = parseArgs({ allowPositionals: true, options: {} }));
} catch (err) {
  console.error(`restore: ${(err as Error).message}\nusage: npm run restore -- <backup file>`);
  process.exit(2);
}
if (positionals.length !== 1) {
  console.error('usage: npm run restore -- <backup file>   (into an empty DATA_DIR, or the empty database of DATABASE_URL)');
  process.exit(2);
}

const config = loadConfig();
const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]!);
const started = Date.now();
try {
  const checked = await checkBackup(file);
  const { header } = checked;
  console.error(`restore: ${file} is whole (made ${header.created_at}, schema version ${header.schema.migrations}, ${header.tables.length} tables)`);
  const into = await restoreBackup(checked, config, (line) => console.error(line));
  const rows = header.tables.reduce((n, t) => n + t.rows, 0);
  console.log(`restored ${rows} rows into ${into} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // The code key travels apart from the backup: say whether the one in place is the one that sealed the codes.
  const key = codeKeyFingerprint({ dataDir: config.dataDir });
  if (header.code_key && key !== header.code_key)
    console.log(
      key
        ? `warning: the activation codes were sealed with another code key than the one in place (CODE_KEY or ${path.join(config.dataDir, 'code.key')}); set CODE_KEY or copy the old server's code.key there before starting the server, or unused codes cannot be redeemed`
        : `next: copy the old server's code.key into ${config.dataDir} (or set CODE_KEY to its key) before starting the server, or unused activation codes cannot be redeemed`,
    );
  else if (header.code_key) console.log('the code key in place is the one that sealed the activation codes');
} catch (err) {
  console.error(`restore ${err instanceof BackupError ? 'refused' : 'failed'}: ${(err as Error).message}`);
  if (!(err instanceof BackupError) && process.env.BACKUP_DEBUG) console.error(err);
  process.exitCode = 1;
}

import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrationsFolder } from '../client';

/*
 * Backup and restore of the whole database as one file (docs/decisions.md, "Backup and restore"). The
 * embedded cluster's binaries have no pg_dump, so the backup reads every table of the schema (every table
 * of `public`, and drizzle's `drizzle.__drizzle_migrations`, found in the catalog: a table added later is
 * included without a line here) with `COPY ... TO STDOUT` inside one REPEATABLE READ READ ONLY
 * transaction, one snapshot, while the server goes on writing. Restore creates the schema with this
 * build's migrations up to the backup's, loads the rows with the tables' own triggers off (the stats
 * roll-ups come from the file, not counted a second time; the append-only rules are not in the way) and
 * sets the sequences, all in one transaction.
 *
 * The file:
 *   MAGIC (16 bytes) | header length H (uint32 BE) | header, JSON padded with spaces to H bytes
 *   | the data, gzip | trailer: sha256 (32 bytes) | END (8 bytes)
 * The data, once decompressed: per table of the header, in its order, frames `length (uint32 BE) | COPY
 * text` and a frame of length 0 at the table's end. The sha256 is that of the data's bytes followed by the
 * first 20 + H bytes (every byte of the file before the trailer; the data is hashed as it is written, the
 * header, whose row counts are known only at the end, is written last into the room kept for it).
 */

export const MAGIC = Buffer.from('BIOADMIN-BACKUP\n', 'latin1');
export const END = Buffer.from('BKUP-END', 'latin1');
export const FORMAT_VERSION = 1;
/** The file extension of backups (daily backups are `backup-YYYYMMDD-HHMMSS.bkp.gz`). */
export const BACKUP_EXT = 'bkp.gz';
export const PREFIX = MAGIC.length + 4;
export const TRAILER = 32 + END.length;
/** Frames of the data are about this long (the COPY stream's small chunks gathered, so gzip gets few large writes). */
export const FRAME = 1 << 20;
/** A header longer than this is not one of ours. */
export const MAX_HEADER = 16 << 20;

export interface BackupTable {
  /** Schema-qualified, quoted where needed: `public.devices`, `drizzle.__drizzle_migrations`. */
  name: string;
  columns: string[];
  rows: number;
}

export interface BackupSequence {
  name: string;
  /** bigint as text. */
  last_value: string;
  is_called: boolean;
}

export interface BackupHeader {
  format: number;
  app: 'bioelectric-admin';
  created_at: string;
  /** The PostgreSQL the backup was read from (`server_version`). */
  server_version: string;
  /** The schema: how many of the build's migrations were applied, and the last one's hash and time. */
  schema: { migrations: number; hash: string; created_at: number };
  compression: 'gzip';
  /** In the order they are in the data, which is an order rows can be loaded in (referenced tables first). */
  tables: BackupTable[];
  sequences: BackupSequence[];
  /** A fingerprint of the activation code key the server had (not the key): restore says when another key is in place. */
  code_key: string | null;
}

/** A refusal meant for the operator: the CLIs print its message alone, without a stack. */
export class BackupError extends Error {}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The migrations of this build, in order (drizzle-kit's journal). */
export function buildMigrations() {
  return readMigrationFiles({ migrationsFolder });
}

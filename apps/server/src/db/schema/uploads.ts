import { sql } from 'drizzle-orm';
import { check, customType, integer, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';

/** PostgreSQL `bytea`; node-postgres sends a Buffer as a binary parameter and reads the column back as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * Uploaded files (issue 34): every upload's bytes live in the database, so a backup of the database holds
 * them and several hosts share nothing but DATABASE_URL (and the code key). `name` is the public name
 * served at `/adminapi/uploads/<name>`: 32 random hex digits and the detected type's extension, the same
 * names the files had in `DATA_DIR/uploads`, so every stored URL keeps working. `content` keeps bytea's
 * default storage (EXTENDED: out of line, pglz tried first): pglz gives up within the first kilobyte of an
 * image or a ZIP, so EXTERNAL saved nothing measurable there and would lose the CSV and text files'
 * compression (docs/decisions.md, "Uploads in the database"). `sha256` (hex) is of `content`, checked when a file of the old
 * folder is moved in. Checks: the name's shape, and `size` is the content's length. The uploader is null for a file moved in from the folder (who sent it was never kept).
 */
export const uploads = pgTable(
  'uploads',
  {
    name: varchar('name', { length: 64 }).primaryKey(),
    contentType: varchar('content_type', { length: 100 }).notNull(),
    size: integer('size').notNull(),
    sha256: varchar('sha256', { length: 64 }).notNull(),
    content: bytea('content').notNull(),
    uploaderKind: varchar('uploader_kind', { length: 16 }).$type<'admin' | 'institution'>(),
    uploaderId: integer('uploader_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [check('uploads_name_ck', sql`${t.name} ~ '^[0-9a-f]{32}[.][a-z]{3,4}$'`), check('uploads_size_ck', sql`${t.size} = octet_length(${t.content})`)],
);

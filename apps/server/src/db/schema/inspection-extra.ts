// The inspections module's own tables: analysis versions and treatment sessions. Re-exported from index.ts.
import { date, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { institutions } from './core';
import { inspections } from './inspections';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Every version of an inspection's analysis. Version 1 is written when the first recompute happens (the
 * analysis computed on arrival, moved here unchanged); each recompute adds the next. The inspection row
 * holds the latest (`inspections.analysis`, `analysis_version`), so lists never read this table.
 */
export const inspectionAnalyses = pgTable(
  'inspection_analyses',
  {
    id: serial('id').primaryKey(),
    inspectionId: integer('inspection_id')
      .notNull()
      .references(() => inspections.id),
    version: integer('version').notNull(),
    analysis: jsonb('analysis').$type<unknown>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** Who computed it: the admin's account name, or 'device' for the analysis computed on arrival. */
    createdBy: varchar('created_by', { length: 64 }).notNull(),
  },
  (t) => [uniqueIndex('inspection_analyses_version_uq').on(t.inspectionId, t.version)],
);

/** Treatment sessions given after an inspection, recorded on its result page. */
export const treatmentSessions = pgTable(
  'treatment_sessions',
  {
    id: serial('id').primaryKey(),
    inspectionId: integer('inspection_id')
      .notNull()
      .references(() => inspections.id),
    /** The inspection's institution (scoping). */
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id),
    sessionDate: date('session_date', { mode: 'string' }).notNull(),
    /** The acupoints treated, in the order given. */
    acupointIds: jsonb('acupoint_ids').$type<number[]>().notNull(),
    minutes: integer('minutes').notNull(),
    notes: text('notes').notNull().default(''),
    /** Account name of who recorded it, and its kind. */
    createdBy: varchar('created_by', { length: 64 }).notNull(),
    createdByKind: varchar('created_by_kind', { length: 12 }).$type<'admin' | 'institution'>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('treatment_sessions_inspection_idx').on(t.inspectionId, t.id), index('treatment_sessions_institution_idx').on(t.institutionId)],
);

/**
 * Links to a report's public page (`/share/<token>`, trust-api.md "The person's report"). The token (256
 * random bits) is kept as its SHA-256 (`token_hash`, the lookup) and sealed under the server key
 * (`token_sealed`, modules/codes serverSealer) so that the report can show the active link's QR code
 * again; a database dump alone opens no link.
 */
export const inspectionShares = pgTable(
  'inspection_shares',
  {
    id: serial('id').primaryKey(),
    inspectionId: integer('inspection_id')
      .notNull()
      .references(() => inspections.id),
    /** The inspection's institution (scoping). */
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    tokenSealed: text('token_sealed').notNull(),
    createdBy: varchar('created_by', { length: 64 }).notNull(),
    createdByKind: varchar('created_by_kind', { length: 12 }).$type<'admin' | 'institution'>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    revokedBy: varchar('revoked_by', { length: 64 }),
  },
  (t) => [uniqueIndex('inspection_shares_token_uq').on(t.tokenHash), index('inspection_shares_inspection_idx').on(t.inspectionId, t.id)],
);

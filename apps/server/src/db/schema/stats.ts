// The stats roll-ups (issue 13 item 1): running aggregates of devices, inspections, paid device payments
// and the ledger that the stats pages read instead of scanning the raw rows. Re-exported from index.ts.
// They are written only by statement-level triggers on the raw tables (hand-written: drizzle-kit does not
// generate triggers) and filled from the rows by `stats_rollups_rebuild()`, both in migration
// 0013_stats_rollup_triggers. What each holds and when the service reads it: docs/decisions.md, "Stats".
import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, pgTable, primaryKey, timestamp, unique, varchar } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const cents = (name: string) => bigint(name, { mode: 'number' });
/** A UTC calendar day (the stats' buckets are UTC days). */
const day = () => date('day', { mode: 'string' }).notNull();

/** Inspections per UTC day of `measured_at` and inspecting institution. */
export const statsInspectionsDaily = pgTable(
  'stats_inspections_daily',
  {
    day: day(),
    institutionId: integer('institution_id').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'stats_inspections_daily_pk', columns: [t.day, t.institutionId] })],
);

/**
 * Each (device, inspecting institution) pair that has inspections, with its latest `measured_at`. Keyed
 * device first: the pairs of one device are read together (devices inspected at several institutions).
 * No index on `last_at`, so a newer inspection updates the row in place (HOT).
 */
export const statsInspectionPairs = pgTable(
  'stats_inspection_pairs',
  {
    deviceId: integer('device_id').notNull(),
    institutionId: integer('institution_id').notNull(),
    lastAt: ts('last_at').notNull(),
  },
  (t) => [primaryKey({ name: 'stats_inspection_pairs_pk', columns: [t.deviceId, t.institutionId] })],
);

/** How many pairs have their latest inspection on each UTC day, per institution (a histogram of `last_at`). */
export const statsInspectionPairDays = pgTable(
  'stats_inspection_pair_days',
  {
    day: day(),
    institutionId: integer('institution_id').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'stats_inspection_pair_days_pk', columns: [t.day, t.institutionId] })],
);

/** Per device, how many institutions it was inspected at (its pairs); the few with more than one are indexed. */
export const statsInspectionDevices = pgTable(
  'stats_inspection_devices',
  {
    deviceId: integer('device_id').primaryKey(),
    pairs: integer('pairs').notNull(),
  },
  (t) => [index('stats_inspection_devices_multi_idx').on(t.deviceId).where(sql`pairs > 1`)],
);

/** Devices per owner (null: platform stock) and status. */
export const statsDevices = pgTable(
  'stats_devices',
  {
    institutionId: integer('institution_id'),
    status: varchar('status', { length: 12 }).notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [unique('stats_devices_key').on(t.institutionId, t.status).nullsNotDistinct()],
);

/** Devices per UTC day of `activated_at` and current owner (null: platform stock); devices never activated are not counted. */
export const statsActivationsDaily = pgTable(
  'stats_activations_daily',
  {
    day: day(),
    institutionId: integer('institution_id'),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [unique('stats_activations_daily_key').on(t.day, t.institutionId).nullsNotDistinct()],
);

/**
 * Paid device payments (status 'paid') per UTC day of `paid_at`, paying institution, package and the two
 * commission holders (null: no such line, as in device_payments), with their sums and count.
 */
export const statsPaymentsDaily = pgTable(
  'stats_payments_daily',
  {
    day: day(),
    institutionId: integer('institution_id').notNull(),
    packageId: integer('package_id').notNull(),
    l1InstitutionId: integer('l1_institution_id'),
    l2InstitutionId: integer('l2_institution_id'),
    n: bigint('n', { mode: 'number' }).notNull(),
    amountCents: cents('amount_cents').notNull(),
    l1Cents: cents('l1_cents').notNull(),
    l2Cents: cents('l2_cents').notNull(),
    platformCents: cents('platform_cents').notNull(),
  },
  (t) => [unique('stats_payments_daily_key').on(t.day, t.institutionId, t.packageId, t.l1InstitutionId, t.l2InstitutionId).nullsNotDistinct()],
);

/** Ledger entries per institution and UTC day of `created_at`: their sum (the balance's moves) and count. */
export const statsLedgerDaily = pgTable(
  'stats_ledger_daily',
  {
    institutionId: integer('institution_id').notNull(),
    day: day(),
    amountCents: cents('amount_cents').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'stats_ledger_daily_pk', columns: [t.institutionId, t.day] })],
);

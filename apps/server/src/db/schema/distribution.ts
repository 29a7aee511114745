// Distribution records: each move of devices between platform stock and institutions (grade 0). Re-exported from index.ts.
import { index, integer, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core';
import { adminUsers, institutions } from './core';
import { devices } from './devices';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One move: the devices went from `from` to `to` (null: platform stock), by an operator, with a remark. */
export const distributionRecords = pgTable(
  'distribution_records',
  {
    id: serial('id').primaryKey(),
    fromInstitutionId: integer('from_institution_id').references(() => institutions.id),
    toInstitutionId: integer('to_institution_id').references(() => institutions.id),
    deviceCount: integer('device_count').notNull(),
    operatorId: integer('operator_id').references(() => adminUsers.id),
    operatorName: varchar('operator_name', { length: 50 }).notNull(),
    remark: varchar('remark', { length: 200 }).notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('distribution_records_created_idx').on(t.createdAt, t.id), index('distribution_records_from_idx').on(t.fromInstitutionId), index('distribution_records_to_idx').on(t.toInstitutionId)],
);

/** One line per device of a move: where it was and where it went. */
export const distributionLines = pgTable(
  'distribution_lines',
  {
    id: serial('id').primaryKey(),
    recordId: integer('record_id')
      .notNull()
      .references(() => distributionRecords.id),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id),
    fromInstitutionId: integer('from_institution_id').references(() => institutions.id),
    toInstitutionId: integer('to_institution_id').references(() => institutions.id),
  },
  (t) => [index('distribution_lines_record_idx').on(t.recordId), index('distribution_lines_device_idx').on(t.deviceId, t.id)],
);

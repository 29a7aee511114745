// Tables of the people modules: doctors and the users who are inspected. Re-exported from index.ts.
// Rows are soft-deleted (deleted_at): inspections of a later issue keep pointing at them.
import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import type { DoctorStatus, Gender } from '@app/contract';
import { institutions } from './core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const doctors = pgTable(
  'doctors',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 50 }).notNull(),
    gender: varchar('gender', { length: 8 }).$type<Gender>().notNull(),
    /** Normalised: digits with an optional leading +. */
    phone: varchar('phone', { length: 21 }).notNull(),
    title: varchar('title', { length: 50 }).notNull().default(''),
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id),
    status: varchar('status', { length: 10 }).$type<DoctorStatus>().notNull().default('enabled'),
    /** Inspections performed; maintained by the inspection module (read-only here). */
    inspectionCount: integer('inspection_count').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('doctors_institution_idx').on(t.institutionId, t.id), index('doctors_created_idx').on(t.createdAt)],
);

/** The people who are inspected ("users" of the product; not admin users). */
export const endUsers = pgTable(
  'end_users',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 50 }).notNull(),
    gender: varchar('gender', { length: 8 }).$type<Gender>().notNull(),
    birthDate: date('birth_date', { mode: 'string' }),
    phone: varchar('phone', { length: 21 }),
    /** ID card or passport number, upper-cased; unique among live rows. */
    idNumber: varchar('id_number', { length: 32 }),
    /** Tenths of a centimetre / of a kilogram (172.5 cm = 1725). */
    heightTenths: integer('height_tenths'),
    weightTenths: integer('weight_tenths'),
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id),
    /** Maintained by the inspection module (read-only here). */
    inspectionCount: integer('inspection_count').notNull().default(0),
    lastInspectionAt: ts('last_inspection_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [
    uniqueIndex('end_users_id_number_uq').on(t.idNumber).where(sql`deleted_at is null`),
    index('end_users_institution_idx').on(t.institutionId, t.id),
    index('end_users_created_idx').on(t.createdAt),
  ],
);

import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import type { ApplicationState } from '@app/contract';
import { adminUsers, institutions } from './core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Branch applications (`/institutional/inspection-apply`): filed by an institution, decided once by the
 * platform. The decision is one conditional update (`... where state = 'pending' returning`), so
 * concurrent approvals create one branch. A pending application holds its account name: a partial
 * unique index refuses a second pending application for the same name.
 */
export const branchApplications = pgTable(
  'branch_applications',
  {
    id: serial('id').primaryKey(),
    applicantId: integer('applicant_id')
      .notNull()
      .references(() => institutions.id),
    name: varchar('name', { length: 100 }).notNull(),
    contactName: varchar('contact_name', { length: 50 }).notNull(),
    phone: varchar('phone', { length: 30 }).notNull(),
    province: varchar('province', { length: 6 }).notNull(),
    city: varchar('city', { length: 6 }).notNull(),
    district: varchar('district', { length: 6 }),
    address: varchar('address', { length: 200 }).notNull().default(''),
    username: varchar('username', { length: 64 }).notNull(),
    state: varchar('state', { length: 12 }).$type<ApplicationState>().notNull().default('pending'),
    reason: varchar('reason', { length: 200 }).notNull().default(''),
    /** The branch the approval created. */
    institutionId: integer('institution_id').references(() => institutions.id),
    reviewedBy: integer('reviewed_by').references(() => adminUsers.id),
    reviewedAt: ts('reviewed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('branch_applications_applicant_idx').on(t.applicantId, t.id),
    index('branch_applications_state_idx').on(t.state, t.createdAt),
    uniqueIndex('branch_applications_pending_username_uq').on(sql`lower(${t.username})`).where(sql`${t.state} = 'pending'`),
    check('branch_applications_state_ck', sql`${t.state} in ('pending', 'approved', 'rejected')`),
  ],
);

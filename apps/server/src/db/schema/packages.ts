// Packages sold on devices. Re-exported from index.ts. Soft-deleted (deleted_at): device-end records of
// a later issue keep pointing at them, and the name is unique among live rows only.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { PACKAGE_LIMITS, type PackageKind, type PackageStatus } from '@app/contract';

/** A contract limit as SQL text (constraint definitions take no parameters). */
const L = Object.fromEntries(Object.entries(PACKAGE_LIMITS).map(([k, v]) => [k, sql.raw(String(v))])) as Record<keyof typeof PACKAGE_LIMITS, ReturnType<typeof sql.raw>>;

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const packages = pgTable(
  'packages',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: PACKAGE_LIMITS.nameLength }).notNull(),
    kind: varchar('kind', { length: 8 }).$type<PackageKind>().notNull(),
    /** Count packages: inspections granted; null for time packages. */
    uses: integer('uses'),
    /** Time packages: days granted; null for count packages. */
    days: integer('days'),
    priceCents: integer('price_cents').notNull(),
    /** Commission of the grade-1 / grade-2 ancestor, basis points of the price. */
    commissionRateL1Bp: integer('commission_rate_l1_bp').notNull().default(0),
    commissionRateL2Bp: integer('commission_rate_l2_bp').notNull().default(0),
    status: varchar('status', { length: 10 }).$type<PackageStatus>().notNull().default('off_sale'),
    sortOrder: integer('sort_order').notNull().default(0),
    description: varchar('description', { length: PACKAGE_LIMITS.descriptionLength }).notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [
    uniqueIndex('packages_name_uq').on(sql`lower(${t.name})`).where(sql`deleted_at is null`),
    index('packages_sort_idx').on(t.sortOrder, t.id),
    // The contract's limits, stated once (PACKAGE_LIMITS); the database holds them too.
    check('packages_kind_ck', sql`(kind = 'count' and uses between 1 and ${L.maxUses} and days is null) or (kind = 'time' and days between 1 and ${L.maxDays} and uses is null)`),
    check('packages_price_ck', sql`price_cents between 0 and ${L.maxPriceCents}`),
    check('packages_rates_ck', sql`commission_rate_l1_bp >= 0 and commission_rate_l2_bp >= 0 and commission_rate_l1_bp + commission_rate_l2_bp <= ${L.maxRateBp}`),
  ],
);

// Money: balances, the append-only ledger, device payments and payouts. Re-exported from index.ts.
// The ledger's UPDATE/DELETE refusal is a trigger of migration 0009 (hand-written: drizzle-kit
// does not generate triggers; see that file).
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import type { LedgerKind, LedgerRefType, PaymentStatus, PayoutStatus } from '@app/contract';
import { adminUsers, institutions } from './core';
import { devices } from './devices';
import { packages } from './packages';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const cents = (name: string) => bigint(name, { mode: 'number' });

/**
 * An institution's balance, in cents. Changed only by `post()` (modules/finance/ledger.ts): one guarded
 * `UPDATE ... SET balance_cents = balance_cents + $d WHERE ... AND balance_cents + $d >= 0` with its
 * ledger row in the same transaction. The row appears with the first credit.
 */
export const financeAccounts = pgTable(
  'finance_accounts',
  {
    institutionId: integer('institution_id')
      .primaryKey()
      .references(() => institutions.id),
    balanceCents: cents('balance_cents').notNull().default(0),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  () => [check('finance_accounts_balance_ck', sql`balance_cents >= 0`)],
);

/** Append-only: a trigger refuses UPDATE, DELETE and TRUNCATE. Corrections are new rows. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id),
    kind: varchar('kind', { length: 20 }).$type<LedgerKind>().notNull(),
    amountCents: cents('amount_cents').notNull(),
    balanceAfterCents: cents('balance_after_cents').notNull(),
    refType: varchar('ref_type', { length: 12 }).$type<LedgerRefType>().notNull(),
    refId: integer('ref_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('ledger_entries_inst_idx').on(t.institutionId, t.id),
    index('ledger_entries_created_idx').on(t.createdAt, t.id),
    index('ledger_entries_ref_idx').on(t.refType, t.refId),
    check('ledger_entries_amount_ck', sql`amount_cents <> 0 and balance_after_cents >= 0`),
  ],
);

/** A device-end record: one payment on a device, idempotent per (device, order_no). */
export const devicePayments = pgTable(
  'device_payments',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id),
    /** The device's owner when it paid. */
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id),
    packageId: integer('package_id')
      .notNull()
      .references(() => packages.id),
    orderNo: varchar('order_no', { length: 64 }).notNull(),
    amountCents: cents('amount_cents').notNull(),
    channel: varchar('channel', { length: 20 }).notNull(),
    paidAt: ts('paid_at').notNull(),
    endUserId: integer('end_user_id'),
    status: varchar('status', { length: 10 }).$type<PaymentStatus>().notNull().default('paid'),
    /** What the payment did to the device. */
    usesAdded: integer('uses_added'),
    daysAdded: integer('days_added'),
    usesAfter: integer('uses_after'),
    expiresBefore: ts('expires_before'),
    expiresAfter: ts('expires_after'),
    /** The commission lines (half-up per line) and the platform's remainder. */
    l1InstitutionId: integer('l1_institution_id').references(() => institutions.id),
    l1Cents: cents('l1_cents').notNull().default(0),
    l2InstitutionId: integer('l2_institution_id').references(() => institutions.id),
    l2Cents: cents('l2_cents').notNull().default(0),
    platformCents: cents('platform_cents').notNull().default(0),
    refundedAt: ts('refunded_at'),
    refundReason: varchar('refund_reason', { length: 200 }).notNull().default(''),
    refundedBy: integer('refunded_by').references(() => adminUsers.id),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('device_payments_order_uq').on(t.deviceId, t.orderNo),
    index('device_payments_paid_idx').on(t.paidAt, t.id),
    index('device_payments_inst_idx').on(t.institutionId, t.paidAt),
    check('device_payments_amount_ck', sql`amount_cents >= 0 and l1_cents >= 0 and l2_cents >= 0 and platform_cents >= 0 and l1_cents + l2_cents + platform_cents = amount_cents`),
  ],
);

/** A payout application; the amount is held (debited) when it is filed. */
export const payouts = pgTable(
  'payouts',
  {
    id: serial('id').primaryKey(),
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id),
    amountCents: cents('amount_cents').notNull(),
    bank: varchar('bank', { length: 100 }).notNull(),
    accountName: varchar('account_name', { length: 50 }).notNull(),
    /** In full; lists show it masked. */
    accountNo: varchar('account_no', { length: 34 }).notNull(),
    status: varchar('status', { length: 10 }).$type<PayoutStatus>().notNull().default('pending'),
    reason: varchar('reason', { length: 200 }).notNull().default(''),
    voucher: varchar('voucher', { length: 300 }).notNull().default(''),
    decidedBy: varchar('decided_by', { length: 64 }).notNull().default(''),
    decidedAt: ts('decided_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('payouts_inst_idx').on(t.institutionId, t.createdAt), index('payouts_status_idx').on(t.status, t.createdAt), check('payouts_amount_ck', sql`amount_cents > 0`)],
);

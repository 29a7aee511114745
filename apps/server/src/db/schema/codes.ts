// Activation codes, their batches and the back-office activation records. Re-exported from index.ts.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { CODE_LIMITS, type CodeScope } from '@app/contract';
import { adminUsers, institutions } from './core';
import { devices } from './devices';
import { packages } from './packages';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One generation: what its codes grant (days, or a package for device codes), until when, for whom. */
export const codeBatches = pgTable(
  'code_batches',
  {
    id: serial('id').primaryKey(),
    batchNo: varchar('batch_no', { length: 32 }).notNull(),
    scope: varchar('scope', { length: 12 }).$type<CodeScope>().notNull(),
    days: integer('days'),
    packageId: integer('package_id').references(() => packages.id),
    count: integer('count').notNull(),
    validUntil: ts('valid_until'),
    remark: varchar('remark', { length: CODE_LIMITS.remarkLength }).notNull().default(''),
    /** The institution the unused codes were last assigned to (null: the platform's). */
    ownerInstitutionId: integer('owner_institution_id').references(() => institutions.id),
    createdBy: integer('created_by').references(() => adminUsers.id),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('code_batches_no_uq').on(t.batchNo),
    index('code_batches_created_idx').on(t.createdAt),
    check('code_batches_grant_ck', sql`(scope = 'institution' and days is not null and package_id is null) or (scope = 'device' and (days is null) <> (package_id is null))`),
  ],
);

/**
 * One code. The code itself is never stored in clear: `lookup` is HMAC-SHA256 of the normalised code
 * (hex; unique, what redemption finds the row by) and `sealed` is the code under AES-256-GCM
 * (`v1.<iv>.<tag>.<ciphertext>`, base64url), both keyed from the server's code key, which is not in the
 * database (modules/codes/key.ts). Scope and valid_until are the batch's, copied so that redemption is
 * one conditional UPDATE. `status` is unused / used / void; expired is computed from valid_until.
 */
export const activationCodes = pgTable(
  'activation_codes',
  {
    id: serial('id').primaryKey(),
    batchId: integer('batch_id')
      .notNull()
      .references(() => codeBatches.id),
    lookup: varchar('lookup', { length: 64 }).notNull(),
    sealed: varchar('sealed', { length: 120 }).notNull(),
    scope: varchar('scope', { length: 12 }).$type<CodeScope>().notNull(),
    validUntil: ts('valid_until'),
    status: varchar('status', { length: 8 }).$type<'unused' | 'used' | 'void'>().notNull().default('unused'),
    ownerInstitutionId: integer('owner_institution_id').references(() => institutions.id),
    usedByInstitutionId: integer('used_by_institution_id').references(() => institutions.id),
    usedByDeviceId: integer('used_by_device_id').references(() => devices.id),
    usedAt: ts('used_at'),
    voidedAt: ts('voided_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('activation_codes_lookup_uq').on(t.lookup),
    index('activation_codes_batch_idx').on(t.batchId, t.id),
    index('activation_codes_owner_idx').on(t.ownerInstitutionId),
    check('activation_codes_status_ck', sql`status in ('unused', 'used', 'void')`),
  ],
);

/**
 * One redemption from the back office: which code (masked: the code is spent, the mask is enough),
 * whose term or which device, what it granted, the term (and uses) before and after, who, when.
 * `institution_id` is the institution renewed, or the owner of the device: the subtree scope.
 */
export const activationRecords = pgTable(
  'activation_records',
  {
    id: serial('id').primaryKey(),
    codeId: integer('code_id')
      .notNull()
      .references(() => activationCodes.id),
    batchId: integer('batch_id')
      .notNull()
      .references(() => codeBatches.id),
    codeMasked: varchar('code_masked', { length: 19 }).notNull(),
    scope: varchar('scope', { length: 12 }).$type<CodeScope>().notNull(),
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id),
    deviceId: integer('device_id').references(() => devices.id),
    packageId: integer('package_id').references(() => packages.id),
    days: integer('days'),
    usesAdded: integer('uses_added'),
    termBefore: ts('term_before'),
    termAfter: ts('term_after'),
    usesBefore: integer('uses_before'),
    usesAfter: integer('uses_after'),
    operatorKind: varchar('operator_kind', { length: 12 }).$type<'admin' | 'institution'>().notNull(),
    operatorId: integer('operator_id').notNull(),
    operatorName: varchar('operator_name', { length: 64 }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('activation_records_institution_idx').on(t.institutionId, t.createdAt), index('activation_records_created_idx').on(t.createdAt)],
);

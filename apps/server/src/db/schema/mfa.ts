import { bigint, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';

/*
 * The second factor (modules/mfa). Secrets are sealed with the server key (AES-256-GCM, modules/codes/key.ts,
 * the activation codes' key under a key derived for this purpose): a database dump alone reveals none.
 * Recovery codes and challenges are stored as SHA-256 of 80 and 256 random bits: nothing to brute-force.
 */

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
type Kind = 'admin' | 'institution';

/** One account's second factor: an active secret (on), a pending one (setup awaiting its first code), or both. */
export const mfaFactors = pgTable(
  'mfa_factors',
  {
    subjectKind: varchar('subject_kind', { length: 12 }).$type<Kind>().notNull(),
    subjectId: integer('subject_id').notNull(),
    /** The active secret, sealed; null while the factor is off. */
    secret: text('secret'),
    /** A setup's secret, sealed, until its first valid code enables it. */
    pendingSecret: text('pending_secret'),
    enabledAt: ts('enabled_at'),
    /** The last TOTP time step accepted: a code of this step or an earlier one is refused (no replay). */
    lastStep: bigint('last_step', { mode: 'number' }),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.subjectKind, t.subjectId] })],
);

/** Single-use recovery codes: SHA-256 of the normalised code; `used_at` set once, atomically. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: serial('id').primaryKey(),
    subjectKind: varchar('subject_kind', { length: 12 }).$type<Kind>().notNull(),
    subjectId: integer('subject_id').notNull(),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mfa_recovery_codes_uq').on(t.subjectKind, t.subjectId, t.codeHash), index('mfa_recovery_codes_subject_idx').on(t.subjectKind, t.subjectId)],
);

/** A sign-in waiting for its second factor: SHA-256 of the challenge, bound to the account, 5 minutes, one use. */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    id: serial('id').primaryKey(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    subjectKind: varchar('subject_kind', { length: 12 }).$type<Kind>().notNull(),
    subjectId: integer('subject_id').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mfa_challenges_token_uq').on(t.tokenHash), index('mfa_challenges_expires_idx').on(t.expiresAt)],
);

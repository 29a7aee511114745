import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';

/**
 * The audit trail: one row per successful write through the endpoint table, written in the write's own
 * transaction; one per sign-in attempt, sign-out, read of one person's health data and export (the access
 * audit, docs/decisions.md "Access audit"); one per refused write or health read of a signed-in caller
 * (bounded). Append-only: a trigger (migration 0002) refuses UPDATE, DELETE and TRUNCATE.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** 'admin', 'institution', or 'anonymous' for public calls. */
    actorKind: varchar('actor_kind', { length: 16 }).notNull(),
    actorId: integer('actor_id'),
    /** The account name at the time of the write. */
    actorName: varchar('actor_name', { length: 64 }).notNull().default(''),
    /** The role a super-admin was viewing as ("view as"), if any. */
    viewRoleId: integer('view_role_id'),
    /** Endpoint name (`packages.edit`) and its path. */
    endpoint: varchar('endpoint', { length: 64 }).notNull(),
    path: varchar('path', { length: 128 }).notNull(),
    recordType: varchar('record_type', { length: 32 }),
    recordId: integer('record_id'),
    ip: varchar('ip', { length: 64 }).notNull().default(''),
    /** The record before and after the write; passwords, keys and secrets never. */
    before: jsonb('before'),
    after: jsonb('after'),
    /** The input as received, with the same redaction. */
    input: jsonb('input'),
    /** What happened: 'write' (every row before the access audit), 'read', 'export', 'sign_in', 'sign_out'. */
    event: varchar('event', { length: 16 }).notNull().default('write'),
    /**
     * What the row did to data, derived by the database so that it can never disagree with the row:
     * 'read' for reads and exports, 'none' for sign-in events, and for writes what the snapshots say
     * (create: none before; remove: none after; update: both; none: no snapshot). Rows written before
     * the column existed get it too.
     */
    change: varchar('change', { length: 8 })
      .notNull()
      .generatedAlwaysAs(
        sql`case when event in ('read', 'export') then 'read' when event <> 'write' then 'none' when (before is null or before = 'null'::jsonb) and (after is null or after = 'null'::jsonb) then 'none' when before is null or before = 'null'::jsonb then 'create' when after is null or after = 'null'::jsonb then 'remove' else 'update' end`,
      ),
    /** 'ok', or 'refused' (a wrong password, a throttled sign-in, a permission refusal). */
    outcome: varchar('outcome', { length: 8 }).notNull().default('ok'),
    /** Why, when there is more to say than the outcome: bad_credentials, throttled, disabled, forbidden, cancelled (an export). */
    reason: varchar('reason', { length: 32 }),
    /** The caller's User-Agent header, cut to 256 characters. */
    userAgent: varchar('user_agent', { length: 256 }).notNull().default(''),
    /** An export's rows sent. */
    rowCount: integer('row_count'),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('audit_log_record_idx').on(t.recordType, t.recordId, t.createdAt.desc()),
    index('audit_log_actor_idx').on(t.actorKind, t.actorId, t.createdAt.desc()),
    index('audit_log_endpoint_idx').on(t.endpoint, t.createdAt.desc()),
    index('audit_log_change_outcome_idx').on(t.change, t.outcome, t.createdAt.desc()),
  ],
);

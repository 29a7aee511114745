import { bigserial, index, integer, jsonb, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';

/**
 * The audit trail: one row per successful write through the endpoint table, written in the write's own
 * transaction. Append-only: a trigger (migration 0001) refuses UPDATE and DELETE.
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
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('audit_log_record_idx').on(t.recordType, t.recordId, t.createdAt.desc()),
    index('audit_log_actor_idx').on(t.actorKind, t.actorId, t.createdAt.desc()),
    index('audit_log_endpoint_idx').on(t.endpoint, t.createdAt.desc()),
  ],
);

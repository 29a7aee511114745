import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import type { NoticeKind, NoticeLevel, NoticeParams } from '@app/contract';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Notices (modules/notices): one row per reader and notice. `epoch` tells one state of a thing from the
 * next (a device's offline spell by the `last_seen_at` it went silent at, a term by its end; 0 for a
 * one-time event such as a payout filed), so the unique key holds "one notice per thing and state and
 * reader" in the database, whatever number of processes or checks raise it at once. Ids are handed out
 * in commit order (writers take a transaction lock first: modules/notices/raise.ts), which lets a stream
 * resume after an id without losing a row. Migration 0021 adds the statement trigger that notifies the
 * channel `notice_added` at commit (every process's stream hub listens).
 */
export const notices = pgTable(
  'notices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: varchar('kind', { length: 32 }).$type<NoticeKind>().notNull(),
    level: varchar('level', { length: 10 }).$type<NoticeLevel>().notNull(),
    thingId: integer('thing_id').notNull(),
    epoch: bigint('epoch', { mode: 'number' }).notNull().default(0),
    recipientKind: varchar('recipient_kind', { length: 12 }).$type<'admin' | 'institution'>().notNull(),
    recipientId: integer('recipient_id').notNull(),
    params: jsonb('params').$type<NoticeParams>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    readAt: ts('read_at'),
  },
  (t) => [
    uniqueIndex('notices_once_uq').on(t.kind, t.thingId, t.epoch, t.recipientKind, t.recipientId),
    index('notices_recipient_idx').on(t.recipientKind, t.recipientId, t.id),
    index('notices_unread_idx').on(t.recipientKind, t.recipientId).where(sql`${t.readAt} is null`),
  ],
);

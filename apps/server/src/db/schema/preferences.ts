import { boolean, index, integer, jsonb, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/*
 * Lists people can shape (modules/preferences): per account (an admin or an institution, as sessions and
 * second factors name them) and list (its list endpoint, `equipment.list`), the columns and the saved views.
 */

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
type Kind = 'admin' | 'institution';
type ColumnSetting = { key: string; visible: boolean };

/** One account's columns of one list, in order; null columns: the page's own. */
export const listColumns = pgTable(
  'list_columns',
  {
    id: serial('id').primaryKey(),
    subjectKind: varchar('subject_kind', { length: 12 }).$type<Kind>().notNull(),
    subjectId: integer('subject_id').notNull(),
    list: varchar('list', { length: 64 }).notNull(),
    columns: jsonb('columns').$type<ColumnSetting[] | null>(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('list_columns_uq').on(t.subjectKind, t.subjectId, t.list)],
);

/** A saved view: a named set of a list's filters (as its address carries them) and a sort. */
export const listViews = pgTable(
  'list_views',
  {
    id: serial('id').primaryKey(),
    subjectKind: varchar('subject_kind', { length: 12 }).$type<Kind>().notNull(),
    subjectId: integer('subject_id').notNull(),
    list: varchar('list', { length: 64 }).notNull(),
    name: varchar('name', { length: 40 }).notNull(),
    filters: jsonb('filters').$type<Record<string, string>>().notNull(),
    sort: varchar('sort', { length: 64 }),
    order: varchar('sort_order', { length: 8 }).$type<'ascend' | 'descend'>(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('list_views_subject_idx').on(t.subjectKind, t.subjectId, t.list),
    uniqueIndex('list_views_name_uq').on(t.subjectKind, t.subjectId, t.list, t.name),
    uniqueIndex('list_views_default_uq').on(t.subjectKind, t.subjectId, t.list).where(sql`is_default`),
  ],
);

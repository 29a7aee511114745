import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import type { L10n } from '@app/contract';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();

export const institutions = pgTable(
  'institutions',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 100 }).notNull(),
    grade: smallint('grade').notNull(),
    parentId: integer('parent_id'),
    /** Materialised path of ids, "/1/5/9/": a subtree is every row whose path starts with the root's. */
    path: text('path').notNull().default(''),
    username: varchar('username', { length: 64 }).notNull(),
    passwordHash: text('password_hash').notNull(),
    contactName: varchar('contact_name', { length: 50 }).notNull().default(''),
    phone: varchar('phone', { length: 30 }).notNull().default(''),
    province: varchar('province', { length: 6 }),
    city: varchar('city', { length: 6 }),
    district: varchar('district', { length: 6 }),
    address: varchar('address', { length: 200 }).notNull().default(''),
    status: smallint('status').notNull().default(1),
    termExpiresAt: ts('term_expires_at'),
    avatar: text('avatar').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('institutions_username_uq').on(sql`lower(${t.username})`), index('institutions_path_idx').on(t.path.op('text_pattern_ops')), index('institutions_parent_idx').on(t.parentId)],
);

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 50 }).notNull(),
  description: varchar('description', { length: 200 }).notNull().default(''),
  status: boolean('status').notNull().default(true),
  /** The seeded role that holds everything; cannot be deleted or emptied. */
  isSuper: boolean('is_super').notNull().default(false),
  createdAt: createdAt(),
});

export const menus = pgTable(
  'menus',
  {
    id: serial('id').primaryKey(),
    parentId: integer('parent_id'),
    /** 1 directory, 2 page, 3 button. */
    type: smallint('type').notNull(),
    /** Route name for directories and pages, button key for buttons. */
    sign: varchar('sign', { length: 64 }).notNull(),
    title: jsonb('title').$type<L10n>().notNull(),
    icon: varchar('icon', { length: 50 }),
    sort: integer('sort').notNull().default(0),
    hidden: smallint('hidden').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('menus_sign_uq').on(t.sign)],
);

export const roleMenus = pgTable(
  'role_menus',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    menuId: integer('menu_id')
      .notNull()
      .references(() => menus.id, { onDelete: 'cascade' }),
  },
  (t) => [uniqueIndex('role_menus_pk').on(t.roleId, t.menuId), index('role_menus_menu_idx').on(t.menuId)],
);

export const adminUsers = pgTable(
  'admin_users',
  {
    id: serial('id').primaryKey(),
    username: varchar('username', { length: 64 }).notNull(),
    name: varchar('name', { length: 50 }).notNull().default(''),
    phone: varchar('phone', { length: 30 }).notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id),
    status: smallint('status').notNull().default(1),
    avatar: text('avatar').notNull().default(''),
    lastLoginAt: ts('last_login_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('admin_users_username_uq').on(sql`lower(${t.username})`)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    /** SHA-256 of the key; the key itself is never stored. */
    keyHash: varchar('key_hash', { length: 64 }).notNull(),
    subjectKind: varchar('subject_kind', { length: 12 }).$type<'admin' | 'institution'>().notNull(),
    subjectId: integer('subject_id').notNull(),
    /** A super-admin's "view as" role. */
    viewRoleId: integer('view_role_id'),
    /** Overdue institution: only get-info, logout and code redemption. */
    restricted: boolean('restricted').notNull().default(false),
    createdAt: createdAt(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    ip: varchar('ip', { length: 64 }).notNull().default(''),
    /** The browser's User-Agent at sign-in (cut to 256 characters), shown in the account's session list. */
    userAgent: varchar('user_agent', { length: 256 }).notNull().default(''),
    /** Step-up: until when the session counts as re-authenticated (a password sign-in, `/auth/reauth`). */
    reauthUntil: ts('reauth_until'),
  },
  (t) => [uniqueIndex('sessions_key_uq').on(t.keyHash), index('sessions_subject_idx').on(t.subjectKind, t.subjectId)],
);

/**
 * Failed sign-ins (and attempts in flight: a row is written before the password is checked and removed
 * when it was right), shared by every server process. `ip` holds the address key (lib/throttle.ts:
 * IPv4, or an IPv6 address's /64). Throttling reads an address's rows of the last hour.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: serial('id').primaryKey(),
    username: varchar('username', { length: 64 }).notNull(),
    ip: varchar('ip', { length: 64 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('login_failures_ip_idx').on(t.ip, t.createdAt), index('login_failures_created_idx').on(t.createdAt)],
);

/**
 * Uploads per account per UTC day, for the daily quota (`upload_daily_limit`): a slot is taken with one
 * atomic upsert before the file is read, so concurrent uploads and several processes cannot overshoot.
 */
export const uploadCounts = pgTable(
  'upload_counts',
  {
    actorKind: varchar('actor_kind', { length: 16 }).$type<'admin' | 'institution'>().notNull(),
    actorId: integer('actor_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.actorKind, t.actorId, t.day] })],
);

export const systemParams = pgTable('system_params', {
  key: varchar('key', { length: 64 }).primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * One counter per in-memory cache ('grants': roles, role_menus and menus; 'params': system_params),
 * bumped by a statement trigger in the same transaction as any write to those tables (migration
 * 0005), and read by the access check's one joined query: a process sees another's change on its
 * very next request (lib/access-cache.ts).
 */
export const cacheVersions = pgTable('cache_versions', {
  name: varchar('name', { length: 32 }).primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import type { DeviceStatus } from '@app/contract';
import { institutions } from './core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    serial: varchar('serial', { length: 40 }).notNull(),
    model: varchar('model', { length: 40 }).notNull().default(''),
    name: varchar('name', { length: 100 }).notNull().default(''),
    /** Null while the device is in platform stock. */
    institutionId: integer('institution_id').references(() => institutions.id),
    status: varchar('status', { length: 12 }).$type<DeviceStatus>().notNull().default('inactive'),
    activatedAt: ts('activated_at'),
    expiresAt: ts('expires_at'),
    remainingUses: integer('remaining_uses'),
    totalInspections: integer('total_inspections').notNull().default(0),
    lastSeenAt: ts('last_seen_at'),
    /** The last `X-Device-Version` the device sent (trust-api.md, "Device version and presence"). */
    reportedVersion: varchar('reported_version', { length: 64 }),
    /** SHA-256 (hex) of the device API secret; '' = no secret yet (the device API refuses it). */
    secretHash: text('secret_hash').notNull().default(''),
    /** The device API's per-device rate limit: the current minute and the calls counted in it. */
    rateWindow: ts('rate_window'),
    rateCount: integer('rate_count').notNull().default(0),
    remark: varchar('remark', { length: 500 }).notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('devices_serial_uq').on(t.serial),
    index('devices_institution_idx').on(t.institutionId, t.id),
    index('devices_expires_idx').on(t.expiresAt),
    index('devices_created_idx').on(t.createdAt),
    // One index per sort the device list offers (docs/benchmarks.md, 1M devices: 200-450 ms -> ~1 ms a
    // page). NOT NULL columns: one index serves both directions. Nullable ones sort NULLs last both ways
    // (lib/list.ts sortBy), which a backward scan cannot give: one index per direction (expires_at
    // ascending is devices_expires_idx, the id tie-break done by an incremental sort).
    index('devices_name_idx').on(t.name, t.id),
    index('devices_status_idx').on(t.status, t.id),
    index('devices_inspections_idx').on(t.totalInspections, t.id),
    index('devices_activated_idx').on(t.activatedAt.asc().nullsLast(), t.id.asc()),
    index('devices_activated_desc_idx').on(t.activatedAt.desc().nullsLast(), t.id.desc().nullsFirst()),
    index('devices_expires_desc_idx').on(t.expiresAt.desc().nullsLast(), t.id.desc().nullsFirst()),
    index('devices_seen_idx').on(t.lastSeenAt.asc().nullsLast(), t.id.asc()),
    index('devices_seen_desc_idx').on(t.lastSeenAt.desc().nullsLast(), t.id.desc().nullsFirst()),
    // Keyword search matches any part of serial, name or model: a trigram index keeps it fast at scale.
    index('devices_search_trgm_idx').using('gin', sql`lower(${t.serial} || ' ' || ${t.name} || ' ' || ${t.model}) gin_trgm_ops`),
  ],
);

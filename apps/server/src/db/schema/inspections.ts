// Raw inspections as devices send them (the device API); the analysis is computed by the inspections module. Re-exported from index.ts.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { institutions } from './core';
import { devices } from './devices';
import { doctors, endUsers } from './people';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const inspections = pgTable(
  'inspections',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id),
    /** The device's owner when the inspection arrived. */
    institutionId: integer('institution_id')
      .notNull()
      .references(() => institutions.id),
    /** Unique per device: the device's own number; a repeat is answered from this row. */
    inspectionNo: varchar('inspection_no', { length: 64 }).notNull(),
    measuredAt: ts('measured_at').notNull(),
    doctorId: integer('doctor_id').references(() => doctors.id),
    endUserId: integer('end_user_id')
      .notNull()
      .references(() => endUsers.id),
    /** `{ LU: [left, right], ... }`, 12 meridians, integers 0-200. */
    readings: jsonb('readings').$type<Record<string, [number, number]>>().notNull(),
    vitals: jsonb('vitals').$type<Record<string, number | string> | null>(),
    /** The analysis object (device-api.md); null until computed. */
    analysis: jsonb('analysis').$type<unknown>(),
    /** The version of `analysis` (1 as computed on arrival; a grade-0 recompute adds one: inspection_analyses keeps each). */
    analysisVersion: integer('analysis_version').notNull().default(1),
    /** The headline of the list, kept by PostgreSQL from `analysis`: the worst system level (null: no analysis). */
    worstLevel: varchar('worst_level', { length: 10 }).generatedAlwaysAs(
      sql`case when analysis is null then null when jsonb_path_exists(analysis, '$.systems[*] ? (@.level == "abnormal")') then 'abnormal' when jsonb_path_exists(analysis, '$.systems[*] ? (@.level == "attention")') then 'attention' else 'normal' end`,
    ),
    /** The highest disease risk (diseases are stored most severe first); 'none' when no disease was found. */
    topRisk: varchar('top_risk', { length: 10 }).generatedAlwaysAs(sql`case when analysis is null then null else coalesce(analysis->'diseases'->0->>'risk', 'none') end`),
    /** Remaining uses after this inspection (what the device was answered). */
    remainingUses: integer('remaining_uses'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('inspections_device_no_uq').on(t.deviceId, t.inspectionNo),
    index('inspections_institution_idx').on(t.institutionId, t.id),
    index('inspections_user_idx').on(t.endUserId),
    // By time, carrying the two columns the stats aggregate (active devices per institution): the range's
    // rows are read from the index alone (docs/benchmarks.md, 1M inspections, 12 months: 735 -> 390 ms).
    index('inspections_measured_cover_idx').on(t.measuredAt, t.institutionId, t.deviceId),
    index('inspections_institution_measured_idx').on(t.institutionId, t.measuredAt),
  ],
);

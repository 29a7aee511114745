// Tables of the master-data modules: disease categories, systems, acupoints, schematic diagrams.
// Re-exported from index.ts. Multilingual texts are jsonb L10n ({ zh, en, es, ja }), as menus.title.
import { boolean, doublePrecision, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex, varchar, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AcupointMeridian, L10n, MeridianCondition, MeridianWeights, SchematicKind, Waveform } from '@app/contract';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();
const l10n = (name: string) => jsonb(name).$type<L10n>().notNull();
const l10nBlank = (name: string) => jsonb(name).$type<L10n>().notNull().default({ zh: '', en: '', es: '', ja: '' });

export const diseaseCategories = pgTable('disease_categories', {
  id: serial('id').primaryKey(),
  name: l10n('name'),
  sort: integer('sort').notNull().default(0),
  createdAt: createdAt(),
});

/** Body systems (parent_id null) and their subsystems/organs: two levels, enforced by the service. */
export const systems = pgTable(
  'systems',
  {
    id: serial('id').primaryKey(),
    parentId: integer('parent_id').references((): AnyPgColumn => systems.id, { onDelete: 'restrict' }),
    name: l10n('name'),
    /** Meridian -> positive weight, for system scores. */
    weights: jsonb('weights').$type<MeridianWeights>().notNull().default({}),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('systems_parent_idx').on(t.parentId, t.sort)],
);

export const acupoints = pgTable(
  'acupoints',
  {
    id: serial('id').primaryKey(),
    /** Upper case, unique (LU9, GV20, EX-HN3). */
    code: varchar('code', { length: 16 }).notNull(),
    name: l10n('name'),
    meridian: varchar('meridian', { length: 4 }).$type<AcupointMeridian>().notNull(),
    location: l10nBlank('location'),
    indications: l10nBlank('indications'),
    isMeasurementPoint: boolean('is_measurement_point').notNull().default(false),
    isTreatmentPoint: boolean('is_treatment_point').notNull().default(false),
    image: text('image').notNull().default(''),
    sort: integer('sort').notNull().default(0),
    status: smallint('status').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('acupoints_code_uq').on(t.code), index('acupoints_meridian_idx').on(t.meridian)],
);

/** The treatment actions of an acupoint (the hidden "action" page), in order. */
export const acupointActions = pgTable(
  'acupoint_actions',
  {
    id: serial('id').primaryKey(),
    acupointId: integer('acupoint_id')
      .notNull()
      .references(() => acupoints.id, { onDelete: 'cascade' }),
    waveform: varchar('waveform', { length: 20 }).$type<Waveform>().notNull(),
    frequencyHz: doublePrecision('frequency_hz').notNull(),
    intensityMin: smallint('intensity_min').notNull(),
    intensityMax: smallint('intensity_max').notNull(),
    minutes: smallint('minutes').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('acupoint_actions_acupoint_idx').on(t.acupointId, t.sort)],
);

export const diseases = pgTable(
  'diseases',
  {
    id: serial('id').primaryKey(),
    categoryId: integer('category_id')
      .notNull()
      .references(() => diseaseCategories.id, { onDelete: 'restrict' }),
    name: l10n('name'),
    description: l10nBlank('description'),
    advice: l10nBlank('advice'),
    /** The meridian conditions that flag the disease. */
    pattern: jsonb('pattern').$type<MeridianCondition[]>().notNull().default([]),
    sort: integer('sort').notNull().default(0),
    status: smallint('status').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [index('diseases_category_idx').on(t.categoryId, t.sort)],
);

/** Related systems of a disease; a referenced system cannot be deleted. */
export const diseaseSystems = pgTable(
  'disease_systems',
  {
    diseaseId: integer('disease_id')
      .notNull()
      .references(() => diseases.id, { onDelete: 'cascade' }),
    systemId: integer('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'restrict' }),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('disease_systems_pk').on(t.diseaseId, t.systemId), index('disease_systems_system_idx').on(t.systemId)],
);

/** Related acupoints of a disease (treatment advice), in order; a referenced acupoint cannot be deleted. */
export const diseaseAcupoints = pgTable(
  'disease_acupoints',
  {
    diseaseId: integer('disease_id')
      .notNull()
      .references(() => diseases.id, { onDelete: 'cascade' }),
    acupointId: integer('acupoint_id')
      .notNull()
      .references(() => acupoints.id, { onDelete: 'restrict' }),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('disease_acupoints_pk').on(t.diseaseId, t.acupointId), index('disease_acupoints_acupoint_idx').on(t.acupointId)],
);

export const schematics = pgTable('schematics', {
  id: serial('id').primaryKey(),
  title: l10n('title'),
  kind: varchar('kind', { length: 24 }).$type<SchematicKind>().notNull(),
  /** An uploaded image URL (/adminapi/uploads/<name>). */
  image: text('image').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  sort: integer('sort').notNull().default(0),
  createdAt: createdAt(),
});

/** Acupoint markers on a diagram; x and y are fractions 0..1 of the image size. */
export const schematicMarkers = pgTable(
  'schematic_markers',
  {
    id: serial('id').primaryKey(),
    schematicId: integer('schematic_id')
      .notNull()
      .references(() => schematics.id, { onDelete: 'cascade' }),
    acupointId: integer('acupoint_id')
      .notNull()
      .references(() => acupoints.id, { onDelete: 'restrict' }),
    x: doublePrecision('x').notNull(),
    y: doublePrecision('y').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('schematic_markers_schematic_idx').on(t.schematicId, t.sort), index('schematic_markers_acupoint_idx').on(t.acupointId)],
);

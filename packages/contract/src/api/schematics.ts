/**
 * Schematic diagrams (grade 0, the SchematicManage page, schematic:* buttons): an uploaded image and
 * acupoint markers at fractional (x, y) positions. The endpoint table is `schematicsApi` at the end of
 * this file.
 */
import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idAnswer, idInput, idSchema, nullAnswer, optionalId, post } from '../endpoint';
import type { L10n } from '../i18n';
import { listQuery, optionalText } from './common';
import { l10nRequired, masterSort, uploadedImageUrl } from './meridians';

export const SCHEMATIC_KINDS = ['measurement_map', 'treatment_placement', 'meridian_chart'] as const;
export type SchematicKind = (typeof SCHEMATIC_KINDS)[number];

/** The most markers on a diagram, and the largest image side in pixels. */
export const SCHEMATIC_LIMITS = { maxMarkers: 300, maxSide: 20_000 } as const;

/** A marker: an acupoint at (x, y), fractions 0..1 of the image width and height (top-left origin). */
export const schematicMarker = z.object({
  acupoint_id: idSchema,
  x: z.number().min(0).max(1),
  y: z.number().min(0).max(1),
});
export type SchematicMarker = z.infer<typeof schematicMarker>;
const markerList = z.array(schematicMarker).max(SCHEMATIC_LIMITS.maxMarkers);

export const schematicBody = z.object({
  title: l10nRequired(),
  kind: z.enum(SCHEMATIC_KINDS),
  image: uploadedImageUrl,
  /** Natural size of the image in pixels (the upload answer gives it). */
  width: z.number().int().min(1).max(SCHEMATIC_LIMITS.maxSide),
  height: z.number().int().min(1).max(SCHEMATIC_LIMITS.maxSide),
  sort: masterSort,
  /** Add: the markers (default none). Edit: absent keeps the markers, present replaces them. */
  markers: markerList.optional(),
});
export const schematicEditBody = schematicBody.extend({ id: idSchema });
export type SchematicBody = z.infer<typeof schematicBody>;
export type SchematicEditBody = z.infer<typeof schematicEditBody>;
export const saveMarkersBody = z.object({ id: idSchema, markers: markerList });
export type SaveMarkersBody = z.infer<typeof saveMarkersBody>;
export const SCHEMATIC_SORTS = ['sort', 'kind', 'id', 'created_at'] as const;
export const schematicListQuery = listQuery({ keyword: optionalText(64), kind: z.enum(SCHEMATIC_KINDS).optional(), acupoint_id: optionalId }, SCHEMATIC_SORTS);
export type SchematicListQuery = z.infer<typeof schematicListQuery>;

export interface SchematicRow {
  id: number;
  title: L10n;
  kind: SchematicKind;
  image: string;
  width: number;
  height: number;
  sort: number;
  marker_count: number;
  created_at: string;
}

export interface SchematicDetail extends SchematicRow {
  markers: (SchematicMarker & { code: string; name: L10n })[];
}

const page = { page: 'SchematicManage' } as const;

export const schematicsApi = defineEndpoints('schematics', {
  /** Filtered (keyword, kind, acupoint_id), sorted and paged. */
  list: get('/schematic/list', page, schematicListQuery, answer<ListResult<SchematicRow>>()),
  /** With its markers (acupoint code and name each). */
  detail: get('/schematic/detail', page, idInput, answer<SchematicDetail>()),
  /** With its markers (default none). */
  add: post('/schematic/add', { button: 'schematic:add' }, schematicBody, idAnswer, { audit: 'schematic' }),
  /** `markers` absent keeps the markers, present replaces them. */
  edit: post('/schematic/edit', { button: 'schematic:edit' }, schematicEditBody, nullAnswer, { audit: 'schematic' }),
  /** Replaces the markers. */
  saveMarkers: post('/schematic/save_markers', { button: 'schematic:edit' }, saveMarkersBody, nullAnswer, { audit: 'schematic' }),
  /** The markers go with the diagram. */
  remove: post('/schematic/del', { button: 'schematic:delete' }, idInput, nullAnswer, { audit: 'schematic' }),
});

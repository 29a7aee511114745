/** Marker positions: fractions 0..1 of the image box (top-left origin), kept to 1/10 000 like the server. */
import { SCHEMATIC_LIMITS, type SchematicMarker } from '@app/contract/api/schematics';

export const MAX_MARKERS = SCHEMATIC_LIMITS.maxMarkers;

const round4 = (v: number) => Math.round(v * 10_000) / 10_000;
const clamp01 = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);

export interface Box { left: number; top: number; width: number; height: number }

/** A pointer position (client pixels) as a fraction of the image box; null when the box has no size. */
export function toFraction(clientX: number, clientY: number, box: Box): { x: number; y: number } | null {
  if (!(box.width > 0) || !(box.height > 0)) return null;
  return { x: round4(clamp01((clientX - box.left) / box.width)), y: round4(clamp01((clientY - box.top) / box.height)) };
}

/** "23.4%": a fraction for display. */
export const percent = (v: number) => `${(Math.round(v * 1000) / 10).toFixed(1)}%`;

/** The wire shape: only acupoint_id, x and y, in order. */
export const toWireMarkers = (list: SchematicMarker[]): SchematicMarker[] =>
  list.map((m) => ({ acupoint_id: m.acupoint_id, x: round4(clamp01(m.x)), y: round4(clamp01(m.y)) }));

/** Marker positions: fractions 0..1 of the image box (top-left origin), kept to 1/10 000 like the server. */
import { SCHEMATIC_LIMITS, type SchematicMarker } from '@app/contract/api/schematics';

export const MAX_MARKERS = SCHEMATIC_LIMITS.maxMarkers;

const round4 = (v: number) => Math.round(v * 10_000) / 10_000;
const clamp01 = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A pointer position (client pixels) as a fraction of the image box; null when the box has no size. */
export function toFraction(clientX: number, clientY: number, box: Box): { x: number; y: number } | null {
  if (!(box.width > 0) || !(box.height > 0)) return null;
  return { x: round4(clamp01((clientX - box.left) / box.width)), y: round4(clamp01((clientY - box.top) / box.height)) };
}

/** A position moved by (dx, dy) fractions, kept inside the image (the arrow keys on a marker). */
export const nudge = (p: { x: number; y: number }, dx: number, dy: number) => ({ x: round4(clamp01(p.x + dx)), y: round4(clamp01(p.y + dy)) });

/** "23.4%": a fraction for display. */
export const percent = (v: number) => `${(Math.round(v * 1000) / 10).toFixed(1)}%`;

/** The wire shape: only acupoint_id, x and y, in order. */
export const toWireMarkers = (list: SchematicMarker[]): SchematicMarker[] => list.map((m) => ({ acupoint_id: m.acupoint_id, x: round4(clamp01(m.x)), y: round4(clamp01(m.y)) }));

/**
 * React keys for a marker list: the acupoint, and `#n` for its n-th repeat (a point placed on both
 * sides). A marker keeps its key when it moves or when a marker of another acupoint comes or goes.
 */
export function markerKeys(list: readonly Pick<SchematicMarker, 'acupoint_id'>[]): string[] {
  const seen = new Map<number, number>();
  return list.map((m) => {
    const n = seen.get(m.acupoint_id) ?? 0;
    seen.set(m.acupoint_id, n + 1);
    return n ? `${m.acupoint_id}#${n}` : String(m.acupoint_id);
  });
}

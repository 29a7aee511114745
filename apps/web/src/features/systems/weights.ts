import { MERIDIANS, type Meridian } from '@app/contract/api/meridians';
import type { MeridianWeights } from '@app/contract/api/systems';

export type WeightInputs = Partial<Record<Meridian, number | null | undefined>>;

/** The wire weights: only the meridians with a positive weight (the contract refuses 0), at most 100. */
export function toWireWeights(v: WeightInputs | undefined): MeridianWeights {
  const out: MeridianWeights = {};
  for (const m of MERIDIANS) {
    const w = Number(v?.[m]);
    if (Number.isFinite(w) && w > 0) out[m] = Math.min(100, Math.round(w * 100) / 100);
  }
  return out;
}

/** Each meridian's share of the total weight (0..1), for the bar visual. */
export function weightShares(v: WeightInputs | undefined): Record<Meridian, number> {
  const clean = toWireWeights(v);
  const total = Object.values(clean).reduce((s, w) => s + (w ?? 0), 0);
  return Object.fromEntries(MERIDIANS.map((m) => [m, total > 0 ? (clean[m] ?? 0) / total : 0])) as Record<Meridian, number>;
}

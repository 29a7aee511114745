/** Client rules mirroring the contract (cheap copies, so zod stays out of the page). */
import type { TreatmentAction } from '@app/contract/api/master';

/** Acupoint code: LU9, GV20, EX-HN3 (stored upper case). */
export const ACUPOINT_CODE_RE = /^[A-Z][A-Z0-9-]{1,15}$/;
export const normalizeCode = (v: unknown) => (typeof v === 'string' ? v.toUpperCase().replace(/\s+/g, '') : v);

export const MAX_ACTIONS = 20;
export const LIMITS = {
  frequency: { min: 0.1, max: 1000 },
  intensity: { min: 0, max: 100 },
  minutes: { min: 1, max: 60 },
} as const;

export const NEW_ACTION: TreatmentAction = { waveform: 'continuous', frequency_hz: 10, intensity_min: 20, intensity_max: 40, minutes: 15 };

/** Total minutes of a list of actions (the session length). */
export const totalMinutes = (list: Partial<TreatmentAction>[]) => list.reduce((s, a) => s + (Number(a?.minutes) || 0), 0);

/** The wire list: numbers rounded as the server stores them (frequency to 0.01 Hz). */
export const toWireActions = (list: TreatmentAction[]): TreatmentAction[] =>
  list.map((a) => ({
    waveform: a.waveform,
    frequency_hz: Math.round(Number(a.frequency_hz) * 100) / 100,
    intensity_min: Math.round(Number(a.intensity_min)),
    intensity_max: Math.round(Number(a.intensity_max)),
    minutes: Math.round(Number(a.minutes)),
  }));

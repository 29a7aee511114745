/** Client rules over the contract's limits (plain constants, so zod stays out of the page). */
import { TREATMENT_LIMITS, type TreatmentAction } from '@app/contract/api/acupoints';

export { ACUPOINT_CODE_MAX, ACUPOINT_CODE_RE } from '@app/contract/api/acupoints';
/** Acupoint code as typed: upper case, no spaces (LU9, GV20, EX-HN3). */
export const normalizeCode = (v: unknown) => (typeof v === 'string' ? v.toUpperCase().replace(/\s+/g, '') : v);

export const MAX_ACTIONS = TREATMENT_LIMITS.maxActions;
export const LIMITS = TREATMENT_LIMITS;

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

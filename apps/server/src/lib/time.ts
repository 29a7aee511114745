/** Times as the server answers and computes them: one definition for every module. */

export const HOUR = 3_600_000;
export const DAY = 86_400_000;

/** A time as the API answers it (ISO 8601, UTC). */
export const iso = (d: Date) => d.toISOString();
/** A time that may be missing, as the API answers it: ISO 8601 or null. */
export const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

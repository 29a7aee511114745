/**
 * The stats pages' date range, kept in the address (`?range=30d`, or `?range=custom&from=...&to=...`):
 * presets today, 7 days, 30 days, this month, 12 months (the last twelve calendar months), or custom.
 * Days are UTC days, as the server counts them (apps/server/src/modules/stats).
 */
import { STATS_LIMITS } from '@app/contract/api/stats';

export const RANGE_PRESETS = ['today', '7d', '30d', 'month', '12m', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const DEFAULT_PRESET: RangePreset = '30d';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (v: string | null): v is string => !!v && DATE_RE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));

/** The from/to of a preset on the given day (UTC). */
export function presetRange(preset: Exclude<RangePreset, 'custom'>, now: number = Date.now()): { from: string; to: string } {
  const today = iso(now);
  const d = new Date(now);
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case '7d':
      return { from: iso(now - 6 * DAY), to: today };
    case '30d':
      return { from: iso(now - 29 * DAY), to: today };
    case 'month':
      return { from: `${today.slice(0, 7)}-01`, to: today };
    case '12m':
      return { from: iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11, 1)), to: today };
  }
}

export interface StatsRange {
  preset: RangePreset;
  from: string;
  to: string;
}

/** The range an address asks for; anything unreadable falls back to the default preset. */
export function rangeFromParams(params: URLSearchParams, now: number = Date.now()): StatsRange {
  const preset = params.get('range') as RangePreset | null;
  if (preset === 'custom') {
    const from = params.get('from');
    const to = params.get('to');
    const days = isDate(from) && isDate(to) ? (Date.parse(to) - Date.parse(from)) / DAY + 1 : 0;
    if (isDate(from) && isDate(to) && days >= 1 && days <= STATS_LIMITS.maxDays) return { preset, from, to };
  }
  const p = preset && preset !== 'custom' && RANGE_PRESETS.includes(preset) ? preset : DEFAULT_PRESET;
  return { preset: p, ...presetRange(p as Exclude<RangePreset, 'custom'>, now) };
}

/** The address parameters of a range (presets carry no dates: the link stays current). */
export function rangeParams(range: { preset: RangePreset; from?: string; to?: string }): Record<string, string> {
  return range.preset === 'custom' && range.from && range.to ? { range: 'custom', from: range.from, to: range.to } : { range: range.preset };
}

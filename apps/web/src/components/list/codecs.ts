/**
 * Filter codecs: how a filter travels between the URL (strings) and the filter form (typed values).
 * Filters without a codec are plain strings both ways.
 */
import type { Dayjs } from 'dayjs';
import { dayjs } from '../../lib/dayjs-locale';
import type { FilterValue } from './useListParams';

export interface FilterCodec {
  /** URL filter strings -> form values. */
  toForm: (filters: Record<string, string | undefined>) => Record<string, unknown>;
  /** Form values -> URL filter values. */
  fromForm: (values: Record<string, unknown>) => Record<string, FilterValue>;
  /** Form field names this codec handles (others pass through). */
  fields: string[];
  /** URL filter names it reads, when not its fields' own (a date range's from and to). */
  params?: string[];
}

/** A RangePicker field `name` stored as two date filters `from`/`to` (YYYY-MM-DD). */
export function dateRangeFilter(name: string, from: string, to: string): FilterCodec {
  return {
    fields: [name],
    params: [from, to],
    toForm: (f) => {
      const a = f[from] ? dayjs(f[from]) : null;
      const b = f[to] ? dayjs(f[to]) : null;
      return { [name]: a?.isValid() || b?.isValid() ? [a?.isValid() ? a : null, b?.isValid() ? b : null] : undefined };
    },
    fromForm: (v) => {
      const range = v[name] as [Dayjs | null, Dayjs | null] | null | undefined;
      return { [from]: range?.[0]?.format('YYYY-MM-DD') ?? null, [to]: range?.[1]?.format('YYYY-MM-DD') ?? null };
    },
  };
}

/** A numeric id filter (Select / TreeSelect values are numbers). */
export function numberFilter(name: string): FilterCodec {
  return {
    fields: [name],
    toForm: (f) => ({ [name]: f[name] != null && f[name] !== '' && Number.isFinite(Number(f[name])) ? Number(f[name]) : undefined }),
    fromForm: (v) => ({ [name]: v[name] == null ? null : Number(v[name]) }),
  };
}

/** A Switch / Checkbox filter stored as 1 (absent when off). */
export function boolFilter(name: string): FilterCodec {
  return {
    fields: [name],
    toForm: (f) => ({ [name]: f[name] === '1' || f[name] === 'true' }),
    fromForm: (v) => ({ [name]: v[name] ? 1 : null }),
  };
}

export function applyToForm(filters: Record<string, string | undefined>, names: readonly string[], codecs: FilterCodec[] = []) {
  const handled = new Set(codecs.flatMap((c) => c.fields));
  const out: Record<string, unknown> = {};
  for (const n of names) if (!handled.has(n)) out[n] = filters[n];
  for (const c of codecs) Object.assign(out, c.toForm(filters));
  return out;
}

export function applyFromForm(values: Record<string, unknown>, codecs: FilterCodec[] = []) {
  const handled = new Set(codecs.flatMap((c) => c.fields));
  const out: Record<string, FilterValue> = {};
  for (const [k, v] of Object.entries(values)) {
    if (handled.has(k)) continue;
    out[k] = typeof v === 'string' ? v.trim() : (v as FilterValue);
  }
  for (const c of codecs) Object.assign(out, c.fromForm(values));
  return out;
}

/** How many filter fields hold a value (a date range counts once, a switch when on). */
export function activeFilterCount(params: { filters: Partial<Record<string, string>>; names: readonly string[] }, names?: readonly string[], codecs: FilterCodec[] = []): number {
  // URL names a codec reads under another name (a range's from and to) count as its one field.
  const read = new Set(codecs.flatMap((c) => c.params ?? []));
  const own = (names ?? params.names).filter((n) => !read.has(n));
  const values = applyToForm(params.filters as Record<string, string | undefined>, own, codecs);
  return Object.values(values).filter((v) => {
    if (v == null || v === '' || v === false) return false;
    if (Array.isArray(v)) return v.some((x) => x != null && x !== '');
    return true;
  }).length;
}

/** One line of a before/after comparison. */
export interface DiffLine {
  field: string;
  before: unknown;
  after: unknown;
  changed: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The fields of two snapshots side by side, changed ones first (in the record's order), then the rest.
 * A snapshot that is not an object (none, a list) shows as one line named `value`.
 */
export function diffLines(before: unknown, after: unknown): DiffLine[] {
  if (!isRecord(before) && !isRecord(after)) {
    return before == null && after == null ? [] : [{ field: 'value', before, after, changed: JSON.stringify(before) !== JSON.stringify(after) }];
  }
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  const lines = fields.map((field) => ({ field, before: b[field], after: a[field], changed: JSON.stringify(b[field]) !== JSON.stringify(a[field]) }));
  return [...lines.filter((l) => l.changed), ...lines.filter((l) => !l.changed)];
}

/** A value as one readable line: text as is, absent as an em dash, anything else as compact JSON. */
export function showValue(v: unknown): string {
  if (v === undefined || v === null || v === '') return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

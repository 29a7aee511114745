import { describe, expect, it } from 'vitest';
import { applyFromForm, applyToForm, boolFilter, dateRangeFilter, numberFilter } from './codecs';

describe('filter codecs', () => {
  const codecs = [dateRangeFilter('expires', 'expires_from', 'expires_to'), numberFilter('institution_id'), boolFilter('expiring')];
  it('turns URL strings into form values', () => {
    const form = applyToForm({ keyword: 'BE', expires_from: '2026-01-02', institution_id: '7', expiring: '1' }, ['keyword', 'expires_from', 'expires_to', 'institution_id', 'expiring'], codecs);
    expect(form.keyword).toBe('BE');
    expect(form.institution_id).toBe(7);
    expect(form.expiring).toBe(true);
    const range = form.expires as [{ format: (f: string) => string }, null];
    expect(range[0].format('YYYY-MM-DD')).toBe('2026-01-02');
    expect(range[1]).toBeNull();
  });
  it('turns form values into URL filters, trimming text', () => {
    const out = applyFromForm({ keyword: '  BE24 ', institution_id: 3, expiring: false, expires: null }, codecs);
    expect(out).toEqual({ keyword: 'BE24', institution_id: 3, expiring: null, expires_from: null, expires_to: null });
  });
});

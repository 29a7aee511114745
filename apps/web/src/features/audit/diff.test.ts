import { describe, expect, it } from 'vitest';
import { diffLines, showValue } from './diff';

describe('diffLines', () => {
  it('puts changed fields first and marks them', () => {
    const lines = diffLines({ id: 1, name: 'a', uses: 3, kind: 'count' }, { id: 1, name: 'b', uses: 3, kind: 'count', deleted_at: '2026-01-01' });
    expect(lines.map((l) => [l.field, l.changed])).toEqual([
      ['name', true],
      ['deleted_at', true],
      ['id', false],
      ['uses', false],
      ['kind', false],
    ]);
  });

  it('a create has only an after, a hard delete only a before', () => {
    expect(diffLines(null, { a: 1 })).toEqual([{ field: 'a', before: undefined, after: 1, changed: true }]);
    expect(diffLines({ a: 1 }, null)).toEqual([{ field: 'a', before: 1, after: undefined, changed: true }]);
    expect(diffLines(null, null)).toEqual([]);
  });

  it('compares nested values by content', () => {
    expect(diffLines({ t: { zh: 'x', en: 'y' } }, { t: { zh: 'x', en: 'y' } })[0]!.changed).toBe(false);
    expect(diffLines({ t: { zh: 'x' } }, { t: { zh: 'z' } })[0]!.changed).toBe(true);
    expect(diffLines([1], [2])).toEqual([{ field: 'value', before: [1], after: [2], changed: true }]);
  });

  it('shows values on one line', () => {
    expect(showValue(null)).toBe('—');
    expect(showValue('')).toBe('—');
    expect(showValue(0)).toBe('0');
    expect(showValue({ zh: '甲' })).toBe('{"zh":"甲"}');
  });
});

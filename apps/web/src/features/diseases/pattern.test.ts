import { describe, expect, it } from 'vitest';
import { patternIssues } from './pattern';

describe('meridian pattern rules', () => {
  it('accepts distinct conditions', () => {
    expect(
      patternIssues([
        { meridian: 'LU', status: 'excess' },
        { meridian: 'LU', status: 'imbalanced' },
        { meridian: 'KI', status: 'deficient' },
      ]).size,
    ).toBe(0);
  });
  it('reports the later row of a duplicate or an excess/deficient clash', () => {
    const issues = patternIssues([
      { meridian: 'HT', status: 'imbalanced' },
      { meridian: 'HT', status: 'imbalanced' },
      { meridian: 'LU', status: 'excess' },
      { meridian: 'LU', status: 'deficient' },
    ]);
    expect([...issues]).toEqual([
      [1, 'duplicate'],
      [3, 'conflict'],
    ]);
  });
  it('ignores incomplete rows', () => {
    expect(patternIssues([{ meridian: 'LU' }, undefined, { status: 'excess' }]).size).toBe(0);
  });
});

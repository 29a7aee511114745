import { describe, expect, it } from 'vitest';
import { bpToPercent, commissionCents, formatBp, percentToBp } from './units';

describe('percentToBp / bpToPercent', () => {
  it('converts a percentage with 2 decimals to basis points exactly', () => {
    expect(percentToBp('20')).toBe(2000);
    expect(percentToBp('12.34')).toBe(1234);
    expect(percentToBp('0.5')).toBe(50);
    expect(percentToBp('0.29')).toBe(29);
    expect(percentToBp('')).toBeNull();
    expect(percentToBp('12.345')).toBeNull();
    expect(percentToBp('-1')).toBeNull();
    expect(bpToPercent(2000)).toBe('20.00');
    expect(bpToPercent(5)).toBe('0.05');
  });
});

describe('formatBp and commissionCents', () => {
  it('shows basis points as percentages', () => {
    expect(formatBp(2000, 'en')).toBe('20%');
    expect(formatBp(1234, 'en')).toBe('12.34%');
    expect(formatBp(10_000, 'en')).toBe('100%');
    expect(formatBp(0, 'zh')).toBe('0%');
  });
  it('rounds each ancestor to a cent', () => {
    expect(commissionCents(9900, 2000, 1000)).toBe(2970);
    expect(commissionCents(1, 5000, 5000)).toBe(2);
    expect(commissionCents(0, 2000, 1000)).toBe(0);
  });
});

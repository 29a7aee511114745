import { describe, expect, it } from 'vitest';
import { centsToDecimal, decimalToCents, decimalToUnits, formatMoney, formatNumber, unitsToDecimal } from './money';

describe('formatMoney', () => {
  it('formats integer cents', () => {
    expect(formatMoney(123450, 'en')).toBe('CN¥1,234.50');
    expect(formatMoney(5, 'en')).toBe('CN¥0.05');
    expect(formatMoney(-199, 'en')).toBe('-CN¥1.99');
    expect(formatMoney(123450, 'zh')).toBe('¥1,234.50');
  });
  it('handles empty values', () => {
    expect(formatMoney(null, 'en')).toBe('');
    expect(formatMoney(undefined, 'en')).toBe('');
  });
  it('formats numbers', () => {
    expect(formatNumber(10000, 'en')).toBe('10,000');
  });
});

describe('decimalToCents / centsToDecimal (exact, no floats)', () => {
  it('reads plain amounts', () => {
    expect(decimalToCents('12.3')).toBe(1230);
    expect(decimalToCents('0.1')).toBe(10);
    expect(decimalToCents('0.29')).toBe(29);
    expect(decimalToCents('19.99')).toBe(1999);
    expect(decimalToCents('7')).toBe(700);
    expect(decimalToCents('7.')).toBe(700);
    expect(decimalToCents('.5')).toBe(50);
    expect(decimalToCents('0')).toBe(0);
    expect(decimalToCents('00012.30')).toBe(1230);
    expect(decimalToCents(' 12.30 ')).toBe(1230);
    expect(decimalToCents('1.500')).toBe(150);
    expect(decimalToCents('1000000')).toBe(100_000_000);
    expect(decimalToCents(19.99)).toBe(1999);
    expect(decimalToCents(12.5)).toBe(1250);
  });
  it('refuses negatives, signs, grouping, exponents and too many decimals', () => {
    expect(decimalToCents('-2.5')).toBeNull();
    expect(decimalToCents('-0')).toBeNull();
    expect(decimalToCents('+5')).toBeNull();
    expect(decimalToCents(-1)).toBeNull();
    expect(decimalToCents('1.005')).toBeNull();
    expect(decimalToCents('19.995')).toBeNull();
    expect(decimalToCents(0.1 + 0.2)).toBeNull();
    // Decided: no thousands separators (in es the comma is the decimal separator, so it is never guessed).
    expect(decimalToCents('1,234.56')).toBeNull();
    expect(decimalToCents('1,5')).toBeNull();
    expect(decimalToCents('1 234')).toBeNull();
    expect(decimalToCents('1e3')).toBeNull();
    expect(decimalToCents(1e21)).toBeNull();
    expect(decimalToCents('90071992547409.93')).toBeNull();
  });
  it('refuses empty and non-numbers', () => {
    for (const v of ['', ' ', '.', 'abc', '12a', '0x10', null, undefined, Number.NaN, Number.POSITIVE_INFINITY]) expect(decimalToCents(v)).toBeNull();
  });
  it('writes cents as decimal text', () => {
    expect(centsToDecimal(1230)).toBe('12.30');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(0)).toBe('0.00');
    expect(centsToDecimal(-250)).toBe('-2.50');
    expect(centsToDecimal(-5)).toBe('-0.05');
    expect(centsToDecimal(100_000_000)).toBe('1000000.00');
    expect(centsToDecimal(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
  });
  it('round-trips', () => {
    for (const n of [0, 1, 10, 99, 100, 12345, 100_000_000, Number.MAX_SAFE_INTEGER]) expect(decimalToCents(centsToDecimal(n))).toBe(n);
  });
  it('works at other scales (basis points from a percent with 2 decimals, whole numbers)', () => {
    expect(decimalToUnits('12.34', 2)).toBe(1234);
    expect(decimalToUnits('12', 0)).toBe(12);
    expect(decimalToUnits('12.5', 0)).toBeNull();
    expect(decimalToUnits('12.345', 3)).toBe(12345);
    expect(unitsToDecimal(12, 0)).toBe('12');
    expect(unitsToDecimal(12345, 3)).toBe('12.345');
  });
});

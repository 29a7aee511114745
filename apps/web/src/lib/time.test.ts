import { describe, expect, it } from 'vitest';
import { classifyRelative, formatDateTime, relativeTime } from './time';

const now = new Date(2026, 10, 22, 12, 0, 0).getTime();
const ago = (ms: number) => now - ms;
const S = 1000,
  M = 60 * S,
  H = 60 * M,
  D = 24 * H;

describe('classifyRelative (spec §9 boundaries)', () => {
  it('just now under 30 s', () => {
    expect(classifyRelative(ago(0), now)).toEqual({ kind: 'justNow' });
    expect(classifyRelative(ago(29_999), now)).toEqual({ kind: 'justNow' });
    expect(classifyRelative(ago(-5 * S), now)).toEqual({ kind: 'justNow' });
  });
  it('minutes from 30 s to under 1 h', () => {
    expect(classifyRelative(ago(30 * S), now)).toEqual({ kind: 'minutes', value: 1 });
    expect(classifyRelative(ago(5 * M + 10 * S), now)).toEqual({ kind: 'minutes', value: 5 });
    expect(classifyRelative(ago(H - 1), now)).toEqual({ kind: 'minutes', value: 59 });
  });
  it('hours from 1 h to under 1 day', () => {
    expect(classifyRelative(ago(H), now)).toEqual({ kind: 'hours', value: 1 });
    expect(classifyRelative(ago(D - 1), now)).toEqual({ kind: 'hours', value: 23 });
  });
  it('1 day ago from 1 day to under 2 days', () => {
    expect(classifyRelative(ago(D), now)).toEqual({ kind: 'oneDay' });
    expect(classifyRelative(ago(2 * D - 1), now)).toEqual({ kind: 'oneDay' });
  });
  it('the date from 2 days', () => {
    const r = classifyRelative(ago(2 * D), now);
    expect(r.kind).toBe('date');
  });
});

describe('relativeTime', () => {
  it('is localized', () => {
    expect(relativeTime(ago(10 * S), 'en', now)).toBe('just now');
    expect(relativeTime(ago(10 * S), 'zh', now)).toBe('刚刚');
    expect(relativeTime(ago(3 * M), 'en', now)).toBe('3 minutes ago');
    expect(relativeTime(ago(1 * M), 'en', now)).toBe('1 minute ago');
    expect(relativeTime(ago(3 * M), 'es', now)).toBe('hace 3 minutos');
    expect(relativeTime(ago(2 * H), 'en', now)).toBe('2 hours ago');
    expect(relativeTime(ago(2 * H), 'zh', now)).toBe('2小时前');
    expect(relativeTime(ago(2 * H), 'ja', now)).toBe('2 時間前');
    expect(relativeTime(ago(D + H), 'en', now)).toBe('1 day ago');
  });
  it('shows the date past 2 days', () => {
    expect(relativeTime(new Date(2026, 10, 1, 9, 5), 'en', now)).toBe('2026-11-01 09:05');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('nonsense')).toBe('');
  });
});

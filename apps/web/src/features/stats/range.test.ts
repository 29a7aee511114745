import { describe, expect, it } from 'vitest';
import { presetRange, rangeFromParams, rangeParams } from './range';

const NOW = Date.parse('2026-03-15T10:00:00Z');

describe('stats range', () => {
  it('computes the presets in UTC days', () => {
    expect(presetRange('today', NOW)).toEqual({ from: '2026-03-15', to: '2026-03-15' });
    expect(presetRange('7d', NOW)).toEqual({ from: '2026-03-09', to: '2026-03-15' });
    expect(presetRange('30d', NOW)).toEqual({ from: '2026-02-14', to: '2026-03-15' });
    expect(presetRange('month', NOW)).toEqual({ from: '2026-03-01', to: '2026-03-15' });
    expect(presetRange('12m', NOW)).toEqual({ from: '2025-04-01', to: '2026-03-15' });
  });

  it('reads the address, falling back to 30 days on anything unreadable', () => {
    expect(rangeFromParams(new URLSearchParams('range=7d'), NOW)).toEqual({ preset: '7d', from: '2026-03-09', to: '2026-03-15' });
    expect(rangeFromParams(new URLSearchParams('range=custom&from=2025-01-01&to=2025-01-31'), NOW)).toEqual({ preset: 'custom', from: '2025-01-01', to: '2025-01-31' });
    for (const bad of ['', 'range=week', 'range=custom&from=2025-02-01&to=2025-01-01', 'range=custom&from=2020-01-01&to=2025-01-01', 'range=custom&from=x&to=2025-01-01'])
      expect(rangeFromParams(new URLSearchParams(bad), NOW).preset, bad).toBe('30d');
  });

  it('writes presets without dates and custom ranges with them', () => {
    expect(rangeParams({ preset: '12m', from: '2025-04-01', to: '2026-03-15' })).toEqual({ range: '12m' });
    expect(rangeParams({ preset: 'custom', from: '2025-01-01', to: '2025-01-31' })).toEqual({ range: 'custom', from: '2025-01-01', to: '2025-01-31' });
  });
});

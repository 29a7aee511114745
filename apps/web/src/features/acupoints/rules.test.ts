import { describe, expect, it } from 'vitest';
import { ACUPOINT_CODE_RE, normalizeCode, toWireActions, totalMinutes } from './rules';

describe('acupoint rules', () => {
  it('accepts the contract codes', () => {
    for (const ok of ['LU9', 'GV20', 'EX-HN3', 'BL64']) expect(ACUPOINT_CODE_RE.test(ok)).toBe(true);
    for (const bad of ['9LU', 'L', 'lu9', 'LU 9', 'ABCDEFGHIJKLMNOPQ']) expect(ACUPOINT_CODE_RE.test(bad)).toBe(false);
    expect(normalizeCode(' lu 9')).toBe('LU9');
  });
  it('sums minutes and rounds the wire values', () => {
    expect(totalMinutes([{ minutes: 10 }, { minutes: 5 }, {}])).toBe(15);
    expect(toWireActions([{ waveform: 'sawtooth', frequency_hz: 2.556, intensity_min: 10.4, intensity_max: 20, minutes: 3 }])).toEqual([
      { waveform: 'sawtooth', frequency_hz: 2.56, intensity_min: 10, intensity_max: 20, minutes: 3 },
    ]);
  });
});

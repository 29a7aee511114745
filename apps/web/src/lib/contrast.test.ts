import { describe, expect, it } from 'vitest';
import { THEME_PRESETS } from '@app/contract/constants';
import { contrast, readableOnDark, readablePrimary } from './contrast';

describe('contrast', () => {
  it('matches the WCAG figures', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrast('#1890ff', '#ffffff')).toBeCloseTo(3.26, 1);
  });

  it('gives every preset a primary that white text and white pages read at 4.5:1, keeping dark enough ones as they are', () => {
    for (const preset of THEME_PRESETS) {
      const p = readablePrimary(preset);
      expect(contrast(p, '#ffffff'), preset).toBeGreaterThanOrEqual(4.5);
      expect(p).toMatch(/^#[0-9a-f]{6}$/);
    }
    expect(readablePrimary('#304156')).toBe('#304156');
    expect(readablePrimary('#1890FF')).not.toBe('#1890ff');
  });

  it('lightens the colour for text on a dark page', () => {
    for (const preset of THEME_PRESETS) expect(contrast(readableOnDark(preset, '#141414'), '#141414'), preset).toBeGreaterThanOrEqual(4.5);
  });
});

import { describe, expect, it } from 'vitest';
import { toWireWeights, weightShares } from './weights';

describe('system weights', () => {
  it('keeps positive weights only', () => {
    expect(toWireWeights({ LU: 2, HT: 0, KI: null, SP: undefined, LR: 150, ST: 1.005 })).toEqual({ LU: 2, LR: 100, ST: 1 });
    expect(toWireWeights(undefined)).toEqual({});
  });
  it('gives each meridian its share', () => {
    const s = weightShares({ LU: 1, LI: 3 });
    expect(s.LU).toBe(0.25);
    expect(s.LI).toBe(0.75);
    expect(s.HT).toBe(0);
    expect(weightShares({}).LU).toBe(0);
  });
});

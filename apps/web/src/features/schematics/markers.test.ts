import { describe, expect, it } from 'vitest';
import { markerKeys, nudge, percent, toFraction, toWireMarkers } from './markers';

describe('marker positions', () => {
  const box = { left: 100, top: 50, width: 400, height: 800 };
  it('turns a click into fractions of the image box', () => {
    expect(toFraction(300, 250, box)).toEqual({ x: 0.5, y: 0.25 });
    expect(toFraction(100, 50, box)).toEqual({ x: 0, y: 0 });
    expect(toFraction(133.3333, 50, box)).toEqual({ x: 0.0833, y: 0 });
  });
  it('keeps positions inside the image', () => {
    expect(toFraction(50, 900, box)).toEqual({ x: 0, y: 1 });
  });
  it('refuses a box without size', () => {
    expect(toFraction(1, 1, { left: 0, top: 0, width: 0, height: 10 })).toBeNull();
  });
  it('formats and sends only id and position', () => {
    expect(percent(0.12345)).toBe('12.3%');
    const extra = { acupoint_id: 3, x: 0.123456, y: 2, code: 'LU9' } as unknown as Parameters<typeof toWireMarkers>[0][number];
    expect(toWireMarkers([extra])).toEqual([{ acupoint_id: 3, x: 0.1235, y: 1 }]);
  });
  it('nudges a position, keeping it inside the image', () => {
    expect(nudge({ x: 0.5, y: 0.5 }, 0.005, -0.05)).toEqual({ x: 0.505, y: 0.45 });
    expect(nudge({ x: 0.998, y: 0.01 }, 0.005, -0.05)).toEqual({ x: 1, y: 0 });
  });
  it('keys markers by acupoint, numbering repeats, whatever their position', () => {
    expect(markerKeys([{ acupoint_id: 3 }, { acupoint_id: 5 }, { acupoint_id: 3 }, { acupoint_id: 3 }])).toEqual(['3', '5', '3#1', '3#2']);
    expect(markerKeys([{ acupoint_id: 5 }, { acupoint_id: 3 }])).toEqual(['5', '3']);
  });
});

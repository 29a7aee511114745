/**
 * The analysis module against hand-computed examples: every boundary of domain.md "Inspections".
 * The arithmetic of each case is written next to it.
 */
import { describe, expect, it } from 'vitest';
import { type AnalysisMaster, type AnalysisMasterSystem, analyse, isImbalanced, meridianReadings, ratioHalfUp, type Readings, roundHalfUp } from './analysis';
import type { Meridian } from './api/meridians';
import type { L10n } from './i18n';

const l10n = (en: string): L10n => ({ zh: `${en}-zh`, en, es: `${en}-es`, ja: `${en}-ja` });
const noMaster: AnalysisMaster = { systems: [], diseases: [], acupoints: [], schematics: [] };

/** Every reading `c`, then the given meridians replaced by [left, right]. */
function readings(c: number, set: Partial<Record<Meridian, [number, number]>> = {}): Readings {
  const base = { LU: [c, c], PC: [c, c], HT: [c, c], SI: [c, c], TE: [c, c], LI: [c, c], SP: [c, c], LR: [c, c], KI: [c, c], BL: [c, c], GB: [c, c], ST: [c, c] } as Readings;
  return { ...base, ...set };
}
const row = (a: ReturnType<typeof analyse>, m: Meridian) => a.meridians.find((r) => r.meridian === m)!;
const system = (id: number, weights: AnalysisMasterSystem['weights']): AnalysisMasterSystem => ({ id, name: l10n(`system ${id}`), weights });
const scoreOf = (r: Readings, weights: AnalysisMasterSystem['weights']) => analyse(r, { ...noMaster, systems: [system(1, weights)] }).systems[0];

describe('half-up rounding on exact values', () => {
  it('rounds a number by the decimal it is written as, not its binary value', () => {
    expect(roundHalfUp(1.005)).toBe(1.01); // Math.round(1.005 * 100) / 100 gives 1
    expect(roundHalfUp(1.015)).toBe(1.02);
    expect(roundHalfUp(2.675)).toBe(2.68); // (2.675).toFixed(2) gives "2.67"
    expect(roundHalfUp(0.125)).toBe(0.13);
    expect(roundHalfUp(1.004999)).toBe(1);
    expect(roundHalfUp(-1.005)).toBe(-1.01); // half away from zero
    expect(roundHalfUp(48.5, 0)).toBe(49);
    expect(roundHalfUp(1e-7)).toBe(0);
    expect(roundHalfUp(123)).toBe(123);
    expect(roundHalfUp(5e-3)).toBe(0.01);
    expect(roundHalfUp(2.5e-3)).toBe(0); // 0.0025: the third decimal is 2
  });

  it('rounds a ratio of integers exactly', () => {
    expect(ratioHalfUp(201, 200)).toBe(1.01); // 1.005
    expect(ratioHalfUp(203, 200)).toBe(1.02); // 1.015
    expect(ratioHalfUp(97, 2, 0)).toBe(49); // 48.5
    expect(ratioHalfUp(1, 3)).toBe(0.33);
    expect(ratioHalfUp(2, 3)).toBe(0.67);
    expect(ratioHalfUp(0, 7)).toBe(0);
    expect(ratioHalfUp(-201, 200)).toBe(-1.01);
    expect(() => ratioHalfUp(1, 0)).toThrow(RangeError);
  });
});

describe('readings', () => {
  it('the schema takes 12 meridians of two integers 0-200 and nothing else', () => {
    expect(meridianReadings.safeParse(readings(0, { LU: [200, 0] })).success).toBe(true);
    expect(meridianReadings.safeParse(readings(201)).success).toBe(false);
    expect(meridianReadings.safeParse(readings(-1)).success).toBe(false);
    expect(meridianReadings.safeParse(readings(1.5)).success).toBe(false);
    expect(meridianReadings.safeParse({ ...readings(1), XX: [1, 1] }).success).toBe(false);
    const { ST: _, ...missing } = readings(1);
    expect(meridianReadings.safeParse(missing).success).toBe(false);
    expect(meridianReadings.safeParse(readings(1, { LU: [1, 1, 1] as unknown as [number, number] })).success).toBe(false);
  });

  it('analyse refuses readings that are not 24 integers 0-200', () => {
    expect(() => analyse(readings(201), noMaster)).toThrow(RangeError);
    expect(() => analyse(readings(100, { KI: [100, 0.5] }), noMaster)).toThrow(RangeError);
    const { ST: _, ...missing } = readings(1);
    expect(() => analyse(missing as Readings, noMaster)).toThrow(RangeError);
  });
});

describe('baseline, values and statuses', () => {
  it('a constant reading: baseline = the reading, all normal, indices 1.00, answer in device order', () => {
    const a = analyse(readings(100), noMaster);
    expect(a.baseline).toBe(100);
    expect(a.meridians.map((r) => r.meridian)).toEqual(['LU', 'PC', 'HT', 'SI', 'TE', 'LI', 'SP', 'LR', 'KI', 'BL', 'GB', 'ST']);
    expect(a.meridians.every((r) => r.status === 'normal' && !r.imbalanced && r.value === 100 && r.left === 100 && r.right === 100)).toBe(true);
    expect(a.indices).toEqual({ yin_yang: 1, upper_lower: 1, left_right: 1 });
    expect(a).toMatchObject({ systems: [], diseases: [], advice: { acupoints: [], schematics: [] } });
  });

  it('the bounds baseline + 15 and baseline - 15 are normal', () => {
    // LU 115 and PC 85 balance out: total 2400, baseline 100 exactly.
    const a = analyse(readings(100, { LU: [115, 115], PC: [85, 85] }), noMaster);
    expect(a.baseline).toBe(100);
    expect(row(a, 'LU')).toMatchObject({ value: 115, status: 'normal' });
    expect(row(a, 'PC')).toMatchObject({ value: 85, status: 'normal' });
  });

  it('half a point past the bound is excess / deficient', () => {
    // LU (116 + 115) / 2 = 115.5, PC (85 + 84) / 2 = 84.5, total still 2400: baseline 100.
    const a = analyse(readings(100, { LU: [116, 115], PC: [85, 84] }), noMaster);
    expect(row(a, 'LU')).toMatchObject({ left: 116, right: 115, value: 115.5, status: 'excess' });
    expect(row(a, 'PC')).toMatchObject({ value: 84.5, status: 'deficient' });
    expect(row(a, 'HT').status).toBe('normal');
  });

  it('compares with the exact baseline when it is not a whole number', () => {
    // LU 85 (-30) and PC [115, 116] (+31): total 2401, baseline 100.041666..., shown 100.04.
    // LU 85 < 85.0416 -> deficient (just); PC 115.5 > 115.0416 -> excess.
    const a = analyse(readings(100, { LU: [85, 85], PC: [115, 116] }), noMaster);
    expect(a.baseline).toBe(100.04);
    expect(row(a, 'LU')).toMatchObject({ value: 85, status: 'deficient' });
    expect(row(a, 'PC')).toMatchObject({ value: 115.5, status: 'excess' });
    expect(row(a, 'HT').status).toBe('normal');
    // LU [85, 86] = 85.5 with PC [115, 115]: total 2401 again; 85.5 >= 85.0416 -> normal.
    expect(row(analyse(readings(100, { LU: [85, 86], PC: [115, 115] }), noMaster), 'LU').status).toBe('normal');
  });

  it('rounds the baseline half-up to 2 decimals', () => {
    expect(analyse(readings(0, { LU: [3, 0] }), noMaster).baseline).toBe(0.13); // 3 / 24 = 0.125
    expect(analyse(readings(100, { LU: [100, 115] }), noMaster).baseline).toBe(100.63); // 2415 / 24 = 100.625
    expect(analyse(readings(100, { LU: [100, 101] }), noMaster).baseline).toBe(100.04); // 2401 / 24 = 100.041666
    expect(analyse(readings(100, { LU: [100, 111] }), noMaster).baseline).toBe(100.46); // 2411 / 24 = 100.458333
    expect(analyse(readings(100, { LU: [100, 99] }), noMaster).baseline).toBe(99.96); // 2399 / 24 = 99.958333
  });

  it('all readings zero: baseline 0, all normal, none imbalanced, every index null', () => {
    const a = analyse(readings(0), noMaster);
    expect(a.baseline).toBe(0);
    expect(a.meridians.every((r) => r.status === 'normal' && !r.imbalanced && r.value === 0)).toBe(true);
    expect(a.indices).toEqual({ yin_yang: null, upper_lower: null, left_right: null });
  });
});

describe('left/right imbalance', () => {
  it('exactly 2x is not imbalanced, above 2x is', () => {
    expect(isImbalanced(100, 50)).toBe(false);
    expect(isImbalanced(50, 100)).toBe(false);
    expect(isImbalanced(101, 50)).toBe(true);
    expect(isImbalanced(50, 101)).toBe(true);
    expect(isImbalanced(2, 1)).toBe(false);
    expect(isImbalanced(3, 1)).toBe(true);
  });

  it('a zero side against a non-zero side is imbalanced; both zero is not', () => {
    expect(isImbalanced(0, 1)).toBe(true);
    expect(isImbalanced(200, 0)).toBe(true);
    expect(isImbalanced(0, 0)).toBe(false);
    const a = analyse(readings(100, { LU: [100, 50], PC: [101, 50], HT: [0, 1], SI: [0, 0] }), noMaster);
    expect([row(a, 'LU'), row(a, 'PC'), row(a, 'HT'), row(a, 'SI')].map((r) => r.imbalanced)).toEqual([false, true, true, false]);
    expect(row(a, 'HT').value).toBe(0.5);
  });
});

describe('indices', () => {
  it('are the ratios of the two sums, half-up at .xx5 where binary floats round down', () => {
    // left: 11 x 170 + 140 = 2010; right: 11 x 170 + 130 = 2000 -> 1.005 -> 1.01.
    const a = analyse(readings(170, { LU: [140, 170], ST: [170, 130] }), noMaster);
    expect(Math.round((2010 / 2000) * 100) / 100).toBe(1); // the trap
    expect(a.indices.left_right).toBe(1.01);
    // yin: LU PC HT SP LR KI = 140+170 + 10 x 170 = 2010; yang: 11 x 170 + 130 = 2000.
    expect(a.indices.yin_yang).toBe(1.01);
    // hand LU..LI: 310 + 10 x 170 = 2010; foot SP..ST: 10 x 170 + 300 = 2000.
    expect(a.indices.upper_lower).toBe(1.01);
    // 1.015: left 2030 / right 2000.
    expect(analyse(readings(170, { LU: [160, 170], ST: [170, 130] }), noMaster).indices.left_right).toBe(1.02);
  });

  it('a zero numerator gives 0, a zero divisor gives null', () => {
    // yin meridians 100, yang meridians 0: yin/yang 1200 / 0; hand LU PC HT = 600, foot SP LR KI = 600.
    const yinOnly = analyse(readings(0, { LU: [100, 100], PC: [100, 100], HT: [100, 100], SP: [100, 100], LR: [100, 100], KI: [100, 100] }), noMaster);
    expect(yinOnly.indices).toEqual({ yin_yang: null, upper_lower: 1, left_right: 1 });
    const yangOnly = analyse(readings(100, { LU: [0, 0], PC: [0, 0], HT: [0, 0], SP: [0, 0], LR: [0, 0], KI: [0, 0] }), noMaster);
    expect(yangOnly.indices.yin_yang).toBe(0);
    // every left 0: left/right 0, every meridian imbalanced (a zero side); every right 0: null.
    const leftZero = analyse(readings(0, { LU: [0, 10], ST: [0, 30] }), noMaster);
    expect(leftZero.indices.left_right).toBe(0);
    expect(analyse(readings(0, { LU: [10, 0] }), noMaster).indices).toEqual({ yin_yang: null, upper_lower: null, left_right: null });
    // hand all 0, foot not: upper/lower 0; foot all 0: null.
    expect(analyse(readings(0, { ST: [5, 5] }), noMaster).indices.upper_lower).toBe(0);
    expect(analyse(readings(0, { LU: [5, 5] }), noMaster).indices.upper_lower).toBe(null);
  });

  it('1/3 and 2/3 round to 0.33 and 0.67', () => {
    // Only LU is not zero: left / right = LU left / LU right.
    expect(analyse(readings(0, { LU: [50, 100] }), noMaster).indices.left_right).toBe(0.5);
    expect(analyse(readings(0, { LU: [1, 3] }), noMaster).indices.left_right).toBe(0.33);
    expect(analyse(readings(0, { LU: [2, 3] }), noMaster).indices.left_right).toBe(0.67);
  });
});

describe('system scores', () => {
  // The profile of the disease tests: LU 130 (+30), KI 70 (-30), HT [150, 60] = 105 (+5), ST 95 (-5):
  // total 2400, baseline 100. Deviations d: LU 0.6, KI 0.6, HT 0.1, ST 0.1, others 0.
  const profile = readings(100, { LU: [130, 130], KI: [70, 70], HT: [150, 60], ST: [95, 95] });

  it('score = round(100 x sum(w x d) / sum(w)); systems keep the master order; no weights: left out', () => {
    const a = analyse(profile, {
      ...noMaster,
      systems: [
        system(1, { LU: 3, LI: 2, KI: 1 }), // (3 x 0.6 + 0 + 0.6) / 6 = 0.4 -> 40
        system(2, {}), // no weights: left out
        system(3, { HT: 3, PC: 2, SI: 1 }), // 0.3 / 6 = 0.05 -> 5
        system(4, { LU: 0.1, KI: 0.2 }), // (0.06 + 0.12) / 0.3 = 0.6 -> 60
        system(5, { ST: 1, HT: 1, LU: 1 }), // 0.8 / 3 = 0.2666 -> 27
      ],
    });
    expect(a.systems).toEqual([
      { id: 1, name: l10n('system 1'), score: 40, level: 'attention' },
      { id: 3, name: l10n('system 3'), score: 5, level: 'normal' },
      { id: 4, name: l10n('system 4'), score: 60, level: 'abnormal' },
      { id: 5, name: l10n('system 5'), score: 27, level: 'normal' },
    ]);
  });

  it('reads decimal weights as the decimals they are written as', () => {
    expect(scoreOf(profile, { LU: 1.5, HT: 0.5 })).toEqual(scoreOf(profile, { LU: 3, HT: 1 })); // (1.8 + 0.1) / 4 = 0.475 -> 48 (tie)
    expect(scoreOf(profile, { LU: 3, HT: 1 })?.score).toBe(48);
    expect(scoreOf(profile, { LU: 0.3, HT: 0.1 })?.score).toBe(48);
    expect(scoreOf(profile, { LU: 0.000003, HT: 0.000001 })?.score).toBe(48);
  });

  it('a system whose only weights are for unknown meridians or not positive is left out', () => {
    const weights = { XX: 3, LU: 0 } as unknown as AnalysisMasterSystem['weights'];
    expect(analyse(profile, { ...noMaster, systems: [system(1, weights)] }).systems).toEqual([]);
  });

  it('level boundaries on the rounded score: 29 normal, 29.5 -> 30 attention, 59 attention, 59.5 -> 60 and 60 abnormal', () => {
    // LU [61, 101] = 81, PC 65, rest 100: total 2292, baseline 95.5, |81 - 95.5| = 14.5 -> 0.29 -> 29.
    expect(scoreOf(readings(100, { LU: [61, 101], PC: [65, 65] }), { LU: 1 })).toMatchObject({ score: 29, level: 'normal' });
    // LU [63, 103] = 83, PC 90: total 2346, baseline 97.75, 14.75 -> 0.295 -> 29.5 -> 30.
    expect(scoreOf(readings(100, { LU: [63, 103], PC: [90, 90] }), { LU: 1 })).toMatchObject({ score: 30, level: 'attention' });
    // LU [46, 86] = 66, PC 80: total 2292, baseline 95.5, 29.5 -> 0.59 -> 59.
    expect(scoreOf(readings(100, { LU: [46, 86], PC: [80, 80] }), { LU: 1 })).toMatchObject({ score: 59, level: 'attention' });
    // LU [43, 83] = 63, PC 50: total 2226, baseline 92.75, 29.75 -> 0.595 -> 59.5 -> 60.
    expect(scoreOf(readings(100, { LU: [43, 83], PC: [50, 50] }), { LU: 1 })).toMatchObject({ score: 60, level: 'abnormal' });
    // LU [45, 85] = 65, PC 75: total 2280, baseline 95, 30 -> 0.6 -> 60.
    expect(scoreOf(readings(100, { LU: [45, 85], PC: [75, 75] }), { LU: 1 })).toMatchObject({ score: 60, level: 'abnormal' });
  });

  it('rounds the exact score half-up where binary floats round down', () => {
    // LU 65, PC 60, rest 100: total 2250, baseline 93.75, |65 - 93.75| = 28.75 -> 0.575 -> 57.5 -> 58.
    const r = readings(100, { LU: [65, 65], PC: [60, 60] });
    expect(Math.round(100 * Math.min(1, Math.abs(65 - 2250 / 24) / 50))).toBe(57); // the trap
    expect(scoreOf(r, { LU: 1 })?.score).toBe(58);
  });

  it('a deviation of more than 50 counts as 1', () => {
    // LU 0, PC 40, rest 100: total 2080, baseline 86.67; |0 - 86.67| > 50 -> d = 1.
    expect(scoreOf(readings(100, { LU: [0, 0], PC: [40, 40] }), { LU: 1 })).toMatchObject({ score: 100, level: 'abnormal' });
    // PC: |40 - 86.666| = 46.666 -> 0.9333 -> 93.
    expect(scoreOf(readings(100, { LU: [0, 0], PC: [40, 40] }), { PC: 1 })?.score).toBe(93);
    expect(scoreOf(readings(100, { LU: [0, 0], PC: [40, 40] }), { LU: 1, PC: 1 })?.score).toBe(97); // (1 + 0.9333) / 2 = 0.9667
  });

  it('a constant reading scores 0', () => {
    expect(scoreOf(readings(77), { LU: 3, ST: 2 })).toMatchObject({ score: 0, level: 'normal' });
  });
});

describe('diseases and advice', () => {
  // LU excess (130), KI deficient (70), HT normal and imbalanced ([150, 60]: 150 > 120), ST normal (95).
  const profile = readings(100, { LU: [130, 130], KI: [70, 70], HT: [150, 60], ST: [95, 95] });
  const disease = (id: number, pattern: [Meridian, 'excess' | 'deficient' | 'imbalanced'][], acupoint_ids: number[]) => ({
    id,
    name: l10n(`disease ${id}`),
    pattern: pattern.map(([meridian, status]) => ({ meridian, status })),
    acupoint_ids,
  });
  const acupoint = (id: number) => ({ id, code: `P${id}`, name: l10n(`point ${id}`) });
  const schematic = (id: number, acupoint_ids: number[]) => ({ id, title: l10n(`diagram ${id}`), url: `/adminapi/uploads/builtin-${id}.png`, acupoint_ids });
  const master: AnalysisMaster = {
    systems: [],
    diseases: [
      disease(
        15,
        [
          ['PC', 'excess'],
          ['SP', 'deficient'],
        ],
        [7],
      ), // 0/2: left out
      disease(
        16,
        [
          ['LU', 'deficient'],
          ['HT', 'excess'],
          ['KI', 'deficient'],
        ],
        [9, 6],
      ), // 1/3 low (9 is unknown)
      disease(11, [['LU', 'excess']], [1, 2]), // 1/1 high
      disease(
        14,
        [
          ['HT', 'imbalanced'],
          ['SP', 'excess'],
          ['LR', 'deficient'],
        ],
        [6, 3],
      ), // 1/3 low
      disease(
        13,
        [
          ['LU', 'excess'],
          ['KI', 'excess'],
        ],
        [2, 5],
      ), // 1/2 medium
      disease(
        12,
        [
          ['LU', 'excess'],
          ['KI', 'deficient'],
          ['HT', 'imbalanced'],
        ],
        [3, 1],
      ), // 3/3 high
      disease(
        17,
        [
          ['LU', 'imbalanced'],
          ['KI', 'deficient'],
          ['HT', 'imbalanced'],
        ],
        [4],
      ), // 2/3 medium
      disease(18, [['ST', 'deficient']], [8]), // ST 95 is normal: 0/1 left out
    ],
    acupoints: [1, 2, 3, 4, 5, 6, 7, 8].map(acupoint),
    schematics: [schematic(21, [2, 7]), schematic(22, [1]), schematic(23, [7]), schematic(24, [3, 5])],
  };
  const a = analyse(profile, master);

  it('statuses of the profile', () => {
    expect(a.baseline).toBe(100);
    expect(a.meridians.filter((r) => r.status !== 'normal').map((r) => [r.meridian, r.status])).toEqual([
      ['LU', 'excess'],
      ['KI', 'deficient'],
    ]);
    expect(a.meridians.filter((r) => r.imbalanced).map((r) => r.meridian)).toEqual(['HT']);
  });

  it('share = matched / all conditions; high at 1, medium from 0.5, low above 0; 0 left out; most severe first', () => {
    expect(a.diseases).toEqual([
      { id: 12, name: l10n('disease 12'), share: 1, risk: 'high' }, // 3 of 3: more matched than 11
      { id: 11, name: l10n('disease 11'), share: 1, risk: 'high' }, // 1 of 1
      { id: 17, name: l10n('disease 17'), share: 0.67, risk: 'medium' }, // 2 of 3
      { id: 13, name: l10n('disease 13'), share: 0.5, risk: 'medium' }, // 1 of 2: exactly 0.5
      { id: 16, name: l10n('disease 16'), share: 0.33, risk: 'low' }, // 1 of 3, listed before 14 in the master
      { id: 14, name: l10n('disease 14'), share: 0.33, risk: 'low' },
    ]);
  });

  it('a disease with one condition is high or left out', () => {
    const one = (status: 'excess' | 'deficient' | 'imbalanced', m: Meridian) => analyse(profile, { ...master, diseases: [disease(1, [[m, status]], [])] }).diseases;
    expect(one('excess', 'LU')).toEqual([{ id: 1, name: l10n('disease 1'), share: 1, risk: 'high' }]);
    expect(one('imbalanced', 'HT')).toHaveLength(1);
    expect(one('deficient', 'LU')).toEqual([]);
    expect(one('imbalanced', 'LU')).toEqual([]);
  });

  it('many conditions: 1 of 4 low (0.25), 2 of 4 medium (0.5), 3 of 4 medium (0.75), 4 of 4 high', () => {
    const of4 = (matches: number) => {
      const hits: [Meridian, 'excess' | 'deficient' | 'imbalanced'][] = [
        ['LU', 'excess'],
        ['KI', 'deficient'],
        ['HT', 'imbalanced'],
        ['SI', 'imbalanced'],
      ];
      const misses: [Meridian, 'excess' | 'deficient' | 'imbalanced'][] = [
        ['PC', 'excess'],
        ['SP', 'deficient'],
        ['GB', 'imbalanced'],
        ['BL', 'excess'],
      ];
      // The profile plus SI [60, 150] (imbalanced) and BL 95 (normal): total still 2400.
      const r = { ...profile, SI: [60, 150], BL: [95, 95] } as Readings;
      return analyse(r, { ...master, diseases: [disease(1, [...hits.slice(0, matches), ...misses.slice(matches)], [])] }).diseases[0];
    };
    expect(of4(0)).toBeUndefined();
    expect(of4(1)).toMatchObject({ share: 0.25, risk: 'low' });
    expect(of4(2)).toMatchObject({ share: 0.5, risk: 'medium' });
    expect(of4(3)).toMatchObject({ share: 0.75, risk: 'medium' });
    expect(of4(4)).toMatchObject({ share: 1, risk: 'high' });
  });

  it('2 of 5 is low (0.4), 1 of 7 is low and rounds to 0.14', () => {
    const misses: [Meridian, 'excess'][] = (['PC', 'SP', 'LR', 'BL', 'GB', 'SI'] as Meridian[]).map((m) => [m, 'excess']);
    const d5 = analyse(profile, { ...master, diseases: [disease(1, [['LU', 'excess'], ['KI', 'deficient'], ...misses.slice(0, 3)], [])] }).diseases[0];
    expect(d5).toMatchObject({ share: 0.4, risk: 'low' });
    const d7 = analyse(profile, { ...master, diseases: [disease(1, [['LU', 'excess'], ...misses], [])] }).diseases[0];
    expect(d7).toMatchObject({ share: 0.14, risk: 'low' });
  });

  it('advice: acupoints of the diseases found, most severe first, each once; unknown ids skipped', () => {
    // 12 [3, 1], 11 [1, 2], 17 [4], 13 [2, 5], 16 [9, 6], 14 [6, 3]; 15 and 18 (left out) not advised.
    expect(a.advice.acupoints).toEqual([3, 1, 2, 4, 5, 6].map(acupoint));
  });

  it('advice: diagrams showing an advised acupoint, in the order of the first one they show, each once', () => {
    // 3 -> 24; 1 -> 22; 2 -> 21; 5 -> 24 again; 23 shows only 7 (not advised).
    expect(a.advice.schematics).toEqual([
      { id: 24, title: l10n('diagram 24'), url: '/adminapi/uploads/builtin-24.png' },
      { id: 22, title: l10n('diagram 22'), url: '/adminapi/uploads/builtin-22.png' },
      { id: 21, title: l10n('diagram 21'), url: '/adminapi/uploads/builtin-21.png' },
    ]);
  });

  it('no disease found: no advice', () => {
    const none = analyse(readings(100), master);
    expect(none.diseases).toEqual([]);
    expect(none.advice).toEqual({ acupoints: [], schematics: [] });
  });

  it('a disease with an empty pattern is never found', () => {
    expect(analyse(profile, { ...master, diseases: [disease(1, [], [1])] }).diseases).toEqual([]);
  });

  it('is pure: the same input gives the same answer and the inputs are not changed', () => {
    const copy = structuredClone(master);
    const input = structuredClone(profile);
    expect(analyse(profile, master)).toEqual(a);
    expect(master).toEqual(copy);
    expect(profile).toEqual(input);
    expect(JSON.parse(JSON.stringify(a))).toEqual(a); // plain JSON, stored as jsonb
  });
});

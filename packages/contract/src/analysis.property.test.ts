/**
 * Invariants of the analysis (fast-check). Which ones hold exactly, and which do not:
 * - A constant reading c >= 1: baseline c, every meridian normal and balanced, indices 1.00, every
 *   system 0, no disease, no advice. (c = 0: the same but every index null: zero divisors.)
 * - Swapping left and right of every meridian: everything is unchanged (baseline, values, statuses,
 *   imbalance, yin/yang, upper/lower, systems, diseases, advice) except the sides and left/right, which
 *   becomes the half-up rounding of the exact reciprocal (so within 0.005 of 1 / the exact ratio, not
 *   exactly 1 / the rounded one); 0 and null swap (a zero side).
 * - Adding the same whole number to every reading (staying in 0-200): the baseline and every value
 *   move by it, statuses and system scores are unchanged. Imbalance and the indices are NOT kept
 *   (they are ratios), so diseases are not either.
 * - Scaling every reading by a whole k >= 1 (staying in 0-200): imbalance and the three indices are
 *   kept exactly (homogeneous ratios). Statuses are NOT kept with the fixed ±15 band: they equal the
 *   statuses of the unscaled readings against a band of 15 / k (the band would have to scale with the
 *   readings). What does hold: excess and deficient meridians stay so, system scores never go down,
 *   and every disease found is still found with a share at least as large.
 * - Always: 12 meridians in device order, min <= baseline <= max, scores 0-100 with their level, shares
 *   in (0, 1] with their risk, most severe first, advice without repeats and only from found diseases.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Analysis, type AnalysisMaster, analyse, ratioHalfUp, type Readings, roundHalfUp } from './analysis';
import { MERIDIANS, type Meridian, PATTERN_STATUSES } from './api/meridians';
import type { L10n } from './i18n';

const RUNS = { numRuns: 300 };
const l10n = (en: string): L10n => ({ zh: en, en, es: en, ja: en });

const mapReadings = (r: Readings, f: (pair: readonly [number, number]) => readonly [number, number]): Readings => Object.fromEntries(MERIDIANS.map((m) => [m, f(r[m])])) as unknown as Readings;
const readingsArb = (max = 200): fc.Arbitrary<Readings> =>
  fc
    .tuple(...MERIDIANS.map(() => fc.tuple(fc.integer({ min: 0, max }), fc.integer({ min: 0, max }))))
    .map((pairs) => Object.fromEntries(MERIDIANS.map((m, i) => [m, pairs[i]])) as unknown as Readings);
const analysisZero = Object.fromEntries(MERIDIANS.map((m) => [m, [0, 0]])) as unknown as Readings;
const sumOf = (r: Readings, side: 0 | 1) => MERIDIANS.reduce((acc, m) => acc + r[m][side], 0);

const meridianArb = fc.constantFrom(...MERIDIANS);
const masterArb: fc.Arbitrary<AnalysisMaster> = fc
  .record({
    systems: fc.array(fc.dictionary(meridianArb, fc.integer({ min: 1, max: 100 }), { maxKeys: 6 }), { maxLength: 6 }),
    diseases: fc.array(
      fc.record({
        pattern: fc.uniqueArray(fc.record({ meridian: meridianArb, status: fc.constantFrom(...PATTERN_STATUSES) }), {
          minLength: 1,
          maxLength: 6,
          selector: (c) => `${c.meridian}:${c.status}`,
        }),
        acupoint_ids: fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 4 }),
      }),
      { maxLength: 10 },
    ),
    schematics: fc.array(fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 4 }), { maxLength: 5 }),
  })
  .map(({ systems, diseases, schematics }) => ({
    systems: systems.map((weights, i) => ({ id: i + 1, name: l10n(`s${i + 1}`), weights })),
    diseases: diseases.map((d, i) => ({ id: i + 1, name: l10n(`d${i + 1}`), ...d })),
    // Acupoint 12 is unknown to the master (a deleted point a disease still names).
    acupoints: Array.from({ length: 11 }, (_, i) => ({ id: i + 1, code: `P${i + 1}`, name: l10n(`p${i + 1}`) })),
    schematics: schematics.map((acupoint_ids, i) => ({ id: i + 1, title: l10n(`g${i + 1}`), url: `/u/${i + 1}.png`, acupoint_ids })),
  }));

const strip = (a: Analysis) => ({ ...a, meridians: a.meridians.map(({ left: _l, right: _r, ...rest }) => rest), indices: { ...a.indices, left_right: 0 } });

describe('analysis invariants', () => {
  it('a constant reading c >= 1 gives all normal, indices 1.00, scores 0 and no disease', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), masterArb, (c, master) => {
        const a = analyse(
          mapReadings(analysisZero, () => [c, c]),
          master,
        );
        expect(a.baseline).toBe(c);
        expect(a.meridians.every((r) => r.status === 'normal' && !r.imbalanced && r.value === c)).toBe(true);
        expect(a.indices).toEqual({ yin_yang: 1, upper_lower: 1, left_right: 1 });
        expect(a.systems.every((s) => s.score === 0 && s.level === 'normal')).toBe(true);
        expect(a.diseases).toEqual([]);
        expect(a.advice).toEqual({ acupoints: [], schematics: [] });
      }),
      RUNS,
    );
  });

  it('swapping left and right keeps everything but the sides and inverts left/right', () => {
    fc.assert(
      fc.property(readingsArb(), masterArb, (r, master) => {
        const swapped = mapReadings(r, ([left, right]) => [right, left]);
        const a = analyse(r, master);
        const b = analyse(swapped, master);
        expect(strip(b)).toEqual(strip(a));
        b.meridians.forEach((row, i) => {
          expect([row.left, row.right]).toEqual([a.meridians[i]?.right, a.meridians[i]?.left]);
        });
        const [left, right] = [sumOf(r, 0), sumOf(r, 1)];
        if (left > 0 && right > 0) {
          expect(b.indices.left_right).toBe(ratioHalfUp(right, left));
          expect(Math.abs((b.indices.left_right ?? 0) - right / left)).toBeLessThanOrEqual(0.005 + 1e-9);
        } else if (left === 0 && right === 0) {
          expect([a.indices.left_right, b.indices.left_right]).toEqual([null, null]);
        } else {
          // A zero side: the index is 0 one way and null the other.
          expect([a.indices.left_right, b.indices.left_right].sort()).toEqual([0, null]);
        }
      }),
      RUNS,
    );
  });

  it('adding a whole number to every reading keeps statuses and system scores', () => {
    fc.assert(
      fc.property(readingsArb(150), fc.integer({ min: 0, max: 50 }), masterArb, (r, c, master) => {
        const a = analyse(r, master);
        const b = analyse(
          mapReadings(r, ([left, right]) => [left + c, right + c]),
          master,
        );
        expect(b.baseline).toBeCloseTo(a.baseline + c, 9);
        expect(b.meridians.map((row) => [row.value, row.status])).toEqual(a.meridians.map((row) => [row.value + c, row.status]));
        expect(b.systems).toEqual(a.systems);
      }),
      RUNS,
    );
  });

  it('scaling every reading by k keeps imbalance and indices; statuses follow a band of 15 / k', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }).chain((k) => fc.tuple(fc.constant(k), readingsArb(Math.floor(200 / k)))),
        masterArb,
        ([k, r], master) => {
          const a = analyse(r, master);
          const b = analyse(
            mapReadings(r, ([left, right]) => [k * left, k * right]),
            master,
          );
          expect(b.indices).toEqual(a.indices);
          expect(b.meridians.map((row) => row.imbalanced)).toEqual(a.meridians.map((row) => row.imbalanced));
          // The unscaled readings against a band of 15 / k: 24 x (value - baseline) against 24 x 15 / k.
          const total = sumOf(r, 0) + sumOf(r, 1);
          const expected = MERIDIANS.map((m) => {
            const diff = k * (12 * (r[m][0] + r[m][1]) - total); // 24 k (value - baseline)
            return diff > 360 ? 'excess' : diff < -360 ? 'deficient' : 'normal';
          });
          expect(b.meridians.map((row) => row.status)).toEqual(expected);
          a.meridians.forEach((row, i) => {
            if (row.status !== 'normal') expect(b.meridians[i]?.status).toBe(row.status);
          });
          a.systems.forEach((s, i) => {
            expect(b.systems[i]?.score).toBeGreaterThanOrEqual(s.score);
          });
          for (const d of a.diseases) {
            expect(b.diseases.find((x) => x.id === d.id)?.share).toBeGreaterThanOrEqual(d.share);
          }
        },
      ),
      RUNS,
    );
  });

  it('the answer is always well formed', () => {
    fc.assert(
      fc.property(readingsArb(), masterArb, (r, master) => {
        const a = analyse(r, master);
        expect(a.meridians.map((row) => row.meridian)).toEqual([...MERIDIANS]);
        const all = MERIDIANS.flatMap((m) => [...r[m]]);
        expect(a.baseline).toBeGreaterThanOrEqual(Math.min(...all));
        expect(a.baseline).toBeLessThanOrEqual(Math.max(...all));
        expect(a.systems.map((s) => s.id)).toEqual(master.systems.filter((s) => Object.keys(s.weights).length > 0).map((s) => s.id));
        for (const s of a.systems) {
          expect(Number.isInteger(s.score) && s.score >= 0 && s.score <= 100).toBe(true);
          expect(s.level).toBe(s.score >= 60 ? 'abnormal' : s.score >= 30 ? 'attention' : 'normal');
        }
        a.diseases.forEach((d, i) => {
          expect(d.share > 0 && d.share <= 1).toBe(true);
          expect(d.risk).toBe(d.share === 1 ? 'high' : d.share >= 0.5 ? 'medium' : 'low');
          if (i > 0) expect(d.share).toBeLessThanOrEqual(a.diseases[i - 1]?.share ?? 1);
        });
        const found = new Set(a.diseases.map((d) => d.id));
        const fromFound = new Set(master.diseases.filter((d) => found.has(d.id)).flatMap((d) => d.acupoint_ids));
        const advised = a.advice.acupoints.map((p) => p.id);
        expect(new Set(advised).size).toBe(advised.length);
        expect(advised.every((id) => fromFound.has(id) && id !== 12)).toBe(true);
        expect([...fromFound].filter((id) => id !== 12).every((id) => advised.includes(id))).toBe(true);
        const diagrams = a.advice.schematics.map((g) => g.id);
        expect(new Set(diagrams).size).toBe(diagrams.length);
        for (const g of master.schematics) {
          expect(diagrams.includes(g.id)).toBe(g.acupoint_ids.some((id) => advised.includes(id)));
        }
      }),
      RUNS,
    );
  });

  it('multiplying every weight of a system by the same factor (or dividing by 10) keeps its score', () => {
    fc.assert(
      fc.property(readingsArb(), fc.dictionary(meridianArb, fc.integer({ min: 1, max: 100 }), { minKeys: 1, maxKeys: 12 }), fc.integer({ min: 2, max: 9 }), (r, weights, f) => {
        const scale = (g: (w: number) => number) => Object.fromEntries(Object.entries(weights).map(([m, w]) => [m, g(w)])) as Partial<Record<Meridian, number>>;
        const score = (w: Partial<Record<Meridian, number>>) => analyse(r, { systems: [{ id: 1, name: l10n('s'), weights: w }], diseases: [], acupoints: [], schematics: [] }).systems[0]?.score;
        const base = score(weights);
        expect(score(scale((w) => w * f))).toBe(base);
        expect(score(scale((w) => w / 10))).toBe(base);
        expect(score(scale((w) => w / 100))).toBe(base);
      }),
      RUNS,
    );
  });
});

describe('what does not hold (counterexamples)', () => {
  const base = (c: number, lu: [number, number]) => ({ ...mapReadings(analysisZero, () => [c, c]), LU: lu }) as Readings;
  const none: AnalysisMaster = { systems: [], diseases: [], acupoints: [], schematics: [] };

  it('scaling does not keep statuses with the fixed band', () => {
    // Rest 50, LU 60: baseline 50.83, LU +9.17 normal. Doubled: rest 100, LU 120: baseline 101.67, LU +18.33 excess.
    expect(analyse(base(50, [60, 60]), none).meridians[0]?.status).toBe('normal');
    expect(analyse(base(100, [120, 120]), none).meridians[0]?.status).toBe('excess');
  });

  it('adding a constant does not keep imbalance or the indices', () => {
    // LU [10, 30] is imbalanced (30 > 20); plus 20: [30, 50] is not (50 <= 60).
    expect(analyse(base(0, [10, 30]), none).meridians[0]?.imbalanced).toBe(true);
    expect(analyse(base(20, [30, 50]), none).meridians[0]?.imbalanced).toBe(false);
    expect(analyse(base(0, [10, 30]), none).indices.left_right).toBe(0.33);
    expect(analyse(base(20, [30, 50]), none).indices.left_right).toBe(0.93); // (30 + 11 x 20) / (50 + 11 x 20) = 250 / 270 = 0.926
  });
});

describe('half-up rounding', () => {
  it('ratioHalfUp agrees with the integer rule floor((200 p + q) / (2 q)) / 100 and is within 0.005', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4800 }), fc.integer({ min: 1, max: 4800 }), (p, q) => {
        const r = ratioHalfUp(p, q);
        expect(Math.round(r * 100)).toBe(Math.floor((200 * p + q) / (2 * q)));
        expect(Math.abs(r - p / q)).toBeLessThanOrEqual(0.005 + 1e-12);
      }),
      { numRuns: 2000 },
    );
  });

  it('roundHalfUp rounds a decimal with 3 places by its third digit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (n) => {
        const x = Number(`${Math.floor(n / 1000)}.${String(n % 1000).padStart(3, '0')}`); // n / 1000 as written
        expect(roundHalfUp(x)).toBe(Number(`${Math.floor((n + 5) / 1000)}.${String(Math.floor((n + 5) / 10) % 100).padStart(2, '0')}`));
        expect(roundHalfUp(-x)).toBe(-roundHalfUp(x) || 0);
      }),
      { numRuns: 2000 },
    );
  });
});

/**
 * The inspection analysis (design: domain.md "Inspections", device-api.md "The analysis object"): a pure
 * function of the 24 raw readings and the master data of the moment. No database, no I/O, no clock:
 * the server loads the master data, calls `analyse`, and stores the answer with the inspection.
 *
 * Exactness: the readings are integers, so every mean, deviation and ratio is a rational number. They are
 * computed with integers (BigInt where a product may pass 2^53) and rounded half-up on the exact value,
 * never on a binary float: 1.005 rounds to 1.01 and 48.5 to 49, so two implementations agree to the
 * second decimal. Meridian weights are read as the decimals they are written as (`0.3` is 3/10).
 */
import { z } from 'zod';
import type { MeridianCondition } from './api/diseases';
import { HAND_MERIDIANS, MERIDIANS, type Meridian, YIN_MERIDIANS } from './api/meridians';
import type { MeridianWeights } from './api/systems';
import type { L10n } from './i18n';

/** The numbers of the rules (domain.md "Inspections"). */
export const ANALYSIS_RULES = {
  /** Device order of the meridians: the order of `meridians` in the answer. */
  meridians: MERIDIANS,
  /** A raw reading is an integer in this range. */
  reading: { min: 0, max: 200 },
  /** Excess above baseline + band, deficient below baseline - band; the bounds themselves are normal. */
  band: 15,
  /** Imbalanced when max(L, R) > ratio x min(L, R): exactly 2x is not imbalanced. */
  imbalanceRatio: 2,
  /** A meridian's deviation d = min(1, |value - baseline| / deviationFull). */
  deviationFull: 50,
  /** System level by the (rounded) score: normal below attention, abnormal from abnormal on. */
  level: { attention: 30, abnormal: 60 },
  /** Disease risk by matched share: high at 1, medium from this on, low above 0 (left out at 0). */
  riskMedium: 0.5,
  /** Decimals of the baseline, the indices and the shares. */
  decimals: 2,
} as const;

export const MERIDIAN_STATUSES = ['excess', 'deficient', 'normal'] as const;
export type MeridianStatus = (typeof MERIDIAN_STATUSES)[number];
export const SYSTEM_LEVELS = ['normal', 'attention', 'abnormal'] as const;
export type SystemLevel = (typeof SYSTEM_LEVELS)[number];
/** Most severe first. */
export const RISK_LEVELS = ['high', 'medium', 'low'] as const;
export type DiseaseRisk = (typeof RISK_LEVELS)[number];

const reading = z.number().int().min(ANALYSIS_RULES.reading.min).max(ANALYSIS_RULES.reading.max);
const sides = z.tuple([reading, reading]);
/** The 24 raw readings: `{ LU: [left, right], ... }` for all 12 meridians, integers 0-200. */
export const meridianReadings = z.strictObject({
  LU: sides,
  PC: sides,
  HT: sides,
  SI: sides,
  TE: sides,
  LI: sides,
  SP: sides,
  LR: sides,
  KI: sides,
  BL: sides,
  GB: sides,
  ST: sides,
});
export type Readings = Record<Meridian, readonly [left: number, right: number]>;

/** A system (body system or subsystem) with its meridian weights. */
export interface AnalysisMasterSystem {
  id: number;
  name: L10n;
  weights: MeridianWeights;
}
/** A disease with its meridian pattern and its advised acupoints (ids, in the disease's order). */
export interface AnalysisMasterDisease {
  id: number;
  name: L10n;
  pattern: readonly MeridianCondition[];
  acupoint_ids: readonly number[];
}
export interface AnalysisMasterAcupoint {
  id: number;
  code: string;
  name: L10n;
}
/** A schematic diagram: its image URL and the acupoints its markers show. */
export interface AnalysisMasterSchematic {
  id: number;
  title: L10n;
  url: string;
  acupoint_ids: readonly number[];
}
/**
 * The master data the rules read. The caller chooses what takes part: the enabled diseases, every
 * system, in the order the report lists them (systems in the answer keep this order; diseases of equal
 * severity keep it; diagrams showing the same advised acupoint keep it).
 */
export interface AnalysisMaster {
  systems: readonly AnalysisMasterSystem[];
  diseases: readonly AnalysisMasterDisease[];
  acupoints: readonly AnalysisMasterAcupoint[];
  schematics: readonly AnalysisMasterSchematic[];
}

export interface AnalysisMeridian {
  meridian: Meridian;
  left: number;
  right: number;
  /** The exact mean of left and right (a whole or a half). */
  value: number;
  status: MeridianStatus;
  imbalanced: boolean;
}
export interface AnalysisIndices {
  yin_yang: number | null;
  upper_lower: number | null;
  left_right: number | null;
}
export interface AnalysisSystem {
  id: number;
  name: L10n;
  /** 0-100, higher is worse. */
  score: number;
  level: SystemLevel;
}
export interface AnalysisDisease {
  id: number;
  name: L10n;
  /** Matched conditions / all conditions, rounded half-up to 2 decimals; > 0. */
  share: number;
  risk: DiseaseRisk;
}
export interface AnalysisAdvice {
  acupoints: { id: number; code: string; name: L10n }[];
  schematics: { id: number; title: L10n; url: string }[];
}
/** The analysis object of device-api.md, answered by the device API and the admin detail. */
export interface Analysis {
  /** Mean of the 24 readings, rounded half-up to 2 decimals (statuses use the exact value). */
  baseline: number;
  /** 12 entries in device order. */
  meridians: AnalysisMeridian[];
  indices: AnalysisIndices;
  /** Every system with at least one weight, in the master's order. */
  systems: AnalysisSystem[];
  /** Diseases with a share above 0, most severe first. */
  diseases: AnalysisDisease[];
  advice: AnalysisAdvice;
}

// ---------------------------------------------------------------------------------------------------
// Exact half-up rounding

const TEN = BigInt(10);
const TWO = BigInt(2);
const ZERO = BigInt(0);

/** The decimal text of |q| / 10^places (q an integer): 101n, 2 -> "1.01". */
function scaledToText(q: bigint, places: number): string {
  const digits = (q < ZERO ? -q : q).toString().padStart(places + 1, '0');
  const text = places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
  return q < ZERO ? `-${text}` : text;
}

/**
 * num / den rounded half-up (half away from zero) to `places` decimals, computed on integers:
 * ratioHalfUp(201, 200) = 1.01 (1.005 exactly), ratioHalfUp(97, 2, 0) = 49 (48.5). `den` must not be 0.
 */
export function ratioHalfUp(num: number | bigint, den: number | bigint, places: number = ANALYSIS_RULES.decimals): number {
  let n = BigInt(num);
  let d = BigInt(den);
  if (d === ZERO) throw new RangeError('ratioHalfUp: zero divisor');
  if (d < ZERO) {
    n = -n;
    d = -d;
  }
  const negative = n < ZERO;
  const scaled = (negative ? -n : n) * TEN ** BigInt(places);
  const q = (TWO * scaled + d) / (TWO * d); // floor(scaled / d + 1/2) on non-negative integers
  return Number(scaledToText(negative ? -q : q, places));
}

/** A finite number as an exact decimal: mantissa x 10^-scale (from its shortest decimal text). */
function decimalOf(x: number): { mantissa: bigint; scale: number } {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite number: ${x}`);
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(String(x));
  if (!m) throw new RangeError(`not a decimal: ${x}`);
  const [, sign, int = '', frac = '', exp = '0'] = m;
  let mantissa = BigInt(int + frac);
  let scale = frac.length - Number(exp);
  if (scale < 0) {
    mantissa *= TEN ** BigInt(-scale);
    scale = 0;
  }
  return { mantissa: sign ? -mantissa : mantissa, scale };
}

/**
 * Rounds a number half-up (half away from zero) to `places` decimals by the decimal it is written as,
 * not by its binary value: roundHalfUp(1.005) = 1.01, roundHalfUp(2.675) = 2.68, roundHalfUp(-1.005) = -1.01.
 */
export function roundHalfUp(x: number, places: number = ANALYSIS_RULES.decimals): number {
  const { mantissa, scale } = decimalOf(x);
  return ratioHalfUp(mantissa, TEN ** BigInt(scale), places);
}

// ---------------------------------------------------------------------------------------------------
// The analysis

function checkReadings(readings: Readings): void {
  const { min, max } = ANALYSIS_RULES.reading;
  for (const m of MERIDIANS) {
    const pair = readings[m];
    if (!Array.isArray(pair) || pair.length !== 2) throw new RangeError(`readings.${m}: expected [left, right]`);
    for (const v of pair) {
      if (!Number.isInteger(v) || v < min || v > max) throw new RangeError(`readings.${m}: ${v} is not an integer ${min}-${max}`);
    }
  }
}

/** max(L, R) > ratio x min(L, R): a zero side against a non-zero side is imbalanced, both zero is not. */
export function isImbalanced(left: number, right: number): boolean {
  return Math.max(left, right) > ANALYSIS_RULES.imbalanceRatio * Math.min(left, right);
}

function levelOf(score: number): SystemLevel {
  if (score >= ANALYSIS_RULES.level.abnormal) return 'abnormal';
  if (score >= ANALYSIS_RULES.level.attention) return 'attention';
  return 'normal';
}

/** Risk of a disease by matched / total conditions (total > 0); null at 0 (left out). */
function riskOf(matched: number, total: number): DiseaseRisk | null {
  if (matched <= 0) return null;
  if (matched >= total) return 'high';
  if (matched >= ANALYSIS_RULES.riskMedium * total) return 'medium';
  return 'low';
}

/**
 * The analysis of one inspection from its 24 readings and the master data: exactly the rules of
 * domain.md "Inspections". Throws a RangeError on readings that are not 24 integers 0-200 (the
 * caller validates its input with `meridianReadings` first).
 */
export function analyse(readings: Readings, master: AnalysisMaster): Analysis {
  checkReadings(readings);
  // Sums are small integers (24 x 200 at most): exact in plain numbers.
  const sum = (list: readonly Meridian[], side?: 0 | 1) => list.reduce((acc, m) => acc + (side === undefined ? readings[m][0] + readings[m][1] : readings[m][side]), 0);
  const total = sum(MERIDIANS); // baseline = total / 24
  // With value = (L + R) / 2 and baseline = total / 24, scaled by 24: 24 x (value - baseline) = 12 (L + R) - total.
  const band24 = 24 * ANALYSIS_RULES.band;
  const full24 = 24 * ANALYSIS_RULES.deviationFull;

  const deviation24 = new Map<Meridian, number>();
  const meridians = MERIDIANS.map((m): AnalysisMeridian => {
    const [left, right] = readings[m];
    const diff24 = 12 * (left + right) - total;
    deviation24.set(m, Math.min(full24, Math.abs(diff24)));
    const status: MeridianStatus = diff24 > band24 ? 'excess' : diff24 < -band24 ? 'deficient' : 'normal';
    return { meridian: m, left, right, value: (left + right) / 2, status, imbalanced: isImbalanced(left, right) };
  });
  const byMeridian = new Map(meridians.map((r) => [r.meridian, r]));

  const yang = MERIDIANS.filter((m) => !YIN_MERIDIANS.includes(m));
  const foot = MERIDIANS.filter((m) => !HAND_MERIDIANS.includes(m));
  // Each index is a mean of 12 readings over a mean of 12 readings: the ratio of the two sums.
  const index = (num: number, den: number) => (den === 0 ? null : ratioHalfUp(num, den));
  const indices: AnalysisIndices = {
    yin_yang: index(sum(YIN_MERIDIANS), sum(yang)),
    upper_lower: index(sum(HAND_MERIDIANS), sum(foot)),
    left_right: index(sum(MERIDIANS, 0), sum(MERIDIANS, 1)),
  };

  const systems: AnalysisSystem[] = [];
  for (const system of master.systems) {
    const weights: { meridian: Meridian; mantissa: bigint; scale: number }[] = [];
    for (const m of MERIDIANS) {
      const w = system.weights[m];
      if (typeof w === 'number' && Number.isFinite(w) && w > 0) weights.push({ meridian: m, ...decimalOf(w) });
    }
    if (weights.length === 0) continue; // a system without weights is left out of the answer
    const scale = Math.max(...weights.map((w) => w.scale));
    let weighted = ZERO;
    let weightSum = ZERO;
    for (const w of weights) {
      const a = w.mantissa * TEN ** BigInt(scale - w.scale); // the weight x 10^scale, an integer
      weighted += a * BigInt(deviation24.get(w.meridian) ?? 0);
      weightSum += a;
    }
    // score = 100 x sum(w x d) / sum(w), d = deviation24 / full24 (= min(1, |value - baseline| / 50)).
    const score = ratioHalfUp(BigInt(100) * weighted, BigInt(full24) * weightSum, 0);
    systems.push({ id: system.id, name: system.name, score, level: levelOf(score) });
  }

  const found: (AnalysisDisease & { matched: number; total: number; order: number })[] = [];
  master.diseases.forEach((disease, order) => {
    const total = disease.pattern.length;
    if (total === 0) return;
    const matched = disease.pattern.filter((c) => {
      const row = byMeridian.get(c.meridian);
      if (!row) return false;
      return c.status === 'imbalanced' ? row.imbalanced : row.status === c.status;
    }).length;
    const risk = riskOf(matched, total);
    if (risk) found.push({ id: disease.id, name: disease.name, share: ratioHalfUp(matched, total), risk, matched, total, order });
  });
  // Most severe first: the larger exact share, then more conditions matched, then the master's order.
  found.sort((a, b) => b.matched * a.total - a.matched * b.total || b.matched - a.matched || a.order - b.order);
  const diseases = found.map(({ id, name, share, risk }) => ({ id, name, share, risk }));

  const acupointById = new Map(master.acupoints.map((a) => [a.id, a]));
  const advisedAcupoints: AnalysisAdvice['acupoints'] = [];
  const advisedIds = new Set<number>();
  for (const disease of found) {
    for (const id of master.diseases[disease.order]?.acupoint_ids ?? []) {
      const point = acupointById.get(id);
      if (!point || advisedIds.has(id)) continue;
      advisedIds.add(id);
      advisedAcupoints.push({ id: point.id, code: point.code, name: point.name });
    }
  }
  // Diagrams showing an advised acupoint, ordered by the first advised acupoint they show.
  const advisedSchematics: AnalysisAdvice['schematics'] = [];
  const shown = new Set<number>();
  for (const point of advisedAcupoints) {
    for (const diagram of master.schematics) {
      if (shown.has(diagram.id) || !diagram.acupoint_ids.includes(point.id)) continue;
      shown.add(diagram.id);
      advisedSchematics.push({ id: diagram.id, title: diagram.title, url: diagram.url });
    }
  }

  return {
    baseline: ratioHalfUp(total, 2 * MERIDIANS.length),
    meridians,
    indices,
    systems,
    diseases,
    advice: { acupoints: advisedAcupoints, schematics: advisedSchematics },
  };
}

/**
 * The report's charts as ECharts options, shared by the web sheet (drawn in the browser) and the server's
 * PDF (the same options drawn by ECharts' server-side SVG renderer), so both show the same thing. Pure
 * functions over the analysis and the history: no ECharts import here (the options are plain objects),
 * labels come in the caller's language.
 */
import { ANALYSIS_RULES, type Analysis, type AnalysisIndices, type AnalysisSystem, type SystemLevel } from './analysis';
import type { InspectionHistoryEntry } from './api/inspections';
import type { Meridian } from './api/meridians';

type Option = Record<string, unknown>;

export const LEVEL_HEX: Record<SystemLevel, string> = { normal: '#52c41a', attention: '#faad14', abnormal: '#f5222d' };
const INDEX_KEYS = ['yin_yang', 'upper_lower', 'left_right'] as const;
export type IndexKey = (typeof INDEX_KEYS)[number];

/** Meridian bars, left and right side by side, with the baseline and its ±band. */
export function meridianBarsOption(a: Analysis, l: { left: string; right: string; baseline: string; meridian: (m: Meridian) => string }): Option {
  const b = a.baseline;
  const band = ANALYSIS_RULES.band;
  return {
    animation: false,
    grid: { left: 40, right: 12, top: 30, bottom: 42 },
    legend: { top: 0, right: 0, data: [l.left, l.right] },
    xAxis: { type: 'category', data: a.meridians.map((m) => m.meridian), axisLabel: { formatter: (m: Meridian) => `${m}\n${l.meridian(m)}`, fontSize: 9, interval: 0 } },
    yAxis: { type: 'value', min: 0 },
    series: [
      {
        name: l.left,
        type: 'bar',
        data: a.meridians.map((m) => m.left),
        itemStyle: { color: '#5470c6' },
        barGap: '10%',
        markLine: { symbol: 'none', silent: true, label: { formatter: `${l.baseline} ${b}`, position: 'insideEndTop' }, lineStyle: { color: '#333', type: 'solid' }, data: [{ yAxis: b }] },
        markArea: { silent: true, itemStyle: { color: 'rgba(82, 196, 26, 0.14)' }, data: [[{ yAxis: b - band }, { yAxis: b + band }]] },
      },
      { name: l.right, type: 'bar', data: a.meridians.map((m) => m.right), itemStyle: { color: '#91cc75' } },
    ],
  };
}

/** Pixels per system row of the body-systems bars: legible with 34 systems or more. */
export const SYSTEM_ROW = 17;
/** The body-systems chart's height for `n` systems. */
export const systemBarsHeight = (n: number) => Math.max(120, n * SYSTEM_ROW + 46);

/**
 * The body systems as horizontal bars sorted by score (worst on top), coloured by level, with the level
 * thresholds as lines: every name has a row of its own, so 34 systems or more stay legible in any language
 * (a radar's labels overlapped). Long names are cut with an ellipsis at `labelWidth` pixels.
 */
export function systemBarsOption(systems: readonly AnalysisSystem[], name: (s: AnalysisSystem) => string, l: { score: string }, labelWidth = 170): Option {
  const sorted = [...systems].sort((x, y) => y.score - x.score || x.id - y.id).reverse();
  const { attention, abnormal } = ANALYSIS_RULES.level;
  return {
    animation: false,
    grid: { left: labelWidth + 10, right: 34, top: 22, bottom: 8 },
    xAxis: { type: 'value', min: 0, max: 100, splitNumber: 5, position: 'top', name: l.score, nameGap: 4, nameTextStyle: { fontSize: 9 }, axisLabel: { fontSize: 9 } },
    yAxis: {
      type: 'category',
      data: sorted.map((s) => name(s)),
      axisTick: { show: false },
      axisLabel: { fontSize: 10, interval: 0, width: labelWidth, overflow: 'truncate', color: '#333' },
    },
    series: [
      {
        type: 'bar',
        barWidth: 11,
        data: sorted.map((s) => ({ value: s.score, itemStyle: { color: LEVEL_HEX[s.level] } })),
        label: { show: true, position: 'right', fontSize: 9, color: '#333' },
        markLine: {
          symbol: 'none',
          silent: true,
          label: { show: false },
          lineStyle: { type: 'dashed', color: '#999' },
          data: [{ xAxis: attention }, { xAxis: abnormal }],
        },
      },
    ],
  };
}

/** A point of the trend: an inspection (the shown one last), oldest first. */
export interface TrendPoint {
  measured_at: string;
  indices: AnalysisIndices;
  systems: { id: number; score: number; level: SystemLevel }[];
}

/** The shown inspection and its history as the trend's points, oldest first. */
export function trendPoints(a: Analysis | null, measuredAt: string, history: readonly InspectionHistoryEntry[]): TrendPoint[] {
  const points: TrendPoint[] = [...history].reverse().map((h) => ({ measured_at: h.measured_at, indices: h.indices, systems: h.systems }));
  if (a) points.push({ measured_at: measuredAt, indices: a.indices, systems: a.systems.map((s) => ({ id: s.id, score: s.score, level: s.level })) });
  return points;
}

/** The systems the trend follows: not normal now, or not normal in an earlier inspection (at most `max`, worst now first). */
export function trendSystems(a: Analysis | null, points: readonly TrendPoint[], max = 8): AnalysisSystem[] {
  if (!a) return [];
  const flagged = new Set(points.flatMap((p) => p.systems.filter((s) => s.level !== 'normal').map((s) => s.id)));
  return a.systems
    .filter((s) => flagged.has(s.id))
    .sort((x, y) => y.score - x.score || x.id - y.id)
    .slice(0, max);
}

/** The indices' trend (three lines) over the points. */
export function indicesTrendOption(points: readonly TrendPoint[], l: Record<IndexKey, string>, date: (iso: string) => string): Option {
  return {
    animation: false,
    grid: { left: 40, right: 16, top: 30, bottom: 24 },
    legend: { top: 0, data: INDEX_KEYS.map((k) => l[k]), textStyle: { fontSize: 10 } },
    xAxis: { type: 'category', data: points.map((p) => date(p.measured_at)), axisLabel: { fontSize: 9 } },
    yAxis: { type: 'value', scale: true, axisLabel: { fontSize: 9 } },
    series: INDEX_KEYS.map((k, i) => ({
      name: l[k],
      type: 'line',
      data: points.map((p) => p.indices[k]),
      connectNulls: true,
      symbolSize: 5,
      itemStyle: { color: ['#5470c6', '#91cc75', '#ee6666'][i] },
    })),
  };
}

/** The followed systems' scores over the points, with the level thresholds. */
export function systemsTrendOption(points: readonly TrendPoint[], systems: readonly AnalysisSystem[], name: (s: AnalysisSystem) => string, date: (iso: string) => string): Option {
  const { attention, abnormal } = ANALYSIS_RULES.level;
  const palette = ['#ee6666', '#5470c6', '#fac858', '#73c0de', '#3ba272', '#fc8452', '#9a60b4', '#ea7ccc'];
  return {
    animation: false,
    grid: { left: 34, right: 16, top: 12, bottom: 24 + Math.ceil(systems.length / 3) * 16 },
    legend: { bottom: 0, data: systems.map((s) => name(s)), textStyle: { fontSize: 9 }, itemWidth: 14, itemHeight: 8 },
    xAxis: { type: 'category', data: points.map((p) => date(p.measured_at)), axisLabel: { fontSize: 9 } },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { fontSize: 9 } },
    series: systems.map((s, i) => ({
      name: name(s),
      type: 'line',
      connectNulls: true,
      symbolSize: 5,
      itemStyle: { color: palette[i % palette.length] },
      data: points.map((p) => p.systems.find((x) => x.id === s.id)?.score ?? null),
      ...(i === 0 ? { markLine: { symbol: 'none', silent: true, label: { show: false }, lineStyle: { type: 'dashed', color: '#bbb' }, data: [{ yAxis: attention }, { yAxis: abnormal }] } } : {}),
    })),
  };
}

/** What changed since the last inspection: each index's move, and the systems whose level changed. */
export interface ReportChanges {
  since: string;
  indices: { key: IndexKey; from: number | null; to: number | null }[];
  systems: { system: AnalysisSystem; from: { score: number; level: SystemLevel }; to: { score: number; level: SystemLevel } }[];
}

export function changesSinceLast(a: Analysis | null, history: readonly InspectionHistoryEntry[]): ReportChanges | null {
  const last = history[0];
  if (!a || !last) return null;
  const before = new Map(last.systems.map((s) => [s.id, s]));
  return {
    since: last.measured_at,
    indices: INDEX_KEYS.map((key) => ({ key, from: last.indices[key], to: a.indices[key] })),
    systems: a.systems.flatMap((s) => {
      const b = before.get(s.id);
      return b && b.level !== s.level ? [{ system: s, from: { score: b.score, level: b.level }, to: { score: s.score, level: s.level } }] : [];
    }),
  };
}

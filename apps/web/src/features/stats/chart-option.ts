/** The ECharts options of the stats pages' series (StatsBoard.tsx), numbers in the reader's language. */
import type { EChartsCoreOption } from 'echarts/core';
import type { StatPoint } from '@app/contract/api/stats';
import type { Lang } from '@app/contract/i18n';
import { LANG_TAGS } from '../../lib/lang';

/** A chart's numbers as the reader writes them (axis, labels, tooltip): counts, or yuan with two decimals. */
export function chartNumbers(lang: Lang, money: boolean): (v: number) => string {
  const f = new Intl.NumberFormat(LANG_TAGS[lang], money ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : { maximumFractionDigits: 0 });
  return (v) => f.format(v);
}

/** The ECharts option of a series: over time (bars of counts, a line of money), a pie of shares, or horizontal bars (largest on top). */
export function chartOption(
  points: StatPoint[],
  o: { time: boolean; pie: boolean; money: boolean; keyText: (p: StatPoint) => string; name: string; format: (v: number) => string },
): EChartsCoreOption {
  const value = (p: StatPoint) => (o.money ? p.value / 100 : p.value);
  // Axis ticks in the reader's grouping, without forced decimals (a money axis reads 15.000, not 15.000,00).
  const tick = (v: number) => (o.money ? o.format(v).replace(/[.,]00$/, '') : o.format(v));
  const valueFormatter = (v: unknown) => (typeof v === 'number' ? o.format(v) : String(v ?? ''));
  if (o.pie)
    return {
      tooltip: { trigger: 'item', valueFormatter },
      legend: { bottom: 0, type: 'scroll' },
      series: [
        {
          type: 'pie',
          name: o.name,
          radius: ['40%', '68%'],
          center: ['50%', '45%'],
          data: points.filter((p) => p.value !== 0).map((p) => ({ name: o.keyText(p), value: value(p) })),
          label: { formatter: (p: { name: string; value: number }) => `${p.name}: ${o.format(p.value)}` },
        },
      ],
    };
  if (o.time)
    return {
      tooltip: { trigger: 'axis', valueFormatter },
      grid: { left: 48, right: 16, top: 24, bottom: 32, containLabel: true },
      xAxis: { type: 'category', data: points.map((p) => p.key), boundaryGap: !o.money },
      yAxis: { type: 'value', minInterval: o.money ? 0 : 1, axisLabel: { formatter: tick } },
      // Counts per period as bars, money as a line (amounts and the running balance).
      series: [
        o.money
          ? { type: 'line', name: o.name, data: points.map(value), showSymbol: points.length <= 31, areaStyle: { opacity: 0.15 } }
          : { type: 'bar', name: o.name, data: points.map(value), barMaxWidth: 28 },
      ],
    };
  const ordered = [...points].reverse();
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter },
    grid: { left: 8, right: 24, top: 16, bottom: 16, containLabel: true },
    xAxis: { type: 'value', minInterval: o.money ? 0 : 1, axisLabel: { formatter: tick } },
    yAxis: { type: 'category', data: ordered.map(o.keyText), axisLabel: { width: 140, overflow: 'truncate' } },
    series: [
      {
        type: 'bar',
        name: o.name,
        data: ordered.map(value),
        barMaxWidth: 24,
        label: { show: true, position: 'right', formatter: (p: { value: number }) => o.format(p.value) },
      },
    ],
  };
}

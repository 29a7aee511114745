import { describe, expect, it } from 'vitest';
import type { StatPoint } from '@app/contract/api/stats';
import { chartNumbers, chartOption } from './chart-option';

const points: StatPoint[] = [
  { key: 'a', label: 'Package A', value: 3_108_000 },
  { key: 'b', label: 'Package B', value: 1_535_678 },
];
type Fmt = (x: unknown) => string;
const keyText = (p: StatPoint) => p.label ?? p.key;

describe('stats charts: numbers as the reader writes them', () => {
  it('counts and yuan in each language', () => {
    expect(chartNumbers('en', true)(31080)).toBe('31,080.00');
    expect(chartNumbers('es', true)(31080)).toBe('31.080,00');
    expect(chartNumbers('ja', false)(12000)).toBe('12,000');
    expect(chartNumbers('es', false)(12000)).toBe('12.000');
  });

  it('bar labels, axis ticks and tooltips of a money chart use them; ticks drop the forced decimals', () => {
    const option = chartOption(points, { time: false, pie: false, money: true, keyText, name: 'Commission', format: chartNumbers('es', true) }) as {
      xAxis: { axisLabel: { formatter: Fmt } };
      series: { label: { formatter: (p: { value: number }) => string }; data: number[] }[];
      tooltip: { valueFormatter: Fmt };
    };
    expect(option.series[0]!.data).toEqual([15356.78, 31080]);
    expect(option.series[0]!.label.formatter({ value: 15356.78 })).toBe('15.356,78');
    expect(option.xAxis.axisLabel.formatter(15000)).toBe('15.000');
    expect(option.tooltip.valueFormatter(31080)).toBe('31.080,00');
  });

  it('a pie labels its slices with the formatted count', () => {
    const option = chartOption([{ key: 'active', value: 12345 }], { time: false, pie: true, money: false, keyText, name: 'Devices', format: chartNumbers('en', false) }) as {
      series: { label: { formatter: (p: { name: string; value: number }) => string } }[];
    };
    expect(option.series[0]!.label.formatter({ name: 'Active', value: 12345 })).toBe('Active: 12,345');
  });
});

/**
 * A responsive ECharts chart themed from antd's design tokens (text, axis and split-line colours, the
 * palette from colorPrimary and the status colours), so a dark antd algorithm gives dark charts with
 * no more work: dark is read from colorBgContainer's luminance, the background stays transparent.
 * Modular imports only (ui.md): lines, bars and pies with their grid, tooltip and legend, drawn on a
 * canvas, without animation (a new range redraws at once; screenshots show the finished chart). The
 * chart follows its container's size (ResizeObserver) and is disposed on unmount.
 *
 * Import it from this file (not the components barrel): only the pages that draw charts load echarts.
 */
import { useEffect, useMemo, useRef } from 'react';
import theme from 'antd/es/theme';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { type EChartsCoreOption, type EChartsType, init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** Relative luminance (WCAG) of a CSS colour in #rgb, #rrggbb or rgb()/rgba() form; 1 when unreadable. */
export function luminance(color: string): number {
  let rgb: number[] | null = null;
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (hex) {
    const h = hex[1]!.length === 3 ? [...hex[1]!].map((c) => c + c).join('') : hex[1]!;
    rgb = [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16));
  } else {
    const m = /rgba?\(([^)]+)\)/i.exec(color);
    if (m)
      rgb = m[1]!
        .split(/[\s,/]+/)
        .slice(0, 3)
        .map(Number);
  }
  if (!rgb || rgb.some((v) => !Number.isFinite(v))) return 1;
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

type Token = ReturnType<typeof theme.useToken>['token'];

/** The ECharts theme object made from antd's tokens. */
export function chartTheme(token: Token) {
  const dark = luminance(token.colorBgContainer) < 0.4;
  const axis = { lineStyle: { color: token.colorBorder } };
  const axisCommon = {
    axisLine: axis,
    axisTick: axis,
    axisLabel: { color: token.colorTextSecondary },
    splitLine: { lineStyle: { color: token.colorSplit } },
    nameTextStyle: { color: token.colorTextSecondary },
  };
  return {
    dark,
    theme: {
      darkMode: dark,
      color: [token.colorPrimary, token.colorSuccess, token.colorWarning, token.colorError, token.colorInfo, '#722ed1', '#13c2c2', '#eb2f96', '#fa8c16', '#2f54eb'],
      backgroundColor: 'transparent',
      textStyle: { color: token.colorText, fontFamily: token.fontFamily },
      categoryAxis: axisCommon,
      valueAxis: axisCommon,
      timeAxis: axisCommon,
      legend: { textStyle: { color: token.colorText } },
      tooltip: { backgroundColor: token.colorBgElevated, borderColor: token.colorBorderSecondary, textStyle: { color: token.colorText } },
      pie: { itemStyle: { borderColor: token.colorBgContainer, borderWidth: 1 }, label: { color: token.colorText } },
    },
  };
}

export interface ChartProps {
  option: EChartsCoreOption;
  height?: number;
  testId?: string;
  /** Accessible name of the figure (its table carries the numbers). */
  label?: string;
}

export function Chart({ option, height = 280, testId, label }: ChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const chartRef = useRef<EChartsType | null>(null);
  const { token } = theme.useToken();
  const themed = useMemo(() => chartTheme(token), [token]);
  const optionRef = useRef(option);
  optionRef.current = option;

  // One chart per theme: a new theme (light <-> dark, another primary colour) draws a new one.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const chart = init(el, themed.theme, { renderer: 'canvas' });
    chartRef.current = chart;
    chart.setOption({ animation: false, ...optionRef.current });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.dispose();
      chartRef.current = null;
    };
  }, [themed]);

  useEffect(() => {
    chartRef.current?.setOption({ animation: false, ...option }, { notMerge: true });
  }, [option]);

  return <div ref={ref} role="img" aria-label={label} style={{ width: '100%', height }} data-testid={testId} data-dark={themed.dark ? '1' : '0'} />;
}

import { useEffect, useRef } from 'react';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent } from 'echarts/components';
import { type EChartsCoreOption, init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

// Only what the report draws (ui.md: modular imports), drawn as SVG so print and PDF stay sharp.
use([BarChart, LineChart, GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent, SVGRenderer]);

/**
 * One chart of a fixed size (the report is laid out for A4, so its charts need not follow the window):
 * the size is given to ECharts itself, so a chart in a hidden print copy is drawn as well. No animation:
 * a print or a screenshot taken at once shows the finished chart.
 */
export function EChart({ option, width, height, testId, label }: { option: EChartsCoreOption; width: number; height: number; testId?: string; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const chart = init(ref.current, undefined, { renderer: 'svg', width, height });
    chart.setOption({ animation: false, ...option });
    // Scalable by CSS (a phone fits the report's charts to its width): the drawing keeps its own coordinates.
    ref.current.querySelector('svg')?.setAttribute('viewBox', `0 0 ${width} ${height}`);
    return () => chart.dispose();
  }, [option, width, height]);
  // A chart is a picture: its name is the section's title (what it shows is in the tables around it).
  return <div ref={ref} className="report-chart" style={{ width, height }} data-testid={testId} role="img" aria-label={label} />;
}

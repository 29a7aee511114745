import { describe, expect, it } from 'vitest';
import { chartTheme, luminance } from './Chart';

describe('chart theme from antd tokens', () => {
  it('reads the luminance of hex and rgb colours', () => {
    expect(luminance('#ffffff')).toBeCloseTo(1);
    expect(luminance('#000')).toBeCloseTo(0);
    expect(luminance('rgb(20, 20, 20)')).toBeLessThan(0.05);
    expect(luminance('not a colour')).toBe(1);
  });

  it('is dark on a dark container background, with the token colours and a transparent background', () => {
    const base = {
      colorPrimary: '#1677ff',
      colorSuccess: '#52c41a',
      colorWarning: '#faad14',
      colorError: '#ff4d4f',
      colorInfo: '#1677ff',
      colorText: '#fff',
      colorTextSecondary: '#aaa',
      colorBorder: '#444',
      colorSplit: '#333',
      colorBgElevated: '#1f1f1f',
      colorBorderSecondary: '#303030',
      fontFamily: 'sans-serif',
    };
    const dark = chartTheme({ ...base, colorBgContainer: '#141414' } as never);
    expect(dark.dark).toBe(true);
    expect(dark.theme.backgroundColor).toBe('transparent');
    expect(dark.theme.color[0]).toBe('#1677ff');
    expect(dark.theme.valueAxis.splitLine.lineStyle.color).toBe('#333');
    expect(chartTheme({ ...base, colorBgContainer: '#ffffff' } as never).dark).toBe(false);
  });
});

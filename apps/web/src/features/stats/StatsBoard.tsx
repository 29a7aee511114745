/**
 * What every stats page is made of: the range bar (presets and a custom range, kept in the address),
 * the KPI cards, and one card per series with its chart, its numbers as a table and their export.
 * Titles, column titles and category names come from the contract (shared with the export).
 */
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Empty from 'antd/es/empty';
import Flex from 'antd/es/flex';
import Row from 'antd/es/row';
import Segmented from 'antd/es/segmented';
import Space from 'antd/es/space';
import Statistic from 'antd/es/statistic';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import DownloadOutlined from '@ant-design/icons/es/icons/DownloadOutlined';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { pickText } from '@app/contract/i18n';
import { STATS_COLUMNS, STATS_KEY_LABELS, STATS_MONEY, STATS_PAGES, STATS_TABLES, STATS_TIME_SERIES, type StatPoint, type StatsPage } from '@app/contract/api/stats';
import { Chart } from '../../components/Chart';
import { LazyRangePicker } from '../../components/LazyRangePicker';
import { formatMoney } from '../../lib/money';
import { useSettings } from '../../lib/settings';
import { exportStatsTable, type StatsInput } from './api';
import { chartNumbers, chartOption } from './chart-option';
import { RANGE_PRESETS, type RangePreset, rangeFromParams, rangeParams, type StatsRange } from './range';

/** The range in the address, and a setter that keeps the address's other parameters. */
export function useStatsRange(): [StatsRange, (next: { preset: RangePreset; from?: string; to?: string }) => void, URLSearchParams, (key: string, value?: string) => void] {
  const [params, setParams] = useSearchParams();
  const range = useMemo(() => rangeFromParams(params), [params]);
  const setRange = useCallback(
    (next: { preset: RangePreset; from?: string; to?: string }) =>
      setParams(
        (prev) => {
          const out = new URLSearchParams(prev);
          for (const k of ['range', 'from', 'to']) out.delete(k);
          for (const [k, v] of Object.entries(rangeParams(next))) out.set(k, v);
          return out;
        },
        { replace: false },
      ),
    [setParams],
  );
  const setParam = useCallback(
    (key: string, value?: string) =>
      setParams((prev) => {
        const out = new URLSearchParams(prev);
        if (value) out.set(key, value);
        else out.delete(key);
        return out;
      }),
    [setParams],
  );
  return [range, setRange, params, setParam];
}

export function RangeBar({ range, onChange, extra }: { range: StatsRange; onChange: (next: { preset: RangePreset; from?: string; to?: string }) => void; extra?: ReactNode }) {
  const { t } = useTranslation('stats');
  const [custom, setCustom] = useState(range.preset === 'custom');
  const showPicker = custom || range.preset === 'custom';
  const value: [Dayjs, Dayjs] = [dayjs(range.from), dayjs(range.to)];
  return (
    <Flex gap={12} wrap align="center" style={{ marginBottom: 12 }} data-testid="stats-range">
      <Segmented<RangePreset>
        value={showPicker ? 'custom' : range.preset}
        options={RANGE_PRESETS.map((p) => ({ value: p, label: t(`preset.${p}`) }))}
        onChange={(p) => {
          if (p === 'custom') setCustom(true);
          else {
            setCustom(false);
            onChange({ preset: p });
          }
        }}
        data-testid="stats-presets"
      />
      {showPicker && (
        <LazyRangePicker
          value={value}
          allowClear={false}
          style={{ width: 260 }}
          onChange={(v) => {
            if (v?.[0] && v[1]) onChange({ preset: 'custom', from: v[0].format('YYYY-MM-DD'), to: v[1].format('YYYY-MM-DD') });
          }}
          data-testid="stats-custom"
        />
      )}
      <Typography.Text type="secondary" data-testid="stats-range-text">
        {range.from} ~ {range.to} · {t('utc')}
      </Typography.Text>
      {extra}
    </Flex>
  );
}

/** Series drawn as pies (a few shares of one whole); other category series are bars, time series lines. */
const PIES = new Set(['equipment.byStatus', 'distribution.stock', 'institution.byGrade', 'institution.byStatus', 'institution.term', 'institution.applications', 'finance.payouts']);

interface BoardProps {
  page: StatsPage;
  data: { kpis: Record<string, number>; series: Record<string, StatPoint[]>; range: { granularity: 'day' | 'month' } } | undefined;
  input: StatsInput;
  loading: boolean;
}

/** The KPI cards and the charts of one page. */
export function StatsBoard({ page, data, input, loading }: BoardProps) {
  const { t } = useTranslation('stats');
  const lang = useSettings((s) => s.lang);
  const def = STATS_PAGES[page];
  const moneyKpi = (k: string) => STATS_MONEY.kpis.includes(`${page}.${k}`);
  return (
    <div data-testid={`stats-${page}`} aria-busy={loading}>
      <Flex gap={12} wrap style={{ marginBottom: 12 }} className="stats-kpis">
        {def.kpis.map((k) => (
          <Card key={k} size="small" style={{ flex: '1 1 180px' }}>
            <Statistic
              title={t(`kpi.${page}.${k}`)}
              value={data?.kpis[k] ?? 0}
              loading={!data}
              formatter={moneyKpi(k) ? (v) => formatMoney(Number(v ?? 0), lang) : undefined}
              data-testid={`kpi-${k}`}
            />
          </Card>
        ))}
      </Flex>
      <Row gutter={[12, 12]}>
        {def.series.map((s) => (
          <Col key={s} xs={24} xl={12}>
            <SeriesCard page={page} series={s} points={data?.series[s]} granularity={data?.range.granularity ?? 'day'} input={input} />
          </Col>
        ))}
      </Row>
    </div>
  );
}

function SeriesCard({ page, series, points, granularity, input }: { page: StatsPage; series: string; points: StatPoint[] | undefined; granularity: 'day' | 'month'; input: StatsInput }) {
  const { t } = useTranslation('stats');
  const lang = useSettings((s) => s.lang);
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const table = (STATS_TABLES[page] as Record<string, { title: Record<string, string>; key: keyof typeof STATS_COLUMNS | 'bucket'; value: keyof typeof STATS_COLUMNS }>)[series]!;
  const id = `${page}.${series}`;
  const money = STATS_MONEY.series.includes(id);
  const time = STATS_TIME_SERIES.includes(id);
  const title = pickText(table.title as never, lang);
  const keyTitle = pickText(STATS_COLUMNS[table.key === 'bucket' ? (granularity === 'day' ? 'date' : 'month') : table.key], lang);
  const valueTitle = pickText(STATS_COLUMNS[table.value], lang);
  const keyText = useCallback((p: StatPoint) => p.label ?? (STATS_KEY_LABELS[p.key] ? pickText(STATS_KEY_LABELS[p.key]!, lang) : p.key), [lang]);
  // One number format for the chart and its table (money: the currency in the table, two decimals in the chart).
  const format = useMemo(() => chartNumbers(lang, money), [lang, money]);
  const valueText = (v: number) => (money ? formatMoney(v, lang) : format(v));
  const option = useMemo(() => (points ? chartOption(points, { time, pie: PIES.has(id), money, keyText, name: valueTitle, format }) : null), [points, time, id, money, keyText, valueTitle, format]);
  const empty = !!points && (points.length === 0 || points.every((p) => p.value === 0));

  return (
    <Card
      size="small"
      title={title}
      data-testid={`series-${series}`}
      extra={
        <Space size={4}>
          <Segmented<'chart' | 'table'>
            size="small"
            value={view}
            onChange={setView}
            options={[
              { value: 'chart', label: t('view.chart') },
              { value: 'table', label: t('view.table') },
            ]}
            data-testid={`view-${series}`}
          />
          <Button size="small" icon={<DownloadOutlined />} onClick={() => void exportStatsTable(page, series, 'csv', input)} data-testid={`export-csv-${series}`}>
            {t('exportCsv')}
          </Button>
          <Button size="small" onClick={() => void exportStatsTable(page, series, 'xlsx', input)} data-testid={`export-xlsx-${series}`}>
            {t('exportXlsx')}
          </Button>
        </Space>
      }
    >
      {view === 'table' ? (
        <Table<StatPoint>
          size="small"
          rowKey="key"
          dataSource={points ?? []}
          loading={!points}
          pagination={(points?.length ?? 0) > 10 ? { pageSize: 10, size: 'small', showSizeChanger: false } : false}
          columns={[
            { key: 'k', title: keyTitle, render: (_, p) => keyText(p) },
            { key: 'v', title: valueTitle, align: 'right', render: (_, p) => valueText(p.value) },
          ]}
          data-testid={`table-${series}`}
        />
      ) : empty ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} style={{ height: 256, margin: 0, paddingTop: 72 }} />
      ) : option ? (
        <Chart option={option} height={280} label={title} testId={`chart-${series}`} />
      ) : (
        <div style={{ height: 280 }} />
      )}
    </Card>
  );
}

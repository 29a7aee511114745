import { useState } from 'react';
import Alert from 'antd/es/alert';
import App from 'antd/es/app';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Result from 'antd/es/result';
import Select from 'antd/es/select';
import Skeleton from 'antd/es/skeleton';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import ArrowLeftOutlined from '@ant-design/icons/es/icons/ArrowLeftOutlined';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Analysis, AnalysisDisease, AnalysisMeridian, AnalysisSystem } from '@app/contract/analysis';
import type { TreatmentAction } from '@app/contract/api/acupoints';
import { INSPECTION_LIMITS, type InspectionHistoryEntry, type InspectionResultData, type InspectionVersion, type TreatmentSessionRow } from '@app/contract/api/inspections';
import { changesSinceLast } from '@app/contract/report-charts';
import { useText } from '../../components/l10n-text';
import { Access } from '../../lib/access';
import { formatDate, formatDateTime } from '../../lib/time';
import { EChart } from './EChart';
import { useAddSession, useInspectionDetail, useInspectionResult } from './api';
import { LEVEL_COLOR, RISK_COLOR } from './colors';
import { reportPath } from './paths';
import { useTrendCharts } from './trend';

const STATUS_COLOR = { excess: 'red', deficient: 'blue', normal: 'green' } as const;
const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

interface SessionValues {
  session_date: string;
  acupoint_ids: number[];
  minutes: number;
  notes?: string;
}

/** Records a treatment session: the date, the advised acupoints treated, minutes, notes. */
function SessionForm({ data }: { data: InspectionResultData }) {
  const { t } = useTranslation('inspections');
  const text = useText();
  const { message } = App.useApp();
  const [form] = Form.useForm<SessionValues>();
  const add = useAddSession();
  const onFinish = async (v: SessionValues) => {
    await add.mutateAsync({ inspection_id: data.inspection.id, session_date: v.session_date, acupoint_ids: v.acupoint_ids, minutes: v.minutes, notes: v.notes ?? '' });
    void message.success(t('result.saved'));
    form.resetFields();
  };
  return (
    <Form form={form} layout="inline" onFinish={onFinish} initialValues={{ session_date: today(), minutes: 20 }} data-testid="session-form" style={{ rowGap: 8 }}>
      <Form.Item name="session_date" label={t('result.sessionDate')} rules={[{ required: true }]}>
        <Input type="date" max={today()} style={{ width: 150 }} data-testid="session-date" />
      </Form.Item>
      <Form.Item name="acupoint_ids" label={t('result.sessionAcupoints')} rules={[{ required: true }]}>
        <Select mode="multiple" style={{ minWidth: 240 }} options={data.plan.map((p) => ({ value: p.id, label: `${p.code} ${text(p.name)}` }))} data-testid="session-acupoints" />
      </Form.Item>
      <Form.Item name="minutes" label={t('result.sessionMinutes')} rules={[{ required: true }]}>
        <InputNumber min={INSPECTION_LIMITS.minutes.min} max={INSPECTION_LIMITS.minutes.max} precision={0} style={{ width: 90 }} data-testid="session-minutes" />
      </Form.Item>
      <Form.Item name="notes" label={t('result.sessionNotes')}>
        <Input maxLength={INSPECTION_LIMITS.notesLength} style={{ width: 220 }} data-testid="session-notes" />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" loading={add.isPending} disabled={!data.plan.length} data-testid="session-save">
          {t('result.addSession')}
        </Button>
      </Form.Item>
    </Form>
  );
}

/** The trend over the person's earlier inspections: what changed since the last one, the indices, the systems not normal now or before. */
function TrendCard({ a, measuredAt, history }: { a: Analysis; measuredAt: string; history: InspectionHistoryEntry[] }) {
  const { t } = useTranslation('inspections');
  const text = useText();
  const { followed, indices, systems } = useTrendCharts(a, measuredAt, history);
  const changes = changesSinceLast(a, history);
  return (
    <Card size="small" title={t('report.history')} data-testid="result-trend">
      {!history.length ? (
        <span className="text-muted">{t('report.noHistory')}</span>
      ) : (
        <Flex vertical gap={8}>
          <span className="text-muted">{t('report.historyHelp', { n: history.length })}</span>
          {changes ? (
            <div data-testid="result-changes">
              <strong>{t('report.changes', { date: formatDate(changes.since) })}</strong>{' '}
              {changes.systems.length ? (
                <Flex gap={6} wrap style={{ marginTop: 4 }}>
                  {changes.systems.map((c) => (
                    <Tag key={c.system.id} color={LEVEL_COLOR[c.to.level]}>
                      {text(c.system.name)}: {t(`level.${c.from.level}`)} {c.from.score} → {t(`level.${c.to.level}`)} {c.to.score}
                    </Tag>
                  ))}
                </Flex>
              ) : (
                <span className="text-muted">{t('report.noChanges')}</span>
              )}
            </div>
          ) : null}
          {/* Scrolls sideways on a narrow screen: reachable by keyboard (axe: scrollable-region-focusable). */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus for keyboard readers to scroll it */}
          <section style={{ overflowX: 'auto' }} tabIndex={0} aria-label={t('report.history')}>
            <Flex gap={12} wrap>
              <EChart option={indices} width={520} height={180} testId="result-trend-indices" label={t('report.history')} />
              {systems ? <EChart option={systems} width={520} height={180 + Math.ceil(followed / 3) * 16} testId="result-trend-systems" label={t('report.history')} /> : null}
            </Flex>
          </section>
        </Flex>
      )}
    </Card>
  );
}

/** Every version of the analysis, oldest first; any of them opens in the tables above. */
function VersionsCard({ versions, shown, latest, onOpen }: { versions: InspectionVersion[]; shown: number; latest: number; onOpen: (v: number) => void }) {
  const { t } = useTranslation('inspections');
  return (
    <Card size="small" title={t('result.versions')} data-testid="result-versions">
      <Table<InspectionVersion>
        size="small"
        pagination={false}
        rowKey="version"
        dataSource={versions}
        columns={[
          { key: 'v', title: t('result.versionCol'), render: (_, v) => `v${v.version}${v.version === latest ? ` (${t('result.latest')})` : ''}` },
          { key: 't', title: t('result.versionTime'), render: (_, v) => formatDateTime(v.created_at) },
          { key: 'b', title: t('result.versionBy'), render: (_, v) => (v.created_by === 'device' ? t('versionDevice') : v.created_by) },
          {
            key: 'o',
            title: t('col.actions'),
            render: (_, v) =>
              v.version === shown ? (
                <Tag color="blue">{t('result.shown')}</Tag>
              ) : (
                <Button size="small" onClick={() => onOpen(v.version)} data-testid={`result-open-v${v.version}`}>
                  {t('result.open')}
                </Button>
              ),
          },
        ]}
      />
    </Card>
  );
}

/**
 * /inspection/result/:id (hidden route InspectionResult): the analysis as tables, the treatment plan (each
 * advised acupoint's treatment actions) and the treatment sessions, recorded here (button inspection:treat).
 */
export default function ResultPage() {
  const { t } = useTranslation('inspections');
  const { t: tc } = useTranslation();
  const text = useText();
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const { data, isError, isPending } = useInspectionResult(valid ? id : 0);
  const [version, setVersion] = useState<number | null>(null);
  const older = useInspectionDetail(valid ? id : 0, version ?? undefined, valid && version != null);

  if (!valid || isError) return <Result status="warning" title={t('notFound')} extra={<Link to="/inspection/management">{t('action.back')}</Link>} />;
  if (isPending || !data) return <Skeleton active paragraph={{ rows: 12 }} />;
  const viewing = version != null && version !== data.inspection.version && older.data?.version === version ? older.data : null;
  const ins = viewing ?? data.inspection;
  const a = ins.analysis;
  const fmt = (v: number | null | undefined) => (v == null ? '—' : v.toFixed(2));

  return (
    <Flex vertical gap={12} data-testid="result-page">
      <Space wrap>
        <Link to="/inspection/management">
          <ArrowLeftOutlined /> {t('action.back')}
        </Link>
        <Link to={reportPath(id)} data-testid="result-to-report">
          {t('action.report')}
        </Link>
      </Space>
      <Card size="small" title={`${t('result.title')} · ${ins.inspection_no}`}>
        <Descriptions size="small" column={{ xs: 1, md: 3 }}>
          <Descriptions.Item label={t('report.person')}>{ins.user.name}</Descriptions.Item>
          <Descriptions.Item label={t('report.idNumber')}>{ins.user.id_number ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('report.institution')}>{ins.institution.name}</Descriptions.Item>
          <Descriptions.Item label={t('report.doctor')}>{ins.doctor?.name ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('report.device')}>{ins.device.serial}</Descriptions.Item>
          <Descriptions.Item label={t('report.time')}>{formatDateTime(ins.measured_at)}</Descriptions.Item>
          <Descriptions.Item label={t('report.baseline')}>{a ? a.baseline.toFixed(2) : '—'}</Descriptions.Item>
          <Descriptions.Item label={t('report.yinYang')}>{fmt(a?.indices.yin_yang)}</Descriptions.Item>
          <Descriptions.Item label={t('report.upperLower')}>{fmt(a?.indices.upper_lower)}</Descriptions.Item>
          <Descriptions.Item label={t('report.leftRight')}>{fmt(a?.indices.left_right)}</Descriptions.Item>
          <Descriptions.Item label={t('result.versionCol')}>{ins.version === ins.latest_version ? t('versionLatest', { v: ins.version }) : t('version', { v: ins.version })}</Descriptions.Item>
        </Descriptions>
      </Card>

      {viewing ? (
        <Alert
          type="info"
          showIcon
          data-testid="result-older"
          message={t('result.olderShown', { v: viewing.version, latest: viewing.latest_version })}
          action={
            <Button size="small" onClick={() => setVersion(null)}>
              {t('result.backToLatest')}
            </Button>
          }
        />
      ) : null}
      <VersionsCard versions={data.inspection.versions} shown={ins.version} latest={data.inspection.latest_version} onOpen={(v) => setVersion(v === data.inspection.version ? null : v)} />
      {data.inspection.analysis ? <TrendCard a={data.inspection.analysis} measuredAt={data.inspection.measured_at} history={data.history} /> : null}

      {a ? (
        <Flex gap={12} wrap>
          <Card size="small" title={t('result.meridians')} style={{ flex: '1 1 520px' }}>
            <Table<AnalysisMeridian>
              size="small"
              pagination={false}
              rowKey="meridian"
              dataSource={a.meridians}
              data-testid="result-meridians"
              columns={[
                { key: 'm', title: t('result.meridian'), render: (_, m) => `${m.meridian} · ${tc(`meridian.${m.meridian}`)}` },
                { key: 'l', dataIndex: 'left', title: t('report.left'), align: 'right' },
                { key: 'r', dataIndex: 'right', title: t('report.right'), align: 'right' },
                { key: 'v', dataIndex: 'value', title: t('result.value'), align: 'right' },
                { key: 's', title: t('result.statusCol'), render: (_, m) => <Tag color={STATUS_COLOR[m.status]}>{t(`status.${m.status}`)}</Tag> },
                { key: 'i', title: t('result.imbalanced'), render: (_, m) => (m.imbalanced ? <Tag color="orange">{t('result.yes')}</Tag> : t('result.no')) },
              ]}
            />
          </Card>
          <Flex vertical gap={12} style={{ flex: '1 1 360px' }}>
            <Card size="small" title={t('report.systems')}>
              <Table<AnalysisSystem>
                size="small"
                pagination={false}
                rowKey="id"
                dataSource={a.systems}
                columns={[
                  { key: 'n', title: t('result.system'), render: (_, s) => text(s.name) },
                  { key: 's', dataIndex: 'score', title: t('result.score'), align: 'right' },
                  { key: 'l', title: t('result.levelCol'), render: (_, s) => <Tag color={LEVEL_COLOR[s.level]}>{t(`level.${s.level}`)}</Tag> },
                ]}
              />
            </Card>
            <Card size="small" title={t('report.risks')}>
              <Table<AnalysisDisease>
                size="small"
                pagination={false}
                rowKey="id"
                dataSource={a.diseases}
                locale={{ emptyText: t('report.noRisks') }}
                columns={[
                  { key: 'n', title: t('result.disease'), render: (_, d) => text(d.name) },
                  { key: 's', title: t('result.shareCol'), align: 'right', render: (_, d) => `${Math.round(d.share * 100)}%` },
                  { key: 'r', title: t('result.riskCol'), render: (_, d) => <Tag color={RISK_COLOR[d.risk]}>{t(`risk.${d.risk}`)}</Tag> },
                ]}
              />
            </Card>
          </Flex>
        </Flex>
      ) : (
        <Result status="info" title={t('noAnalysis')} />
      )}

      <Card size="small" title={t('result.plan')} extra={<span className="text-muted">{t('result.planHelp')}</span>} data-testid="result-plan">
        {data.plan.length === 0 ? <span className="text-muted">{t('report.noRisks')}</span> : null}
        <Flex vertical gap={10}>
          {data.plan.map((p) => (
            <div key={p.id}>
              <strong className="mono">{p.code}</strong> {text(p.name)} {p.is_treatment_point ? null : <span className="text-muted">({t('result.notTreatmentPoint')})</span>}
              {p.actions.length ? (
                <Table<TreatmentAction & { key: number }>
                  size="small"
                  pagination={false}
                  dataSource={p.actions.map((x, i) => ({ ...x, key: i }))}
                  columns={[
                    { key: 'w', title: t('result.waveform'), render: (_, x) => t(`waveforms.${x.waveform}`) },
                    { key: 'f', dataIndex: 'frequency_hz', title: t('result.frequency'), align: 'right' },
                    { key: 'i', title: t('result.intensity'), align: 'right', render: (_, x) => `${x.intensity_min}–${x.intensity_max}` },
                    { key: 'm', dataIndex: 'minutes', title: t('result.minutes'), align: 'right' },
                  ]}
                />
              ) : (
                <div className="text-muted">{t('result.noActions')}</div>
              )}
            </div>
          ))}
        </Flex>
      </Card>

      <Card size="small" title={t('result.sessions')} data-testid="result-sessions">
        <Access sign="inspection:treat">
          <div style={{ marginBottom: 12 }}>
            <SessionForm data={data} />
          </div>
        </Access>
        <Table<TreatmentSessionRow>
          size="small"
          pagination={false}
          rowKey="id"
          dataSource={data.sessions}
          locale={{ emptyText: t('result.noSessions') }}
          columns={[
            { key: 'd', dataIndex: 'session_date', title: t('result.sessionDate') },
            { key: 'a', title: t('result.sessionAcupoints'), render: (_, s) => s.acupoints.map((p) => `${p.code} ${text(p.name)}`).join(', ') },
            { key: 'm', dataIndex: 'minutes', title: t('result.sessionMinutes'), align: 'right' },
            { key: 'n', dataIndex: 'notes', title: t('result.sessionNotes') },
            { key: 'b', dataIndex: 'created_by', title: t('result.sessionBy') },
          ]}
        />
      </Card>
    </Flex>
  );
}

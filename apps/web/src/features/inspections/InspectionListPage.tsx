import { useMemo, useState } from 'react';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import type { ColumnsType } from 'antd/es/table';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { INSPECTION_LEVELS, INSPECTION_RISKS, type InspectionRow } from '@app/contract/api/inspections';
import { dateRangeFilter, KeywordFilter, ListPage, numberFilter, RowLinks, useListParams } from '../../components/list';
import { InstitutionSelect } from '../../components/InstitutionSelect';
import { LazyRangePicker } from '../../components/LazyRangePicker';
import { useText } from '../../components/l10n-text';
import { formatDateTime } from '../../lib/time';
import { useDeviceOptions, useInspections } from './api';
import { LEVEL_COLOR, RISK_COLOR } from './colors';
import { ExportButton } from '../../components/ExportButton';
import { reportPath, resultPath } from './paths';

const FILTERS = ['keyword', 'person', 'institution_id', 'device_id', 'doctor_id', 'user_id', 'date_from', 'date_to', 'risk', 'level'] as const;
const CODECS = [dateRangeFilter('date', 'date_from', 'date_to'), numberFilter('institution_id'), numberFilter('device_id')];

/** The device filter: the caller's devices by serial or name (the device list's own scoped call). */
function DeviceSelect(props: { id?: string; value?: number; onChange?: (v: number | undefined) => void; placeholder: string }) {
  const [keyword, setKeyword] = useState('');
  const { data, isFetching } = useDeviceOptions(keyword);
  const options = (data?.list ?? []).map((d) => ({ value: d.id, label: `${d.serial} · ${d.name}` }));
  return (
    <Select
      id={props.id}
      allowClear
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      loading={isFetching}
      placeholder={props.placeholder}
      style={{ width: 220 }}
      options={options}
      value={props.value}
      onChange={(v) => props.onChange?.(v ?? undefined)}
      data-testid="filter-device"
    />
  );
}

/**
 * /inspection/management (grades 0-3, scoped): number, person, doctor, device, institution, time and the
 * headline (worst system level, top risk); filters in the URL (a person's or a doctor's history arrives
 * with `user_id` / `doctor_id`); export as CSV or Excel with the same filters; links to report and result.
 */
export default function InspectionListPage() {
  const { t } = useTranslation('inspections');
  const text = useText();
  const params = useListParams({ filters: FILTERS });
  const query = useInspections(params.query);
  const rows = query.data?.list ?? [];
  const { user_id, doctor_id } = params.filters;

  const navigate = useNavigate();
  const columns = useMemo<ColumnsType<InspectionRow>>(
    () => [
      { key: 'number', dataIndex: 'inspection_no', title: t('col.number'), fixed: 'left', render: (v: string) => <span className="mono">{v}</span> },
      { key: 'person', dataIndex: 'user_name', title: t('col.person'), mobile: 'field' },
      { key: 'doctor', dataIndex: 'doctor_name', title: t('col.doctor'), render: (v: string | null) => v ?? <span className="text-muted">—</span> },
      { key: 'device', dataIndex: 'device_serial', title: t('col.device'), render: (v: string) => <span className="mono">{v}</span> },
      { key: 'institution', dataIndex: 'institution_name', title: t('col.institution'), ellipsis: { showTitle: true } },
      { key: 'measured_at', dataIndex: 'measured_at', title: t('col.time'), sorter: true, mobile: 'field', render: (v: string) => formatDateTime(v) },
      {
        key: 'headline',
        title: t('col.headline'),
        mobile: 'field',
        render: (_, r) => (
          <Space size={4} wrap>
            {r.worst_level ? <Tag color={LEVEL_COLOR[r.worst_level]}>{t(`level.${r.worst_level}`)}</Tag> : null}
            {r.top_risk ? <Tag color={RISK_COLOR[r.top_risk]}>{t(`risk.${r.top_risk}`)}</Tag> : null}
            {r.top_disease ? <span>{text(r.top_disease)}</span> : null}
          </Space>
        ),
      },
      {
        key: 'actions',
        title: t('col.actions'),
        fixed: 'right',
        render: (_, r) => (
          <RowLinks
            links={[
              { key: 'report', label: t('action.report'), to: reportPath(r.id), testId: `report-${r.inspection_no}` },
              { key: 'result', label: t('action.result'), to: resultPath(r.id), testId: `result-${r.inspection_no}` },
            ]}
          />
        ),
      },
    ],
    [t, text],
  );

  // A person's or a doctor's history (links from the user and doctor pages): a tag that clears it.
  const pinned = (
    <>
      {user_id ? (
        <Tag closable onClose={() => params.patchFilters({ user_id: undefined })} data-testid="pinned-user">
          {t('filter.onePerson', { name: rows[0]?.user_id === Number(user_id) ? rows[0].user_name : `#${user_id}` })}
        </Tag>
      ) : null}
      {doctor_id ? (
        <Tag closable onClose={() => params.patchFilters({ doctor_id: undefined })} data-testid="pinned-doctor">
          {t('filter.oneDoctor', { name: rows[0]?.doctor_id === Number(doctor_id) ? rows[0].doctor_name : `#${doctor_id}` })}
        </Tag>
      ) : null}
    </>
  );

  return (
    <ListPage<InspectionRow, (typeof FILTERS)[number]>
      listName="inspections.list"
      onCardOpen={(r) => navigate(reportPath(r.id))}
      testId="inspection-list"
      params={params}
      query={query}
      columns={columns}
      rowKey="id"
      codecs={CODECS}
      instant={['date', 'risk', 'level', 'institution_id', 'device_id']}
      noDataText={t('noData')}
      title={user_id || doctor_id ? pinned : undefined}
      toolbar={<ExportButton endpoint="inspections.exportList" sign="inspection:export" query={params.query} filename="inspections" testId="inspections-export" />}
      filters={
        <>
          <KeywordFilter label={t('filter.keyword')} placeholder={t('filter.keywordPlaceholder')} width={180} />
          <Form.Item name="person" label={t('filter.person')}>
            <Input allowClear placeholder={t('filter.personPlaceholder')} style={{ width: 140 }} data-testid="filter-person" />
          </Form.Item>
          <Form.Item name="institution_id" label={t('filter.institution')}>
            <InstitutionSelect placeholder={t('filter.institutionPlaceholder')} style={{ width: 220 }} data-testid="filter-institution" />
          </Form.Item>
          <Form.Item name="device_id" label={t('filter.device')}>
            <DeviceSelect placeholder={t('filter.devicePlaceholder')} />
          </Form.Item>
          <Form.Item name="date" label={t('filter.date')}>
            <LazyRangePicker allowEmpty={[true, true]} placeholder={[t('common:list.dateFrom'), t('common:list.dateTo')]} style={{ width: 260 }} />
          </Form.Item>
          <Form.Item name="risk" label={t('filter.risk')}>
            <Select allowClear placeholder={t('common:list.all')} style={{ width: 140 }} options={INSPECTION_RISKS.map((r) => ({ value: r, label: t(`risk.${r}`) }))} data-testid="filter-risk" />
          </Form.Item>
          <Form.Item name="level" label={t('filter.level')}>
            <Select allowClear placeholder={t('common:list.all')} style={{ width: 130 }} options={INSPECTION_LEVELS.map((r) => ({ value: r, label: t(`level.${r}`) }))} data-testid="filter-level" />
          </Form.Item>
        </>
      }
    />
  );
}

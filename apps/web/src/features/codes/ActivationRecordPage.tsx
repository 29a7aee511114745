import { useMemo } from 'react';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import Tag from 'antd/es/tag';
import type { ColumnsType } from 'antd/es/table';
import KeyOutlined from '@ant-design/icons/es/icons/KeyOutlined';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CODE_SCOPES, type ActivationRecordRow, type CodeScope } from '@app/contract/api/codes';
import { findRoute } from '@app/contract/routes';
import { dateRangeFilter, ListPage, numberFilter, useListParams } from '../../components/list';
import { InstitutionSelect } from '../../components/InstitutionSelect';
import { LazyRangePicker } from '../../components/LazyRangePicker';
import { useAccessModel } from '../../lib/access';
import { formatNumber } from '../../lib/money';
import { useSettings } from '../../lib/settings';
import { formatDateTime } from '../../lib/time';
import { useActivationRecords } from './api';
import { ExportButton } from '../../components/ExportButton';

const FILTERS = ['date_from', 'date_to', 'scope', 'institution_id'] as const;
const CODECS = [dateRangeFilter('date', 'date_from', 'date_to'), numberFilter('institution_id')];
const SCOPE_COLOR: Record<CodeScope, string> = { institution: 'purple', device: 'blue' };
const CODES_ROUTE = findRoute('ActivationCode');

/**
 * /institutional/institution-end-record (grades 0-3, scoped): one row per code redeemed from the back
 * office, with what it renewed, the term (and uses) before and after, who and when; export as CSV or
 * Excel with the same filters. The platform gets a link to the codes page.
 */
export default function ActivationRecordPage() {
  const { t } = useTranslation('codes');
  const lang = useSettings((s) => s.lang);
  const navigate = useNavigate();
  const access = useAccessModel();
  const params = useListParams({ filters: FILTERS });
  const query = useActivationRecords(params.query);
  const canCodes = !!CODES_ROUTE && access.viewer.isAdmin && access.canOpen(CODES_ROUTE);

  const columns = useMemo<ColumnsType<ActivationRecordRow>>(() => {
    const arrow = (a: string, b: string) => `${a} → ${b}`;
    const when = (v: string | null) => (v ? formatDateTime(v) : t('records.none'));
    const count = (v: number | null) => (v == null ? t('records.none') : formatNumber(v, lang));
    return [
      { key: 'created_at', dataIndex: 'created_at', title: t('records.col.time'), sorter: true, fixed: 'left', render: (v: string) => formatDateTime(v) },
      { key: 'code', mobile: 'field', dataIndex: 'code', title: t('records.col.code'), render: (v: string) => <span className="mono">{v}</span> },
      { key: 'batch', dataIndex: 'batch_no', title: t('records.col.batch'), render: (v: string) => <span className="mono">{v}</span> },
      { key: 'scope', dataIndex: 'scope', title: t('records.col.scope'), render: (v: CodeScope) => <Tag color={SCOPE_COLOR[v]}>{t(`scope.${v}`)}</Tag> },
      {
        key: 'target',
        mobile: 'field',
        title: t('records.col.target'),
        render: (_, r) =>
          r.device_serial ? (
            <span>
              <span className="mono">{r.device_serial}</span> · {r.institution_name}
            </span>
          ) : (
            r.institution_name
          ),
      },
      {
        key: 'grant',
        mobile: 'field',
        title: t('records.col.grant'),
        render: (_, r) => (r.package_name ? `${r.package_name}${r.uses_added ? ` (+${t('uses', { n: r.uses_added })})` : ''}` : r.days != null ? t('days', { n: r.days }) : '—'),
      },
      { key: 'term', title: t('records.col.term'), render: (_, r) => arrow(when(r.term_before), when(r.term_after)) },
      { key: 'uses', title: t('records.col.uses'), render: (_, r) => (r.uses_before == null && r.uses_after == null ? '—' : arrow(count(r.uses_before), count(r.uses_after))) },
      { key: 'operator', dataIndex: 'operator_name', title: t('records.col.operator') },
    ];
  }, [t, lang]);

  return (
    <ListPage<ActivationRecordRow, (typeof FILTERS)[number]>
      listName="codes.records"
      testId="activation-record-list"
      params={params}
      query={query}
      columns={columns}
      rowKey="id"
      codecs={CODECS}
      instant={['date', 'scope', 'institution_id']}
      noDataText={t('records.noData')}
      toolbar={
        <>
          {canCodes ? (
            <Button icon={<KeyOutlined />} onClick={() => navigate(CODES_ROUTE!.path)} data-testid="records-codes-link">
              {t('records.codesPage')}
            </Button>
          ) : null}
          <ExportButton endpoint="codes.recordsExport" sign="activation_record:export" query={params.query} filename="activation-records" testId="records-export" />
        </>
      }
      filters={
        <>
          <Form.Item name="date" label={t('records.filter.date')}>
            <LazyRangePicker allowEmpty={[true, true]} placeholder={[t('common:list.dateFrom'), t('common:list.dateTo')]} style={{ width: 260 }} />
          </Form.Item>
          <Form.Item name="scope" label={t('records.filter.scope')}>
            <Select allowClear placeholder={t('common:list.all')} style={{ width: 130 }} options={CODE_SCOPES.map((s) => ({ value: s, label: t(`scope.${s}`) }))} data-testid="filter-scope" />
          </Form.Item>
          <Form.Item name="institution_id" label={t('records.filter.institution')}>
            <InstitutionSelect placeholder={t('records.filter.institutionPlaceholder')} style={{ width: 220 }} data-testid="filter-institution" />
          </Form.Item>
        </>
      }
    />
  );
}

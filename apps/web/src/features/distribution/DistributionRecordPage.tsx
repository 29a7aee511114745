import { useMemo } from 'react';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Tag from 'antd/es/tag';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { DistributionRow } from '@app/contract/api/distribution';
import { dateRangeFilter, ListPage, numberFilter, useListParams } from '../../components/list';
import { InstitutionSelect } from '../../components/InstitutionSelect';
import { LazyRangePicker } from '../../components/LazyRangePicker';
import { formatDateTime } from '../../lib/time';
import { useDistributionRecords } from './api';
import { ExportButton } from '../../components/ExportButton';

const FILTERS = ['serial', 'institution_id', 'date_from', 'date_to'] as const;
const CODECS = [numberFilter('institution_id'), dateRangeFilter('date', 'date_from', 'date_to')];

/** /distribution-record/index (grade 0): every move of devices: devices, from, to, operator, time, remark; filters and export. */
export default function DistributionRecordPage() {
  const { t } = useTranslation('distribution');
  const params = useListParams({ filters: FILTERS });
  const query = useDistributionRecords(params.query);
  const columns = useMemo<ColumnsType<DistributionRow>>(() => {
    const owner = (name: string | null) => name ?? <Tag variant="filled">{t('stock')}</Tag>;
    return [
      { key: 'created_at', dataIndex: 'created_at', title: t('col.time'), sorter: true, render: (v: string) => formatDateTime(v) },
      { key: 'from', title: t('col.from'), render: (_, r) => owner(r.from_institution_name) },
      { key: 'to', title: t('col.to'), render: (_, r) => owner(r.to_institution_name) },
      {
        key: 'devices',
        title: t('col.devices'),
        render: (_, r) => (
          <span className="mono" title={r.serials.join(', ')}>
            {r.device_count}: {r.serials.slice(0, 5).join(', ')}
            {r.serials.length > 5 ? ', …' : ''}
          </span>
        ),
      },
      { key: 'operator', dataIndex: 'operator_name', title: t('col.operator') },
      { key: 'remark', dataIndex: 'remark', title: t('col.remark') },
    ];
  }, [t]);
  return (
    <ListPage<DistributionRow, (typeof FILTERS)[number]>
      listName="distribution.list"
      testId="distribution-list"
      params={params}
      query={query}
      columns={columns}
      rowKey="id"
      codecs={CODECS}
      instant={['institution_id', 'date']}
      noDataText={t('noData')}
      toolbar={<ExportButton endpoint="distribution.exportRecords" sign="distribution:export" query={params.query} filename="distribution-records" testId="distribution-export" />}
      filters={
        <>
          <Form.Item name="serial" label={t('filter.serial')}>
            <Input allowClear placeholder={t('filter.serial')} style={{ width: 180 }} data-testid="filter-serial" />
          </Form.Item>
          <Form.Item name="institution_id" label={t('filter.institution')}>
            <InstitutionSelect placeholder={t('filter.institutionPlaceholder')} style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="date" label={t('filter.date')}>
            <LazyRangePicker allowEmpty={[true, true]} placeholder={[t('common:list.dateFrom'), t('common:list.dateTo')]} style={{ width: 260 }} />
          </Form.Item>
        </>
      }
    />
  );
}

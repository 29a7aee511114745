import { useMemo } from 'react';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import Tag from 'antd/es/tag';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { LEDGER_KINDS, type LedgerKind, type LedgerRow } from '@app/contract/api/finance';
import { dateRangeFilter, ListPage, numberFilter, useListParams } from '../../components/list';
import { InstitutionSelect } from '../../components/InstitutionSelect';
import { LazyRangePicker } from '../../components/LazyRangePicker';
import { Money } from '../../components/Money';
import { formatDateTime } from '../../lib/time';
import { useLedger } from './api';
import { SummaryCards } from './SummaryCards';
import { ExportButton } from '../../components/ExportButton';

const FILTERS = ['institution_id', 'kind', 'date_from', 'date_to'] as const;
const CODECS = [dateRangeFilter('date', 'date_from', 'date_to'), numberFilter('institution_id')];
export const KIND_COLOR: Record<LedgerKind, string> = { commission: 'green', payout_hold: 'orange', payout_release: 'blue', refund_reversal: 'red', adjustment: 'default' };

/**
 * /finance-record/index (grades 0-2, scoped): the ledger, newest first: every change of a balance with
 * its amount, the balance after it and what caused it. The cards on top: the balance, the ledger's sum
 * (always the same number) and the payouts on hold, for the caller (admins: the filtered institution, or all).
 */
export default function LedgerPage() {
  const { t } = useTranslation('finance');
  const params = useListParams({ filters: FILTERS });
  const query = useLedger(params.query);
  const institutionId = params.filters.institution_id ? Number(params.filters.institution_id) : undefined;

  const columns = useMemo<ColumnsType<LedgerRow>>(
    () => [
      { key: 'created_at', dataIndex: 'created_at', title: t('col.time'), sorter: true, render: (v: string) => formatDateTime(v) },
      { key: 'institution', dataIndex: 'institution_name', title: t('col.institution') },
      { key: 'kind', dataIndex: 'kind', title: t('col.kind'), render: (v: LedgerKind) => <Tag color={KIND_COLOR[v]}>{t(`kind.${v}`)}</Tag> },
      { key: 'amount', dataIndex: 'amount_cents', title: t('col.amount'), sorter: true, align: 'right', render: (v: number) => <Money cents={v} /> },
      { key: 'balance', dataIndex: 'balance_after_cents', title: t('col.balanceAfter'), align: 'right', render: (v: number) => <Money cents={v} /> },
      { key: 'ref', title: t('col.ref'), render: (_, r) => t(`ref.${r.ref_type}`, { id: r.ref_id }) },
    ],
    [t],
  );

  return (
    <>
      <SummaryCards institutionId={institutionId} />
      <ListPage<LedgerRow, (typeof FILTERS)[number]>
        listName="finance.list"
        testId="ledger-list"
        params={params}
        query={query}
        columns={columns}
        rowKey="id"
        codecs={CODECS}
        instant={['date', 'kind', 'institution_id']}
        noDataText={t('noData')}
        toolbar={<ExportButton endpoint="finance.exportList" sign="finance:export" query={params.query} filename="finance-records" testId="ledger-export" />}
        filters={
          <>
            <Form.Item name="institution_id" label={t('filter.institution')}>
              <InstitutionSelect placeholder={t('filter.institutionPlaceholder')} style={{ width: 220 }} data-testid="filter-institution" />
            </Form.Item>
            <Form.Item name="kind" label={t('filter.kind')}>
              <Select allowClear placeholder={t('common:list.all')} style={{ width: 160 }} options={LEDGER_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))} data-testid="filter-kind" />
            </Form.Item>
            <Form.Item name="date" label={t('filter.date')}>
              <LazyRangePicker allowEmpty={[true, true]} placeholder={[t('common:list.dateFrom'), t('common:list.dateTo')]} style={{ width: 260 }} />
            </Form.Item>
          </>
        }
      />
    </>
  );
}

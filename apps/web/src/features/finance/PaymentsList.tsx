import { useMemo, useState } from 'react';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { FINANCE_LIMITS, PAYMENT_CHANNELS, PAYMENT_STATUSES, type PaymentListResult, type PaymentRow, type PaymentStatus } from '@app/contract/api/finance';
import { dateRangeFilter, ListPage, numberFilter, useListParams } from '../../components/list';
import { FormModal } from '../../components/FormModal';
import { InstitutionSelect } from '../../components/InstitutionSelect';
import { LazyRangePicker } from '../../components/LazyRangePicker';
import { Money } from '../../components/Money';
import { RowActions } from '../../components/RowActions';
import { useAccess } from '../../lib/access';
import { formatMoney } from '../../lib/money';
import { useSettings } from '../../lib/settings';
import { formatDateTime } from '../../lib/time';
import { usePackageOptions, usePayments, useRefund } from './api';
import { ExportButton } from '../../components/ExportButton';

const FILTERS = ['serial', 'institution_id', 'package_id', 'channel', 'status', 'date_from', 'date_to'] as const;
const CODECS = [dateRangeFilter('date', 'date_from', 'date_to'), numberFilter('institution_id'), numberFilter('package_id')];
const STATUS_COLOR: Record<PaymentStatus, string> = { paid: 'green', refunded: 'red' };

/** Refund (grade 0) with a reason: the unused part of the device effect is taken back, the commissions reversed. */
function RefundDialog({ payment, onClose }: { payment: PaymentRow | null; onClose: () => void }) {
  const { t } = useTranslation('finance');
  const refund = useRefund(t('refund.done'));
  return (
    <FormModal<{ reason: string }>
      open={!!payment}
      title={t('refund.title')}
      onClose={onClose}
      onSubmit={(v) => refund.mutateAsync({ id: payment!.id, reason: v.reason.trim() })}
      okText={t('action.refund')}
      width={480}
      testId="payment-refund"
    >
      <Typography.Paragraph type="secondary">{t('refund.hint')}</Typography.Paragraph>
      <Form.Item
        name="reason"
        label={t('refund.reason')}
        rules={[{ required: true, whitespace: true, message: t('refund.reasonRequired') }, { max: FINANCE_LIMITS.reasonLength }]}
        style={{ marginBottom: 0 }}
      >
        <Input.TextArea rows={3} maxLength={FINANCE_LIMITS.reasonLength} showCount data-testid="payment-refund-reason" />
      </Form.Item>
    </FormModal>
  );
}

/**
 * Device payments (device-end records) with filters, a totals row over every matching row (not only
 * the page) and export. `deviceId`: one device's payments (the hidden per-device page).
 */
export function PaymentsList({ deviceId, title }: { deviceId?: number; title?: React.ReactNode }) {
  const { t } = useTranslation('finance');
  const lang = useSettings((s) => s.lang);
  const { viewer, can } = useAccess();
  const canRefund = can('payment:refund');
  // A grade-2 institution sees its own commission line only, a clinic none (the server answers null for
  // what the caller may not see: commissionView on the server).
  const allLines = viewer.isAdmin || viewer.grade === 1;
  const anyLine = allLines || viewer.grade === 2;
  const params = useListParams({ filters: FILTERS });
  const input = deviceId ? { ...params.query, device_id: deviceId } : params.query;
  const query = usePayments(input);
  const packagesQuery = usePackageOptions(viewer.isAdmin);
  const [refunding, setRefunding] = useState<PaymentRow | null>(null);
  // The list answer carries the totals of every matching row beside the page (PaymentListResult).
  const totals = (query.data as PaymentListResult | undefined)?.totals;

  const columns = useMemo<ColumnsType<PaymentRow>>(
    () => [
      { key: 'paid_at', dataIndex: 'paid_at', title: t('col.paidAt'), sorter: true, render: (v: string) => formatDateTime(v) },
      { key: 'order_no', dataIndex: 'order_no', title: t('col.orderNo'), render: (v: string) => <span className="mono">{v}</span> },
      ...(deviceId ? [] : [{ key: 'device', mobile: 'field' as const, dataIndex: 'device_serial', title: t('col.device'), render: (v: string) => <span className="mono">{v}</span> }]),
      { key: 'institution', mobile: 'field', dataIndex: 'institution_name', title: t('col.institution') },
      { key: 'package', dataIndex: 'package_name', title: t('col.package') },
      { key: 'amount', mobile: 'field', dataIndex: 'amount_cents', title: t('col.amount'), sorter: true, align: 'right', render: (v: number) => <Money cents={v} /> },
      { key: 'channel', dataIndex: 'channel', title: t('col.channel'), render: (v: string) => ((PAYMENT_CHANNELS as readonly string[]).includes(v) ? t(`channel.${v}`) : v) },
      ...(anyLine
        ? [
            {
              key: 'commission',
              title: t('col.commission'),
              align: 'right' as const,
              render: (_: unknown, r: PaymentRow) => (
                <span>
                  {r.l1_cents == null ? '—' : <Money cents={r.l1_cents} />} / {r.l2_cents == null ? '—' : <Money cents={r.l2_cents} />}
                </span>
              ),
            },
          ]
        : []),
      ...(allLines ? [{ key: 'platform', dataIndex: 'platform_cents', title: t('col.platform'), align: 'right' as const, render: (v: number) => <Money cents={v} /> }] : []),
      {
        key: 'status',
        dataIndex: 'status',
        title: t('col.status'),
        render: (v: PaymentStatus, r) => (
          <Tag color={STATUS_COLOR[v]} title={r.refund_reason || undefined}>
            {t(`paymentStatus.${v}`)}
          </Tag>
        ),
      },
      ...(canRefund
        ? [
            {
              key: 'actions',
              title: t('col.actions'),
              fixed: 'right' as const,
              render: (_: unknown, r: PaymentRow) =>
                r.status === 'paid' ? <RowActions actions={[{ key: 'refund', label: t('action.refund'), sign: 'payment:refund', danger: true, onClick: () => setRefunding(r) }]} /> : null,
            },
          ]
        : []),
    ],
    [t, deviceId, allLines, anyLine, canRefund],
  );

  // The totals: the table's summary row, and under the cards on a phone.
  const totalsText = totals ? (
    <>
      <Typography.Text strong>
        {t('totals', { count: totals.count })}: <span data-testid="payment-totals-amount">{formatMoney(totals.amount_cents, lang)}</span>
      </Typography.Text>
      <Typography.Text type="secondary">
        {totals.commission_cents == null ? null : (
          <>
            {' · '}
            {t('totalsCommission', { amount: formatMoney(totals.commission_cents, lang) })}
          </>
        )}
        {' · '}
        {t('totalsRefunded', { amount: formatMoney(totals.refunded_cents, lang) })}
      </Typography.Text>
    </>
  ) : null;

  return (
    <>
      <ListPage<PaymentRow, (typeof FILTERS)[number]>
        listName="finance.payments"
        testId="payment-list"
        title={title}
        params={params}
        query={query}
        columns={columns}
        rowKey="id"
        codecs={CODECS}
        instant={['date', 'status', 'institution_id', 'package_id', 'channel']}
        noDataText={t('noData')}
        cardFooter={totalsText}
        tableProps={{
          summary: () =>
            totals ? (
              <Table.Summary fixed="bottom">
                <Table.Summary.Row data-testid="payment-totals">
                  <Table.Summary.Cell index={0} colSpan={columns.length}>
                    {totalsText}
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              </Table.Summary>
            ) : null,
        }}
        toolbar={<ExportButton endpoint="finance.paymentsExport" sign="payment:export" query={input} filename="device-payments" testId="payments-export" />}
        filters={
          <>
            {deviceId ? null : (
              <Form.Item name="serial" label={t('filter.serial')}>
                <Input allowClear placeholder={t('filter.serialPlaceholder')} style={{ width: 160 }} data-testid="filter-serial" />
              </Form.Item>
            )}
            {deviceId ? null : (
              <Form.Item name="institution_id" label={t('filter.institution')}>
                <InstitutionSelect placeholder={t('filter.institutionPlaceholder')} style={{ width: 220 }} data-testid="filter-institution" />
              </Form.Item>
            )}
            {viewer.isAdmin ? (
              <Form.Item name="package_id" label={t('filter.package')}>
                <Select
                  allowClear
                  placeholder={t('common:list.all')}
                  style={{ width: 180 }}
                  options={(packagesQuery.data?.list ?? []).map((p) => ({ value: p.id, label: p.name }))}
                  data-testid="filter-package"
                />
              </Form.Item>
            ) : null}
            <Form.Item name="channel" label={t('filter.channel')}>
              <Select
                allowClear
                placeholder={t('common:list.all')}
                style={{ width: 140 }}
                options={PAYMENT_CHANNELS.map((c) => ({ value: c, label: t(`channel.${c}`) }))}
                data-testid="filter-channel"
              />
            </Form.Item>
            <Form.Item name="status" label={t('filter.status')}>
              <Select
                allowClear
                placeholder={t('common:list.all')}
                style={{ width: 130 }}
                options={PAYMENT_STATUSES.map((s) => ({ value: s, label: t(`paymentStatus.${s}`) }))}
                data-testid="filter-status"
              />
            </Form.Item>
            <Form.Item name="date" label={t('filter.date')}>
              <LazyRangePicker allowEmpty={[true, true]} placeholder={[t('common:list.dateFrom'), t('common:list.dateTo')]} style={{ width: 260 }} />
            </Form.Item>
          </>
        }
      />
      <RefundDialog payment={refunding} onClose={() => setRefunding(null)} />
    </>
  );
}

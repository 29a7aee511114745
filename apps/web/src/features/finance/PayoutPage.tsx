import { useMemo, useState } from 'react';
import App from 'antd/es/app';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { PAYOUT_STATUSES, type PayoutRow, type PayoutStatus } from '@app/contract/api/finance';
import { dateRangeFilter, ListPage, numberFilter, useListParams, CreateButton } from '../../components/list';
import { InstitutionSelect } from '../../components/InstitutionSelect';
import { LazyRangePicker } from '../../components/LazyRangePicker';
import { Money } from '../../components/Money';
import { RowActions } from '../../components/RowActions';
import { useAccess } from '../../lib/access';
import { formatMoney } from '../../lib/money';
import { useSession } from '../../lib/session';
import { useSettings } from '../../lib/settings';
import { formatDateTime } from '../../lib/time';
import { useCancelPayout, usePayouts } from './api';
import { ApplyDialog, ApproveDialog, RejectDialog } from './PayoutDialogs';
import { SummaryCards } from './SummaryCards';
import { ExportButton } from '../../components/ExportButton';

const FILTERS = ['institution_id', 'status', 'date_from', 'date_to'] as const;
const CODECS = [dateRangeFilter('date', 'date_from', 'date_to'), numberFilter('institution_id')];
const STATUS_COLOR: Record<PayoutStatus, string> = { pending: 'gold', paid: 'green', rejected: 'red', cancelled: 'default' };

/**
 * /finance-record/payout-manage (grades 0-2, scoped): payout applications. Grades 1-2 apply (the amount
 * is held at once) and cancel their own pending ones; the platform approves (paid, optional voucher) or
 * rejects (with a reason; the hold is released). Account numbers are masked.
 */
export default function PayoutPage() {
  const { t } = useTranslation('finance');
  const { modal } = App.useApp();
  const { viewer } = useAccess();
  const lang = useSettings((s) => s.lang);
  const params = useListParams({ filters: FILTERS });
  const query = usePayouts(params.query);
  const cancel = useCancelPayout(t('cancel.done'));
  const isAdmin = useSession((s) => s.isAdmin);
  const [applying, setApplying] = useState(false);
  const [approving, setApproving] = useState<PayoutRow | null>(null);
  const [rejecting, setRejecting] = useState<PayoutRow | null>(null);
  const institutionId = params.filters.institution_id ? Number(params.filters.institution_id) : undefined;

  const columns = useMemo<ColumnsType<PayoutRow>>(
    () => [
      { key: 'created_at', dataIndex: 'created_at', title: t('col.time'), sorter: true, render: (v: string) => formatDateTime(v) },
      { key: 'institution', dataIndex: 'institution_name', title: t('col.institution') },
      { key: 'amount', dataIndex: 'amount_cents', title: t('col.amount'), sorter: true, align: 'right', render: (v: number) => <Money cents={v} /> },
      {
        key: 'account',
        title: t('col.bank'),
        render: (_, r) => (
          <span>
            {r.bank} · {r.account_name} · <span className="mono">{r.account_no}</span>
          </span>
        ),
      },
      { key: 'status', dataIndex: 'status', title: t('col.status'), render: (v: PayoutStatus) => <Tag color={STATUS_COLOR[v]}>{t(`payoutStatus.${v}`)}</Tag> },
      {
        key: 'note',
        title: t('col.note'),
        render: (_, r) =>
          r.reason ? (
            <Typography.Text type="danger">{r.reason}</Typography.Text>
          ) : r.voucher ? (
            <Typography.Link href={r.voucher} target="_blank" rel="noreferrer">
              {t('approve.view')}
            </Typography.Link>
          ) : null,
      },
      { key: 'decided', title: t('col.decided'), render: (_, r) => (r.decided_at ? `${formatDateTime(r.decided_at)} · ${r.decided_by}` : '') },
      {
        key: 'actions',
        title: t('col.actions'),
        fixed: 'right',
        render: (_, r) =>
          r.status === 'pending' ? (
            <RowActions
              actions={[
                { key: 'approve', label: t('action.approve'), sign: 'payout:review', onClick: () => setApproving(r) },
                { key: 'reject', label: t('action.reject'), sign: 'payout:review', danger: true, onClick: () => setRejecting(r) },
                // Only the applicant withdraws its own: a role holding every button decides, never cancels.
                ...(viewer.isAdmin
                  ? []
                  : [
                      {
                        key: 'cancel',
                        label: t('action.cancel'),
                        sign: 'payout:cancel' as const,
                        onClick: () =>
                          modal.confirm({
                            title: t('cancel.title', { amount: formatMoney(r.amount_cents, lang) }),
                            okButtonProps: { 'data-testid': 'payout-cancel-ok' } as Record<`data-${string}`, string>,
                            onOk: () => cancel.mutateAsync({ id: r.id }),
                          }),
                      },
                    ]),
              ]}
            />
          ) : null,
      },
    ],
    [t, lang, modal, cancel, viewer.isAdmin],
  );

  return (
    <>
      <SummaryCards institutionId={institutionId} />
      <ListPage<PayoutRow, (typeof FILTERS)[number]>
        listName="finance.payoutList"
        testId="payout-list"
        params={params}
        query={query}
        columns={columns}
        rowKey="id"
        codecs={CODECS}
        instant={['date', 'status', 'institution_id']}
        noDataText={t('noData')}
        toolbar={
          <>
            {/* Institutions apply for their own balance; the platform has none to pay out (the server refuses it too). */}
            {isAdmin ? null : (
              <CreateButton sign="payout:apply" onClick={() => setApplying(true)} testId="payout-apply-open">
                {t('action.apply')}
              </CreateButton>
            )}
            <ExportButton endpoint="finance.payoutExport" sign="payout:export" query={params.query} filename="payouts" testId="payouts-export" />
          </>
        }
        filters={
          <>
            <Form.Item name="institution_id" label={t('filter.institution')}>
              <InstitutionSelect placeholder={t('filter.institutionPlaceholder')} style={{ width: 220 }} data-testid="filter-institution" />
            </Form.Item>
            <Form.Item name="status" label={t('filter.status')}>
              <Select
                allowClear
                placeholder={t('common:list.all')}
                style={{ width: 140 }}
                options={PAYOUT_STATUSES.map((s) => ({ value: s, label: t(`payoutStatus.${s}`) }))}
                data-testid="filter-status"
              />
            </Form.Item>
            <Form.Item name="date" label={t('filter.date')}>
              <LazyRangePicker allowEmpty={[true, true]} placeholder={[t('common:list.dateFrom'), t('common:list.dateTo')]} style={{ width: 260 }} />
            </Form.Item>
          </>
        }
      />
      <ApplyDialog open={applying} onClose={() => setApplying(false)} />
      <ApproveDialog payout={approving} onClose={() => setApproving(null)} />
      <RejectDialog payout={rejecting} onClose={() => setRejecting(null)} />
    </>
  );
}

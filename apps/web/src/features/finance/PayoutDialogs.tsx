import Descriptions from 'antd/es/descriptions';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { FINANCE_LIMITS, isVoucherUrl, type PayoutRow } from '@app/contract/api/finance';
import { FormModal } from '../../components/FormModal';
import { ImageUpload } from '../../components/ImageUpload';
import { Money } from '../../components/Money';
import { decimalToUnits } from '../../lib/money';
import { useApplyPayout, useApprovePayout, useFinanceSummary, useRejectPayout } from './api';

interface ApplyValues {
  amount: string;
  bank: string;
  account_name: string;
  account_no: string;
}

/** Grades 1-2: apply for a payout of their own balance; the amount is held at once. */
export function ApplyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('finance');
  const apply = useApplyPayout(t('apply.done'));
  const summary = useFinanceSummary();
  return (
    <FormModal<ApplyValues>
      open={open}
      title={t('apply.title')}
      onClose={onClose}
      onSubmit={(v) => apply.mutateAsync({ amount_cents: decimalToUnits(v.amount, 2)!, bank: v.bank.trim(), account_name: v.account_name.trim(), account_no: v.account_no })}
      width={480}
      testId="payout-apply"
    >
      <Typography.Paragraph type="secondary" data-testid="payout-available">
        {t('apply.available', { amount: '' })}
        <Money cents={summary.data?.balance_cents ?? 0} />
      </Typography.Paragraph>
      <Form.Item
        name="amount"
        label={t('apply.amount')}
        rules={[{ required: true, validator: async (_, v) => (decimalToUnits(v, 2) ? undefined : Promise.reject(new Error(t('apply.amountInvalid')))) }]}
      >
        <Input inputMode="decimal" prefix="¥" data-testid="payout-amount" />
      </Form.Item>
      <Form.Item name="bank" label={t('apply.bank')} rules={[{ required: true, whitespace: true }, { max: FINANCE_LIMITS.bankLength }]}>
        <Input maxLength={FINANCE_LIMITS.bankLength} data-testid="payout-bank" />
      </Form.Item>
      <Form.Item name="account_name" label={t('apply.accountName')} rules={[{ required: true, whitespace: true }, { max: FINANCE_LIMITS.accountNameLength }]}>
        <Input maxLength={FINANCE_LIMITS.accountNameLength} data-testid="payout-account-name" />
      </Form.Item>
      <Form.Item name="account_no" label={t('apply.accountNo')} rules={[{ required: true, pattern: /^[0-9A-Za-z\s-]{6,40}$/ }]} style={{ marginBottom: 0 }}>
        <Input autoComplete="off" data-testid="payout-account-no" />
      </Form.Item>
    </FormModal>
  );
}

function PayoutSummary({ payout: p }: { payout: PayoutRow }) {
  const { t } = useTranslation('finance');
  return (
    <Descriptions column={1} bordered size="small" style={{ marginBottom: 16 }}>
      <Descriptions.Item label={t('col.institution')}>{p.institution_name}</Descriptions.Item>
      <Descriptions.Item label={t('col.amount')}>
        <Money cents={p.amount_cents} />
      </Descriptions.Item>
      <Descriptions.Item label={t('col.bank')}>{p.bank}</Descriptions.Item>
      <Descriptions.Item label={t('col.accountName')}>{p.account_name}</Descriptions.Item>
      <Descriptions.Item label={t('col.accountNo')}>
        <span className="mono">{p.account_no}</span>
      </Descriptions.Item>
    </Descriptions>
  );
}

/**
 * The platform marks a pending payout as paid, with an optional voucher: the transfer slip's image
 * (uploaded through finance.payoutVoucher) or, failing that, a link to it kept elsewhere.
 */
export function ApproveDialog({ payout, onClose }: { payout: PayoutRow | null; onClose: () => void }) {
  const { t } = useTranslation('finance');
  const approve = useApprovePayout(t('approve.done'));
  return (
    <FormModal<{ image?: string; link?: string }>
      open={!!payout}
      title={t('approve.title')}
      onClose={onClose}
      onSubmit={(v) => approve.mutateAsync({ id: payout!.id, voucher: v.image || v.link?.trim() || '' })}
      okText={t('action.approve')}
      width={520}
      testId="payout-approve"
    >
      {payout ? <PayoutSummary payout={payout} /> : null}
      <Form.Item name="image" label={t('approve.voucher')}>
        <ImageUpload endpoint="finance.payoutVoucher" testId="payout-voucher-image" />
      </Form.Item>
      <Form.Item
        name="link"
        label={t('approve.voucherLink')}
        rules={[{ max: 300 }, { validator: (_, v?: string) => (!v?.trim() || isVoucherUrl(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t('approve.voucherLinkInvalid')))) }]}
        style={{ marginBottom: 0 }}
      >
        <Input placeholder="https://…" data-testid="payout-voucher" />
      </Form.Item>
    </FormModal>
  );
}

/** The platform rejects a pending payout with a reason; the hold is released. */
export function RejectDialog({ payout, onClose }: { payout: PayoutRow | null; onClose: () => void }) {
  const { t } = useTranslation('finance');
  const reject = useRejectPayout(t('reject.done'));
  return (
    <FormModal<{ reason: string }>
      open={!!payout}
      title={t('reject.title')}
      onClose={onClose}
      onSubmit={(v) => reject.mutateAsync({ id: payout!.id, reason: v.reason.trim() })}
      okText={t('action.reject')}
      width={520}
      testId="payout-reject"
    >
      {payout ? <PayoutSummary payout={payout} /> : null}
      <Form.Item
        name="reason"
        label={t('reject.reason')}
        rules={[{ required: true, whitespace: true, message: t('reject.reasonRequired') }, { max: FINANCE_LIMITS.reasonLength }]}
        style={{ marginBottom: 0 }}
      >
        <Input.TextArea rows={3} maxLength={FINANCE_LIMITS.reasonLength} showCount data-testid="payout-reject-reason" />
      </Form.Item>
    </FormModal>
  );
}

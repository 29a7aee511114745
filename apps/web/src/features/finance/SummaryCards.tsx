import Card from 'antd/es/card';
import Flex from 'antd/es/flex';
import Statistic from 'antd/es/statistic';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/money';
import { useSettings } from '../../lib/settings';
import { useFinanceSummary } from './api';

/** Balance, the ledger's sum (always equal to it) and the payouts on hold: the caller's own; admins: one institution or all. */
export function SummaryCards({ institutionId }: { institutionId?: number }) {
  const { t } = useTranslation('finance');
  const lang = useSettings((s) => s.lang);
  const { data } = useFinanceSummary(institutionId);
  const money = (v: number | string | undefined) => formatMoney(typeof v === 'number' ? v : Number(v ?? 0), lang);
  const items = [
    { key: 'balance', title: t('summary.balance'), value: data?.balance_cents },
    { key: 'ledger', title: t('summary.ledger'), value: data?.ledger_sum_cents },
    { key: 'pending', title: t('summary.pending'), value: data?.pending_payout_cents },
  ];
  return (
    <Flex gap={12} wrap style={{ marginBottom: 12 }} className="finance-summary" data-testid="finance-summary">
      {items.map((i) => (
        <Card key={i.key} size="small" style={{ minWidth: 200 }}>
          <Statistic title={i.title} value={i.value ?? 0} formatter={money} loading={!data} data-testid={`summary-${i.key}`} />
        </Card>
      ))}
    </Flex>
  );
}

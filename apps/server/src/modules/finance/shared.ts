/** Finance: what the lists share (the caller's subtree as a condition, institution filters, date ranges, money as text) and the files' column labels. */
import { gte, lt, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client';
import type { Auth } from '../../http/access';
import { forbidden } from '../../lib/errors';
import { institutionSubtreeIds, isInSubtree } from '../institutions';
import { DAY } from '../../lib/time';
import { t, label } from '../../lib/labels';

/** The caller's subtree as a condition on an institution column (none for the platform). */
export function scoped(auth: Auth, column: AnyPgColumn): SQL | undefined {
  return auth.kind === 'institution' ? sql`${column} in ${institutionSubtreeIds(auth.institution.path)}` : undefined;
}

/** An institution filter: must lie in the caller's subtree. */
export async function institutionFilter(db: Tx, auth: Auth, id: number | undefined) {
  if (!id) return;
  if (auth.kind === 'institution' && !(await isInSubtree(db, auth.institution.path, id))) throw forbidden();
}

export function dateRange(column: AnyPgColumn, from?: string, to?: string): SQL[] {
  const out: SQL[] = [];
  if (from) out.push(gte(column, new Date(`${from}T00:00:00Z`)));
  if (to) out.push(lt(column, new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY)));
  return out;
}

export const LABELS = {
  orderNo: t('订单号', 'Order no.', 'N.º de pedido', '注文番号'),
  device: t('设备', 'Device', 'Equipo', '機器'),
  institution: t('机构', 'Institution', 'Institución', '機関'),
  package: t('套餐', 'Package', 'Paquete', 'パッケージ'),
  amount: t('金额', 'Amount', 'Importe', '金額'),
  channel: t('支付渠道', 'Channel', 'Canal', '決済手段'),
  paidAt: t('支付时间 (UTC)', 'Paid at (UTC)', 'Pagado el (UTC)', '支払日時 (UTC)'),
  status: t('状态', 'Status', 'Estado', '状態'),
  l1: t('一级佣金', 'Grade-1 commission', 'Comisión grado 1', '1 級手数料'),
  l2: t('二级佣金', 'Grade-2 commission', 'Comisión grado 2', '2 級手数料'),
  platform: t('平台所得', 'Platform share', 'Parte de la plataforma', 'プラットフォーム取り分'),
  refundedAt: t('退款时间 (UTC)', 'Refunded at (UTC)', 'Reembolsado el (UTC)', '返金日時 (UTC)'),
  sheet: t('设备端支付记录', 'Device payments', 'Pagos en equipos', '機器側支払'),
  paid: t('已支付', 'Paid', 'Pagado', '支払済み'),
  refunded: t('已退款', 'Refunded', 'Reembolsado', '返金済み'),
  time: t('时间 (UTC)', 'Time (UTC)', 'Fecha (UTC)', '日時 (UTC)'),
  kind: t('类型', 'Kind', 'Tipo', '種類'),
  balanceAfter: t('变动后余额', 'Balance after', 'Saldo posterior', '変動後残高'),
  ref: t('关联', 'Reference', 'Referencia', '参照'),
  ledgerSheet: t('财务记录', 'Finance records', 'Registros financieros', '財務記録'),
  kinds: {
    commission: t('佣金', 'Commission', 'Comisión', '手数料'),
    payout_hold: t('提现冻结', 'Payout hold', 'Retención por retiro', '出金保留'),
    payout_release: t('提现退回', 'Payout released', 'Retiro liberado', '出金解除'),
    refund_reversal: t('退款冲回', 'Refund reversal', 'Reversión por reembolso', '返金による取消'),
    adjustment: t('调整', 'Adjustment', 'Ajuste', '調整'),
  },
  refs: { payment: t('支付', 'Payment', 'Pago', '支払'), payout: t('提现', 'Payout', 'Retiro', '出金'), manual: t('手工', 'Manual', 'Manual', '手動') },
  appliedAt: t('申请时间 (UTC)', 'Applied at (UTC)', 'Solicitado el (UTC)', '申請日時 (UTC)'),
  bank: t('银行', 'Bank', 'Banco', '銀行'),
  accountName: t('户名', 'Account name', 'Titular', '口座名義'),
  accountNo: t('账号（部分隐藏）', 'Account no. (masked)', 'N.º de cuenta (oculto)', '口座番号（一部非表示）'),
  reason: t('驳回原因', 'Reason', 'Motivo', '却下理由'),
  decidedBy: t('处理人', 'Decided by', 'Resuelto por', '処理者'),
  decidedAt: t('处理时间 (UTC)', 'Decided at (UTC)', 'Resuelto el (UTC)', '処理日時 (UTC)'),
  payoutSheet: t('提现记录', 'Payouts', 'Retiros', '出金'),
  payoutStatuses: {
    pending: t('待审核', 'Pending', 'Pendiente', '審査待ち'),
    paid: t('已打款', 'Paid', 'Pagado', '支払済み'),
    rejected: t('已驳回', 'Rejected', 'Rechazado', '却下'),
    cancelled: t('已撤销', 'Cancelled', 'Cancelado', '取消'),
  },
};
/** Money in the files: decimal yuan (a number cell), from integer cents. */
export const yuan = (c: number | null) => (c == null ? null : c / 100);
export { label };

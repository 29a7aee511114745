import { and, asc, eq, gte, ilike, lt, sql, type SQL } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import {
  type FinanceSummary,
  type FinanceSummaryQuery,
  type L10n,
  type Lang,
  type LedgerExportQuery,
  type LedgerListQuery,
  type LedgerRow,
  type ListResult,
  maskAccountNo,
  type PaymentExportQuery,
  type PaymentListQuery,
  type PaymentListResult,
  type PaymentRefundBody,
  type PaymentRow,
  type PaymentTotals,
  type PayoutApplyBody,
  type PayoutApproveBody,
  type PayoutCancelBody,
  type PayoutExportQuery,
  type PayoutListQuery,
  type PayoutRejectBody,
  type PayoutRow,
  type UploadAnswer,
  pickText,
} from '@app/contract';
import type { Tx } from '../../db/client';
import { devicePayments, devices, financeAccounts, institutions, ledgerEntries, packages, payouts } from '../../db/schema';
import type { Auth } from '../../http/access';
import type { Ctx } from '../../http/endpoints';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { type ExportColumn, exportList as exportRows } from '../../lib/export';
import { cappedCount, likeEscape, offsetOf, sortBy, sortKey } from '../../lib/list';
import { readParam } from '../../lib/params';
import { institutionSubtreeIds, isInSubtree } from '../institutions';
import { receiveImage } from '../uploads';
import { balanceOf, post } from './ledger';
import { refundPayment } from './payments';

/*
 * The finance endpoints: summary and ledger (grades 0-2), payouts (apply: grades 1-2 for their own
 * institution; approve/reject: the platform; cancel: the applicant), device payments (grades 0-2, and
 * one device's for grades 0-3 through the hidden page) with totals and export, refunds (grade 0).
 * Every read is scoped to the caller's subtree; an institution filter outside it is refused.
 */

const DAY = 86_400_000;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const money = (cents: number) => (cents / 100).toFixed(2);
const rowsOf = <T>(result: unknown): T[] => (result as { rows?: T[] }).rows ?? (result as T[]);

/** The caller's subtree as a condition on an institution column (none for the platform). */
function scoped(auth: Auth, column: AnyPgColumn): SQL | undefined {
  return auth.kind === 'institution' ? sql`${column} in ${institutionSubtreeIds(auth.institution!.path)}` : undefined;
}

/** An institution filter: must lie in the caller's subtree. */
async function institutionFilter(db: Tx, auth: Auth, id: number | undefined) {
  if (!id) return;
  if (auth.kind === 'institution' && !(await isInSubtree(db, auth.institution!.path, id))) throw forbidden();
}

function dateRange(column: AnyPgColumn, from?: string, to?: string): SQL[] {
  const out: SQL[] = [];
  if (from) out.push(gte(column, new Date(`${from}T00:00:00Z`)));
  if (to) out.push(lt(column, new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY)));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Summary and ledger
// ---------------------------------------------------------------------------------------------

/**
 * GET /finance/summary (fixed): an institution's balance, its ledger's sum (always equal) and its pending
 * payouts. Grades 1-2: their own. Grade 0: the named institution, or the platform's totals over all.
 */
export async function summary(db: Tx, auth: Auth, q: FinanceSummaryQuery): Promise<FinanceSummary> {
  const target = auth.kind === 'institution' ? auth.institution!.id : (q.institution_id ?? null);
  const only = (column: AnyPgColumn) => (target == null ? sql`true` : sql`${column} = ${target}`);
  const [row] = rowsOf<{ balance: string | number; ledger: string | number; pending: string | number }>(
    await db.execute(sql`select
      (select coalesce(sum(${financeAccounts.balanceCents}), 0) from ${financeAccounts} where ${only(financeAccounts.institutionId)}) as balance,
      (select coalesce(sum(${ledgerEntries.amountCents}), 0) from ${ledgerEntries} where ${only(ledgerEntries.institutionId)}) as ledger,
      (select coalesce(sum(${payouts.amountCents}), 0) from ${payouts} where ${payouts.status} = 'pending' and ${only(payouts.institutionId)}) as pending`),
  );
  return { balance_cents: Number(row?.balance ?? 0), ledger_sum_cents: Number(row?.ledger ?? 0), pending_payout_cents: Number(row?.pending ?? 0) };
}

const ledgerInst = alias(institutions, 'ledger_inst');
const LEDGER_SORTS = { created_at: ledgerEntries.id, amount: ledgerEntries.amountCents } as const;

async function ledgerConditions(db: Tx, auth: Auth, q: Partial<LedgerListQuery>): Promise<SQL | undefined> {
  await institutionFilter(db, auth, q.institution_id);
  return and(
    scoped(auth, ledgerEntries.institutionId),
    q.institution_id ? eq(ledgerEntries.institutionId, q.institution_id) : undefined,
    q.kind ? eq(ledgerEntries.kind, q.kind) : undefined,
    ...dateRange(ledgerEntries.createdAt, q.date_from, q.date_to),
  );
}

async function ledgerRows(db: Tx, where: SQL | undefined, order: SQL[], limit: number, offset: number): Promise<LedgerRow[]> {
  const rows = await db
    .select({ e: ledgerEntries, name: ledgerInst.name })
    .from(ledgerEntries)
    .innerJoin(ledgerInst, eq(ledgerInst.id, ledgerEntries.institutionId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return rows.map(({ e, name }) => ({
    id: e.id,
    institution_id: e.institutionId,
    institution_name: name,
    kind: e.kind,
    amount_cents: Number(e.amountCents),
    balance_after_cents: Number(e.balanceAfterCents),
    ref_type: e.refType,
    ref_id: e.refId,
    created_at: e.createdAt.toISOString(),
  }));
}

/** GET /finance/list (fixed): ledger rows of the caller's subtree, newest first. */
export async function list(db: Tx, auth: Auth, q: LedgerListQuery): Promise<ListResult<LedgerRow>> {
  const where = await ledgerConditions(db, auth, q);
  const [list, count] = await Promise.all([
    ledgerRows(db, where, sortBy(LEDGER_SORTS, q, 'created_at', ledgerEntries.id), q.limit, offsetOf(q)),
    cappedCount(db, sql`from ${ledgerEntries} where ${where ?? sql`true`}`),
  ]);
  return { list, ...count };
}

// ---------------------------------------------------------------------------------------------
// Payouts
// ---------------------------------------------------------------------------------------------

const payoutInst = alias(institutions, 'payout_inst');

async function payoutRows(db: Tx, where: SQL | undefined, order: SQL[], limit: number, offset: number): Promise<PayoutRow[]> {
  const rows = await db
    .select({ p: payouts, name: payoutInst.name })
    .from(payouts)
    .innerJoin(payoutInst, eq(payoutInst.id, payouts.institutionId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return rows.map(({ p, name }) => ({
    id: p.id,
    institution_id: p.institutionId,
    institution_name: name,
    amount_cents: Number(p.amountCents),
    bank: p.bank,
    account_name: p.accountName,
    account_no: maskAccountNo(p.accountNo),
    status: p.status,
    reason: p.reason,
    voucher: p.voucher,
    decided_by: p.decidedBy,
    decided_at: iso(p.decidedAt),
    created_at: p.createdAt.toISOString(),
  }));
}

/** The audit trail's view of a payout (account number masked). */
export async function payoutSnapshot(db: Tx, id: number | null): Promise<PayoutRow | null> {
  if (id == null) return null;
  const [row] = await payoutRows(db, eq(payouts.id, id), [asc(payouts.id)], 1, 0);
  return row ?? null;
}

const PAYOUT_SORTS = { created_at: payouts.createdAt, amount: payouts.amountCents } as const;

async function payoutConditions(db: Tx, auth: Auth, q: Partial<PayoutListQuery>): Promise<SQL | undefined> {
  await institutionFilter(db, auth, q.institution_id);
  return and(
    scoped(auth, payouts.institutionId),
    q.institution_id ? eq(payouts.institutionId, q.institution_id) : undefined,
    q.status ? eq(payouts.status, q.status) : undefined,
    ...dateRange(payouts.createdAt, q.date_from, q.date_to),
  );
}

/** GET /payout/list: the caller's subtree (everything for the platform), newest first. */
export async function payoutList(db: Tx, auth: Auth, q: PayoutListQuery): Promise<ListResult<PayoutRow>> {
  const where = await payoutConditions(db, auth, q);
  const [list, count] = await Promise.all([
    payoutRows(db, where, sortBy(PAYOUT_SORTS, q, 'created_at', payouts.id), q.limit, offsetOf(q)),
    cappedCount(db, sql`from ${payouts} where ${where ?? sql`true`}`),
  ]);
  return { list, ...count };
}

/** Files a payout and holds its amount at once, in one transaction; the guarded UPDATE makes overdraw impossible. */
export async function applyPayout(db: Tx, institutionId: number, body: PayoutApplyBody, minimum: number, at?: Date): Promise<number> {
  if (body.amount_cents < minimum) throw badRequest('payoutBelowMinimum', { min: money(minimum) });
  const [row] = await db
    .insert(payouts)
    .values({ institutionId, amountCents: body.amount_cents, bank: body.bank, accountName: body.account_name, accountNo: body.account_no, ...(at ? { createdAt: at } : {}) })
    .returning({ id: payouts.id });
  const balance = await post(db, institutionId, -body.amount_cents, 'payout_hold', { type: 'payout', id: row!.id }, at);
  if (balance == null) throw badRequest('payoutOverBalance', { balance: money(await balanceOf(db, institutionId)) });
  return row!.id;
}

/** POST /payout/apply (fixed): grades 1-2, for their own institution. */
export async function payoutApply(db: Tx, auth: Auth, body: PayoutApplyBody): Promise<{ id: number }> {
  const inst = auth.institution;
  if (auth.kind !== 'institution' || !inst || (inst.grade !== 1 && inst.grade !== 2)) throw badRequest('payoutInstitutionOnly');
  const minimum = auth.params?.min_payout_cents ?? (await readParam(db, 'min_payout_cents'));
  return { id: await applyPayout(db, inst.id, body, minimum) };
}

type Decision = { status: 'paid'; voucher: string } | { status: 'rejected'; reason: string } | { status: 'cancelled' };

/**
 * Decides a pending payout exactly once: `UPDATE ... WHERE id = $1 AND status = 'pending' RETURNING`.
 * Rejected and cancelled payouts release their hold. `onlyInstitution`: the applicant's own payouts.
 */
export async function decidePayout(db: Tx, id: number, decision: Decision, by: string, opts: { onlyInstitution?: number; at?: Date } = {}) {
  const at = opts.at ?? new Date();
  const [row] = await db
    .update(payouts)
    .set({
      status: decision.status,
      decidedAt: at,
      decidedBy: by,
      ...(decision.status === 'paid' ? { voucher: decision.voucher } : {}),
      ...(decision.status === 'rejected' ? { reason: decision.reason } : {}),
    })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'pending'), opts.onlyInstitution ? eq(payouts.institutionId, opts.onlyInstitution) : undefined))
    .returning();
  if (!row) {
    const [current] = await db.select().from(payouts).where(eq(payouts.id, id));
    if (!current) throw notFound();
    if (opts.onlyInstitution && current.institutionId !== opts.onlyInstitution) throw badRequest('payoutNotYours');
    throw badRequest('payoutDecided');
  }
  if (decision.status !== 'paid') {
    const balance = await post(db, row.institutionId, Number(row.amountCents), 'payout_release', { type: 'payout', id: row.id }, opts.at);
    if (balance == null) throw new Error('payout release refused'); // a credit is never refused
  }
  return row;
}

const operatorName = (auth: Auth) => auth.admin?.username ?? auth.institution?.username ?? '';

/** POST /payout/approve: the platform has paid it (optional voucher image URL). */
export async function payoutApprove(db: Tx, auth: Auth, body: PayoutApproveBody): Promise<{ id: number }> {
  if (auth.kind !== 'admin') throw forbidden();
  const row = await decidePayout(db, body.id, { status: 'paid', voucher: body.voucher }, operatorName(auth));
  return { id: row.id };
}

/** POST /payout/upload_voucher: the transfer slip's image, stored like any upload (within the reviewer's daily quota); its URL goes in the approval. */
export async function payoutVoucher(db: Tx, auth: Auth, _input: unknown, ctx: Ctx): Promise<UploadAnswer> {
  if (auth.kind !== 'admin') throw forbidden();
  return receiveImage(db, auth, ctx);
}

/** POST /payout/reject: with a reason; the hold is released. */
export async function payoutReject(db: Tx, auth: Auth, body: PayoutRejectBody): Promise<{ id: number }> {
  if (auth.kind !== 'admin') throw forbidden();
  const row = await decidePayout(db, body.id, { status: 'rejected', reason: body.reason }, operatorName(auth));
  return { id: row.id };
}

/** POST /payout/cancel: the applicant withdraws its own pending payout; the hold is released. */
export async function payoutCancel(db: Tx, auth: Auth, body: PayoutCancelBody): Promise<{ id: number }> {
  const inst = auth.institution;
  // The platform decides (approve/reject); only the applicant withdraws its own.
  if (auth.kind !== 'institution' || !inst) throw badRequest('payoutNotYours');
  const [current] = await db.select({ institutionId: payouts.institutionId }).from(payouts).where(eq(payouts.id, body.id));
  if (!current || !(await isInSubtree(db, inst.path, current.institutionId))) throw notFound();
  const row = await decidePayout(db, body.id, { status: 'cancelled' }, operatorName(auth), { onlyInstitution: inst.id });
  return { id: row.id };
}

// ---------------------------------------------------------------------------------------------
// Device payments
// ---------------------------------------------------------------------------------------------

const payInst = alias(institutions, 'pay_inst');

async function paymentConditions(db: Tx, auth: Auth, q: Partial<PaymentListQuery>): Promise<SQL | undefined> {
  await institutionFilter(db, auth, q.institution_id);
  return and(
    scoped(auth, devicePayments.institutionId),
    q.device_id ? eq(devicePayments.deviceId, q.device_id) : undefined,
    q.serial ? sql`${devicePayments.deviceId} in (select ${devices.id} from ${devices} where ${ilike(devices.serial, `%${likeEscape(q.serial)}%`)})` : undefined,
    q.institution_id ? eq(devicePayments.institutionId, q.institution_id) : undefined,
    q.package_id ? eq(devicePayments.packageId, q.package_id) : undefined,
    q.channel ? eq(devicePayments.channel, q.channel) : undefined,
    q.status ? eq(devicePayments.status, q.status) : undefined,
    ...dateRange(devicePayments.paidAt, q.date_from, q.date_to),
  );
}

/**
 * Which commission lines of a payment the caller may see. An institution never sees its ancestors'
 * figures (domain.md): the platform and grade 1 see every line (grade 1's own, its children's, and the
 * platform's share, which is the rest of an amount it sees); grade 2 sees its own line only; a clinic
 * (grade 3) earns no commission and sees none, nor the ids of the agencies above it. The one rule for
 * the list, its totals and its export. `null` (no caller): the audit trail's snapshot, every line.
 */
export type CommissionView = 'all' | 'own_l2' | 'none';
export function commissionView(auth: Auth | null): CommissionView {
  if (!auth || auth.kind === 'admin') return 'all';
  const grade = auth.institution?.grade;
  return grade === 1 ? 'all' : grade === 2 ? 'own_l2' : 'none';
}

async function paymentRows(db: Tx, where: SQL | undefined, order: SQL[], limit: number, offset: number, auth: Auth | null): Promise<PaymentRow[]> {
  const view = commissionView(auth);
  const all = view === 'all';
  const l2 = view !== 'none';
  const rows = await db
    .select({ p: devicePayments, serial: devices.serial, instName: payInst.name, packageName: packages.name })
    .from(devicePayments)
    .innerJoin(devices, eq(devices.id, devicePayments.deviceId))
    .innerJoin(payInst, eq(payInst.id, devicePayments.institutionId))
    .innerJoin(packages, eq(packages.id, devicePayments.packageId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return rows.map(({ p, serial, instName, packageName }) => ({
    id: p.id,
    order_no: p.orderNo,
    device_id: p.deviceId,
    device_serial: serial,
    institution_id: p.institutionId,
    institution_name: instName,
    end_user_id: p.endUserId,
    package_id: p.packageId,
    package_name: packageName,
    amount_cents: Number(p.amountCents),
    channel: p.channel,
    paid_at: p.paidAt.toISOString(),
    status: p.status,
    l1_institution_id: all ? p.l1InstitutionId : null,
    l1_cents: all ? Number(p.l1Cents) : null,
    l2_institution_id: l2 ? p.l2InstitutionId : null,
    l2_cents: l2 ? Number(p.l2Cents) : null,
    platform_cents: all ? Number(p.platformCents) : null,
    refunded_at: iso(p.refundedAt),
    refund_reason: p.refundReason,
  }));
}

const PAYMENT_SORTS = { paid_at: devicePayments.paidAt, amount: devicePayments.amountCents } as const;

async function paymentTotals(db: Tx, where: SQL | undefined, auth: Auth): Promise<PaymentTotals> {
  const view = commissionView(auth);
  const lines = view === 'all' ? sql`${devicePayments.l1Cents} + ${devicePayments.l2Cents}` : view === 'own_l2' ? sql`${devicePayments.l2Cents}` : sql`0`;
  const [row] = rowsOf<Record<string, string | number>>(
    await db.execute(sql`select count(*)::int as count,
      coalesce(sum(${devicePayments.amountCents}), 0) as amount,
      coalesce(sum(${devicePayments.amountCents}) filter (where ${devicePayments.status} = 'refunded'), 0) as refunded,
      coalesce(sum(${lines}) filter (where ${devicePayments.status} = 'paid'), 0) as commission
      from ${devicePayments} where ${where ?? sql`true`}`),
  );
  return {
    count: Number(row?.count ?? 0),
    amount_cents: Number(row?.amount ?? 0),
    refunded_cents: Number(row?.refunded ?? 0),
    commission_cents: view === 'none' ? null : Number(row?.commission ?? 0),
  };
}

/** GET /device_payment/list: filtered, paged, with the totals of every matching row. */
export async function payments(db: Tx, auth: Auth, q: PaymentListQuery): Promise<PaymentListResult> {
  const where = await paymentConditions(db, auth, q);
  const [list, count, totals] = await Promise.all([
    paymentRows(db, where, sortBy(PAYMENT_SORTS, q, 'paid_at', devicePayments.id), q.limit, offsetOf(q), auth),
    cappedCount(db, sql`from ${devicePayments} where ${where ?? sql`true`}`),
    paymentTotals(db, where, auth),
  ]);
  return Object.assign({ list }, count, { totals });
}

const t = (zh: string, en: string, es: string, ja: string): L10n => ({ zh, en, es, ja });
const LABELS = {
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
const yuan = (c: number | null) => (c == null ? null : c / 100);
const date = (v: string | null) => (v ? new Date(v) : null);
const label = (l: L10n, lang: Lang) => pickText(l, lang);

/** GET /finance/export: the filtered ledger rows, in the list's order, as CSV or XLSX; amounts in yuan. */
export async function exportList(db: Tx, auth: Auth, q: LedgerExportQuery, ctx: Ctx) {
  const where = await ledgerConditions(db, auth, q);
  const lang = ctx.lang;
  const columns: ExportColumn<LedgerRow>[] = [
    { title: label(LABELS.time, lang), value: (r) => date(r.created_at), width: 20 },
    { title: label(LABELS.institution, lang), value: (r) => r.institution_name, width: 24 },
    { title: label(LABELS.kind, lang), value: (r) => label(LABELS.kinds[r.kind], lang), width: 16 },
    { title: label(LABELS.amount, lang), value: (r) => yuan(r.amount_cents) },
    { title: label(LABELS.balanceAfter, lang), value: (r) => yuan(r.balance_after_cents) },
    { title: label(LABELS.ref, lang), value: (r) => (r.ref_type ? `${label(LABELS.refs[r.ref_type], lang)} #${r.ref_id ?? ''}` : ''), width: 16 },
  ];
  return exportRows(db, ctx.reply, {
    format: q.format,
    filename: 'finance-records',
    sheet: label(LABELS.ledgerSheet, lang),
    columns,
    where,
    key: sortKey(LEDGER_SORTS, q, 'created_at', ledgerEntries.id),
    fetch: (w, order, limit) => ledgerRows(db, w, order, limit, 0),
    count: sql`from ${ledgerEntries} where ${where ?? sql`true`}`,
  });
}

/** GET /payout/export: the filtered payouts, in the list's order, as CSV or XLSX; amounts in yuan, account numbers masked. */
export async function payoutExport(db: Tx, auth: Auth, q: PayoutExportQuery, ctx: Ctx) {
  const where = await payoutConditions(db, auth, q);
  const lang = ctx.lang;
  const columns: ExportColumn<PayoutRow>[] = [
    { title: label(LABELS.appliedAt, lang), value: (r) => date(r.created_at), width: 20 },
    { title: label(LABELS.institution, lang), value: (r) => r.institution_name, width: 24 },
    { title: label(LABELS.amount, lang), value: (r) => yuan(r.amount_cents) },
    { title: label(LABELS.bank, lang), value: (r) => r.bank, width: 20 },
    { title: label(LABELS.accountName, lang), value: (r) => r.account_name, width: 16 },
    { title: label(LABELS.accountNo, lang), value: (r) => r.account_no, width: 24 },
    { title: label(LABELS.status, lang), value: (r) => label(LABELS.payoutStatuses[r.status], lang) },
    { title: label(LABELS.reason, lang), value: (r) => r.reason ?? '', width: 24 },
    { title: label(LABELS.decidedBy, lang), value: (r) => r.decided_by ?? '', width: 16 },
    { title: label(LABELS.decidedAt, lang), value: (r) => date(r.decided_at), width: 20 },
  ];
  return exportRows(db, ctx.reply, {
    format: q.format,
    filename: 'payouts',
    sheet: label(LABELS.payoutSheet, lang),
    columns,
    where,
    key: sortKey(PAYOUT_SORTS, q, 'created_at', payouts.id),
    fetch: (w, order, limit) => payoutRows(db, w, order, limit, 0),
    count: sql`from ${payouts} where ${where ?? sql`true`}`,
  });
}

/** GET /device_payment/export: the filtered payments, in the list's order, as CSV or XLSX; amounts in yuan. */
export async function paymentsExport(db: Tx, auth: Auth, q: PaymentExportQuery, ctx: Ctx) {
  const where = await paymentConditions(db, auth, q);
  const lang = ctx.lang;
  const view = commissionView(auth);
  const columns: ExportColumn<PaymentRow>[] = [
    { title: label(LABELS.orderNo, lang), value: (r) => r.order_no, width: 24 },
    { title: label(LABELS.device, lang), value: (r) => r.device_serial, width: 16 },
    { title: label(LABELS.institution, lang), value: (r) => r.institution_name, width: 24 },
    { title: label(LABELS.package, lang), value: (r) => r.package_name, width: 20 },
    { title: label(LABELS.amount, lang), value: (r) => yuan(r.amount_cents) },
    { title: label(LABELS.channel, lang), value: (r) => r.channel },
    { title: label(LABELS.paidAt, lang), value: (r) => new Date(r.paid_at), width: 20 },
    { title: label(LABELS.status, lang), value: (r) => label(LABELS[r.status], lang) },
    // The commission columns the caller may see (commissionView): grade 2 gets its own line only.
    ...(view === 'all' ? [{ title: label(LABELS.l1, lang), value: (r: PaymentRow) => yuan(r.l1_cents) }] : []),
    ...(view !== 'none' ? [{ title: label(LABELS.l2, lang), value: (r: PaymentRow) => yuan(r.l2_cents) }] : []),
    ...(view === 'all' ? [{ title: label(LABELS.platform, lang), value: (r: PaymentRow) => yuan(r.platform_cents) }] : []),
    { title: label(LABELS.refundedAt, lang), value: (r) => (r.refunded_at ? new Date(r.refunded_at) : null), width: 20 },
  ];
  return exportRows(db, ctx.reply, {
    format: q.format,
    filename: 'device-payments',
    sheet: label(LABELS.sheet, lang),
    columns,
    where,
    key: sortKey(PAYMENT_SORTS, q, 'paid_at', devicePayments.id),
    fetch: (w, order, limit) => paymentRows(db, w, order, limit, 0, auth),
    count: sql`from ${devicePayments} where ${where ?? sql`true`}`,
  });
}

/** The audit trail's view of a payment. */
export async function paymentSnapshot(db: Tx, id: number | null): Promise<PaymentRow | null> {
  if (id == null) return null;
  const [row] = await paymentRows(db, eq(devicePayments.id, id), [asc(devicePayments.id)], 1, 0, null);
  return row ?? null;
}

/** POST /device_payment/refund: grade 0. */
export async function refund(db: Tx, auth: Auth, body: PaymentRefundBody): Promise<{ id: number }> {
  if (auth.kind !== 'admin') throw forbidden();
  const row = await refundPayment(db, body.id, body.reason, auth.admin?.id ?? null);
  return { id: row.id };
}

import { z } from 'zod';
import type { ListResult } from '../envelope';
import { answer, defineEndpoints, get, idAnswer, idSchema, noInput, optionalId, post } from '../endpoint';
import { exportQuery, listQuery, optionalText, withMessage } from './common';
import type { UploadAnswer } from './uploads';
import { API_BASE } from '../constants';

/*
 * Money (issue 11, items 5-9): device payments and their commissions, refunds, the ledger of each
 * institution's balance, and payouts. Pages: `/finance-record/index` (FinanceRecordList, grades 0-2),
 * `/finance-record/payout-manage` (PayoutManage, grades 0-2), `/finance-record/device-end-record`
 * (DeviceEndRecord, grades 0-2) and `/dashboard/device-end-record/:id` (DeviceEndRecordOfDevice, hidden,
 * grades 0-3). Everything is scoped to the caller's subtree. Money is integer cents everywhere.
 * Three paths and answers are fixed by device-api.md: `/finance/summary`, `/finance/list`, `/payout/apply`.
 *
 * Commission rule: each line is the payment's amount times the package's rate (basis points), rounded
 * half-up to a cent on its own; what the lines leave is the platform's.
 */

export const LEDGER_KINDS = ['commission', 'payout_hold', 'payout_release', 'refund_reversal', 'adjustment'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
export const LEDGER_REF_TYPES = ['payment', 'payout', 'manual'] as const;
export type LedgerRefType = (typeof LEDGER_REF_TYPES)[number];
export const PAYOUT_STATUSES = ['pending', 'paid', 'rejected', 'cancelled'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
export const PAYMENT_STATUSES = ['paid', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const PAYMENT_CHANNELS = ['wechat', 'alipay', 'card', 'cash', 'other'] as const;
export type PaymentChannel = (typeof PAYMENT_CHANNELS)[number];

export const FINANCE_LIMITS = {
  maxAmountCents: 100_000_000,
  orderNoLength: 64,
  channelLength: 20,
  bankLength: 100,
  accountNameLength: 50,
  accountNoMin: 6,
  accountNoLength: 34,
  reasonLength: 200,
  exportMaxRows: 10_000,
} as const;

/** Half-up rounding of amount x bp / 10000 to a whole cent (integers only: no binary floating point). */
export function commissionCents(amountCents: number, bp: number): number {
  return Math.floor((amountCents * bp + 5000) / 10000);
}

/** A bank account number as lists show it: the last four digits. */
export const maskAccountNo = (no: string) => (no.length <= 4 ? '****' : `****${no.slice(-4)}`);

const dateOnly = z.iso.date();

// ---------------------------------------------------------------------------------------------
// Ledger and summary
// ---------------------------------------------------------------------------------------------

/** Grade 0: any institution's summary (none: the platform's totals); grades 1-2: their own (the field is ignored). */
export const financeSummaryQuery = z.object({ institution_id: optionalId });
export type FinanceSummaryQuery = z.infer<typeof financeSummaryQuery>;
/** Fixed by device-api.md. balance_cents always equals ledger_sum_cents. */
export interface FinanceSummary {
  balance_cents: number;
  ledger_sum_cents: number;
  pending_payout_cents: number;
}

export const LEDGER_SORTS = ['created_at', 'amount'] as const;
export const ledgerFilters = {
  institution_id: optionalId,
  kind: z.enum(LEDGER_KINDS).optional(),
  date_from: dateOnly.optional(),
  date_to: dateOnly.optional(),
};
export const ledgerListQuery = listQuery(ledgerFilters, LEDGER_SORTS);
export type LedgerListQuery = z.infer<typeof ledgerListQuery>;
export const ledgerExportQuery = exportQuery(ledgerListQuery);
export type LedgerExportQuery = z.infer<typeof ledgerExportQuery>;
/** Fixed by device-api.md (`institution_name` is added for display). */
export interface LedgerRow {
  id: number;
  institution_id: number;
  institution_name: string;
  kind: LedgerKind;
  amount_cents: number;
  balance_after_cents: number;
  ref_type: LedgerRefType;
  ref_id: number;
  created_at: string;
}

// ---------------------------------------------------------------------------------------------
// Payouts
// ---------------------------------------------------------------------------------------------

export const payoutApplyFields = {
  amount_cents: z.number().int().min(1).max(FINANCE_LIMITS.maxAmountCents),
  bank: z.string().trim().min(1).max(FINANCE_LIMITS.bankLength),
  account_name: z.string().trim().min(1).max(FINANCE_LIMITS.accountNameLength),
  /** Digits (spaces and dashes ignored), 6 to 34 characters. */
  account_no: z
    .string()
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(
      z
        .string()
        .min(FINANCE_LIMITS.accountNoMin)
        .max(FINANCE_LIMITS.accountNoLength)
        .regex(/^[0-9A-Za-z]+$/),
    ),
};
/** Fixed by device-api.md: grades 1-2 apply for their own institution; the amount is held at once. */
export const payoutApplyBody = z.object(payoutApplyFields);
export type PayoutApplyBody = z.infer<typeof payoutApplyBody>;

export const PAYOUT_SORTS = ['created_at', 'amount'] as const;
export const payoutListQuery = listQuery({ institution_id: optionalId, status: z.enum(PAYOUT_STATUSES).optional(), date_from: dateOnly.optional(), date_to: dateOnly.optional() }, PAYOUT_SORTS);
export type PayoutListQuery = z.infer<typeof payoutListQuery>;
export const payoutExportQuery = exportQuery(payoutListQuery);
export type PayoutExportQuery = z.infer<typeof payoutExportQuery>;
export interface PayoutRow {
  id: number;
  institution_id: number;
  institution_name: string;
  amount_cents: number;
  bank: string;
  account_name: string;
  /** Masked: `****1234`. */
  account_no: string;
  status: PayoutStatus;
  reason: string;
  voucher: string;
  decided_by: string;
  decided_at: string | null;
  created_at: string;
}

/**
 * A payout's voucher (the transfer slip): empty, an image uploaded through `finance.payoutVoucher`
 * (`/adminapi/uploads/<name>`), or an http(s) link to one kept elsewhere. Anything else (a `javascript:`
 * URL, a relative path) is refused: the lists render it as a link.
 */
export const isVoucherUrl = (v: string) => v === '' || new RegExp(`^${API_BASE}/uploads/[A-Za-z0-9._-]+$`).test(v) || /^https?:\/\/[^\s]+$/i.test(v);
/** The platform pays a pending payout (an optional voucher: the URL of an uploaded image). */
export const payoutApproveBody = z.object({ id: idSchema, voucher: z.string().trim().max(300).refine(isVoucherUrl, withMessage('payoutVoucherUrl')).optional().default('') });
export type PayoutApproveBody = z.infer<typeof payoutApproveBody>;
/** The platform rejects a pending payout with a reason; the hold is released. */
export const payoutRejectBody = z.object({ id: idSchema, reason: z.string().trim().min(1).max(FINANCE_LIMITS.reasonLength) });
export type PayoutRejectBody = z.infer<typeof payoutRejectBody>;
/** The applicant withdraws its own pending payout; the hold is released. */
export const payoutCancelBody = z.object({ id: idSchema });
export type PayoutCancelBody = z.infer<typeof payoutCancelBody>;

// ---------------------------------------------------------------------------------------------
// Device payments (device-end records)
// ---------------------------------------------------------------------------------------------

export const PAYMENT_SORTS = ['paid_at', 'amount'] as const;
export const paymentFilters = {
  device_id: optionalId,
  /** Serial (contains). */
  serial: optionalText(40),
  institution_id: optionalId,
  package_id: optionalId,
  channel: optionalText(FINANCE_LIMITS.channelLength),
  status: z.enum(PAYMENT_STATUSES).optional(),
  date_from: dateOnly.optional(),
  date_to: dateOnly.optional(),
};
export const paymentListQuery = listQuery(paymentFilters, PAYMENT_SORTS);
export type PaymentListQuery = z.infer<typeof paymentListQuery>;
export const paymentExportQuery = exportQuery(paymentListQuery);
export type PaymentExportQuery = z.infer<typeof paymentExportQuery>;

export interface PaymentRow {
  id: number;
  order_no: string;
  device_id: number;
  device_serial: string;
  institution_id: number;
  institution_name: string;
  end_user_id: number | null;
  package_id: number;
  package_name: string;
  amount_cents: number;
  channel: string;
  paid_at: string;
  status: PaymentStatus;
  /**
   * The commission lines: the grade-1 and grade-2 ancestors' shares, and what the platform keeps. An
   * institution never sees its ancestors' figures: a grade-2 caller gets its own line only (its parent's
   * line, id and the platform's share are null); a clinic (grade 3) gets none of them (all null).
   */
  l1_institution_id: number | null;
  l1_cents: number | null;
  l2_institution_id: number | null;
  l2_cents: number | null;
  platform_cents: number | null;
  refunded_at: string | null;
  refund_reason: string;
}
/** Totals of every row the filters match (not only the page). */
export interface PaymentTotals {
  count: number;
  amount_cents: number;
  refunded_cents: number;
  /** The commission lines the caller may see, of paid rows (grade 2: its own line only; grade 3: null). */
  commission_cents: number | null;
}
export interface PaymentListResult extends ListResult<PaymentRow> {
  totals: PaymentTotals;
}

/** Grade 0: refunds a paid record; the unspent device effect is taken back and the commissions reversed. */
export const paymentRefundBody = z.object({ id: idSchema, reason: z.string().trim().min(1).max(FINANCE_LIMITS.reasonLength) });
export type PaymentRefundBody = z.infer<typeof paymentRefundBody>;

export const financeApi = defineEndpoints('finance', {
  /** Fixed (device-api.md). */
  summary: get('/finance/summary', { page: ['FinanceRecordList', 'PayoutManage'] }, financeSummaryQuery, answer<FinanceSummary>()),
  /** Fixed (device-api.md): the ledger of the caller's subtree, newest first. */
  list: get('/finance/list', { page: 'FinanceRecordList' }, ledgerListQuery, answer<ListResult<LedgerRow>>()),
  exportList: get('/finance/export', { button: 'finance:export' }, ledgerExportQuery, answer<unknown>(), { raw: true, summary: 'Finance records as a CSV or XLSX file' }),
  /** Fixed (device-api.md). */
  payoutApply: post('/payout/apply', { button: 'payout:apply' }, payoutApplyBody, idAnswer, { audit: 'payout' }),
  payoutList: get('/payout/list', { page: 'PayoutManage' }, payoutListQuery, answer<ListResult<PayoutRow>>()),
  payoutExport: get('/payout/export', { button: 'payout:export' }, payoutExportQuery, answer<unknown>(), { raw: true, summary: 'Payouts as a CSV or XLSX file' }),
  payoutApprove: post('/payout/approve', { button: 'payout:review' }, payoutApproveBody, idAnswer, { audit: 'payout', stepUp: true }),
  /** The voucher image of a payout being approved (multipart, field `file`; png, jpg, gif, webp, at most 5 MB): only reviewers upload it. */
  payoutVoucher: post('/payout/upload_voucher', { button: 'payout:review' }, noInput, answer<UploadAnswer>(), {
    body: 'multipart',
    summary: "Upload a payout's voucher image (multipart, field `file`)",
  }),
  payoutReject: post('/payout/reject', { button: 'payout:review' }, payoutRejectBody, idAnswer, { audit: 'payout', stepUp: true }),
  payoutCancel: post('/payout/cancel', { button: 'payout:cancel' }, payoutCancelBody, idAnswer, { audit: 'payout' }),
  payments: get('/device_payment/list', { page: ['DeviceEndRecord', 'DeviceEndRecordOfDevice'] }, paymentListQuery, answer<PaymentListResult>()),
  paymentsExport: get('/device_payment/export', { button: 'payment:export' }, paymentExportQuery, answer<unknown>(), {
    raw: true,
    summary: 'Device payments as a CSV or XLSX file',
  }),
  refund: post('/device_payment/refund', { button: 'payment:refund' }, paymentRefundBody, idAnswer, { audit: 'device_payment', stepUp: true }),
});

import { financeApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import { registerMultipart } from '../uploads';
import * as devicePayments from './device-payments';
import * as payouts from './payouts';
import * as records from './records';

/**
 * Money, by sub-domain: records.ts (the summary and the ledger's list and export, grades 0-2), payouts.ts
 * (apply: grades 1-2 for their own institution; approve/reject: the platform; cancel: the applicant),
 * device-payments.ts (grades 0-2, one device's for grades 0-3 through the hidden page, totals, export,
 * refunds by grade 0), shared.ts (scoping, money and the files' labels). The writes that move money are
 * ledger.ts (`post`, the ledger's one write: append-only by trigger, migration 0009) and payments.ts (a
 * device payment with its commissions, a refund). Every read is scoped to the caller's subtree; an
 * institution filter outside it is refused.
 */
export default defineRoutes(
  financeApi,
  {
    summary: records.summary,
    list: records.list,
    exportList: records.exportList,
    payoutApply: payouts.payoutApply,
    payoutList: payouts.payoutList,
    payoutExport: payouts.payoutExport,
    payoutApprove: payouts.payoutApprove,
    payoutVoucher: payouts.payoutVoucher,
    payoutReject: payouts.payoutReject,
    payoutCancel: payouts.payoutCancel,
    payments: devicePayments.payments,
    paymentsExport: devicePayments.paymentsExport,
    refund: devicePayments.refund,
  },
  {
    snapshots: { payout: payouts.payoutSnapshot, device_payment: devicePayments.paymentSnapshot },
    // The voucher upload is multipart.
    setup: registerMultipart,
  },
);

import { financeApi } from '@app/contract';
import { defineRoutes } from '../../http/endpoints';
import { registerMultipart } from '../uploads';
import * as service from './service';

/** Money: the ledger and summary, payouts (with their voucher images), device payments and refunds. The ledger is append-only by trigger (migration 0009). */
export default defineRoutes(
  financeApi,
  {
    summary: service.summary,
    list: service.list,
    exportList: service.exportList,
    payoutApply: service.payoutApply,
    payoutList: service.payoutList,
    payoutExport: service.payoutExport,
    payoutApprove: service.payoutApprove,
    payoutVoucher: service.payoutVoucher,
    payoutReject: service.payoutReject,
    payoutCancel: service.payoutCancel,
    payments: service.payments,
    paymentsExport: service.paymentsExport,
    refund: service.refund,
  },
  {
    snapshots: { payout: service.payoutSnapshot, device_payment: service.paymentSnapshot },
    // The voucher upload is multipart.
    setup: registerMultipart,
  },
);

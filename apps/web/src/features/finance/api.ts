/** The finance module's calls (contract: `financeApi` in `@app/contract/api/finance`). */
import { useEndpoint, useEndpointList, useEndpointMutation, type ListInput } from '../../components/list';

/** Balance, ledger sum (always equal) and pending payouts: the caller's own; admins: one institution or all. */
export const useFinanceSummary = (institutionId?: number) => useEndpoint('finance.summary', institutionId ? { institution_id: institutionId } : {});
/** Ledger rows of the caller's subtree. */
export const useLedger = (query: ListInput) => useEndpointList('finance.list', query);
export const usePayouts = (query: ListInput) => useEndpointList('finance.payoutList', query);
/** Device payments with the totals of every matching row. */
export const usePayments = (query: ListInput) => useEndpointList('finance.payments', query);
export const useApplyPayout = (successMessage: string) => useEndpointMutation('finance.payoutApply', { invalidate: ['finance'], successMessage });
export const useApprovePayout = (successMessage: string) => useEndpointMutation('finance.payoutApprove', { invalidate: ['finance'], successMessage });
export const useRejectPayout = (successMessage: string) => useEndpointMutation('finance.payoutReject', { invalidate: ['finance'], successMessage });
export const useCancelPayout = (successMessage: string) => useEndpointMutation('finance.payoutCancel', { invalidate: ['finance'], successMessage });
export const useRefund = (successMessage: string) => useEndpointMutation('finance.refund', { invalidate: ['finance', 'equipment'], successMessage });
/** Packages for the filter (grade 0 only: the package page's access). */
export const usePackageOptions = (enabled: boolean) => useEndpoint('packages.list', { limit: 100, sort: 'sort', order: 'ascend' }, { enabled, staleTime: 60_000 });

import { PaymentsList } from './PaymentsList';

/** /finance-record/device-end-record (grades 0-2, scoped): every device payment, with totals and export. */
export default function PaymentsPage() {
  return <PaymentsList />;
}

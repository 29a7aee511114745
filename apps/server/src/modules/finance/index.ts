/** What other modules use of finance: recording a device payment (the device API), the ledger's one write. */
export { type DevicePaymentInput, type DevicePaymentResult, recordDevicePayment } from './payments';
export { balanceOf, post } from './ledger';

/** What other modules use of activation codes: the server key's sealing, for other secrets (the second factor's). */
export { type Sealer, serverSealer } from './key';

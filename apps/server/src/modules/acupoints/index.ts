/** What other modules may use of the acupoints module. */
export { acupointIdsByCode } from './service';

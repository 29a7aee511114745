/** What other modules may use of the uploads module. */
export { sniff } from './service';

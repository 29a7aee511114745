/** What other modules may use of the uploads module. */
export { registerMultipart } from './multipart';
export { receiveImage, sniff } from './service';
